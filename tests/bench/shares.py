#!/usr/bin/env python3
"""Each function's exclusive share of a run, from perf or from hcc's profile,
and the truth table's judgement of one against the other (truth_table.sh).

  shares.py perf EXE [--kernel=caller|other] < `perf script -F comm,ip,sym,dso` > perf.tsv
                (of `perf record -g -e cpu-clock`)
  shares.py hcc EXE [CPUFILE] < `hcc-report --json PROFILE` > hcc.tsv
  shares.py judge NAME DIR    (DIR/perf-*.tsv against DIR/hcc-*.tsv)
  shares.py run CPUFILE COMMAND...   (runs it; its user+system CPU seconds
                                      to CPUFILE, for hcc's note)

A .tsv holds "percent<TAB>row" lines and '#' comment lines (totals). Rows are
the program's functions by name, and one row "[libraries and other]": shared
libraries (libc, libm, libgomp, ld.so, libhcc ...), PLT stubs, start-up code
and what neither side can name. A sample of perf in the kernel counts for the
user-space frame that entered it (--kernel=caller, the default: a page fault
is the function that touched the page, a system call the library's wrapper),
as hcc's samples and clocks see it; --kernel=other puts the kernel in the
libraries' row instead. Both sides fold names alike
(canonical()), so the two columns name the same thing:
  - parameter lists, return types, cv-qualifiers and template arguments are
    dropped (perf prints `ns::View2D<double>::operator()`, hcc
    `ns::View2D<double>::operator()(int, int) const` or, for an instrumented
    template, `T ns::f(const V<T>&) [T = double]`): overloads and
    instantiations of one name are one row on both sides;
  - GCC clones (.part.N, .constprop.N, .isra.N, .cold, `[clone ...]`) are the
    function they were cloned from; `name [inlined]` is `name`;
  - an OpenMP construct is its enclosing function's: perf sees the outlined
    body as `fn._omp_fn.N` (folded into `fn`), hcc as a `!$omp ...` region
    below `fn` (folded into the nearest region above that is not a construct).
hcc's time of `<not on CPU>` (time no sample explains: outside every frame,
or a timed function's time off the CPU, its child) is left out of its total:
perf's cpu-clock sees only time on the CPU. Time off the CPU that hcc could
not tell from sampling noise stays in hcc's figures; the note compares the
profile's time with the run's CPU time (CPUFILE) to show how much there is.
"""
import glob
import json
import os
import re
import statistics
import subprocess
import sys

OTHER = "[libraries and other]"
# Judged rows and the targets (issue 41): every row perf gives >= 10 % is
# within 5 points in hcc's profile, and the top row is the same.
JUDGED_FROM, MAX_GAP = 10.0, 5.0
# Rows shown when either side gives at least this much.
SHOWN_FROM = 1.0

_CLONE = re.compile(r"\.(?:part|constprop|isra|cold|lto_priv|_omp_fn|clone)(?:\.\d+)?$")
_NOT_FUNCTIONS = {"_init", "_start", "_fini", "__libc_csu_init", "frame_dummy", "register_tm_clones",
                  "deregister_tm_clones", "__do_global_dtors_aux", "[unknown]", ""}


def _strip_balanced_suffix(s, open_c, close_c):
    """s without its trailing balanced open_c...close_c group (s ends with close_c)."""
    depth = 0
    for i in range(len(s) - 1, -1, -1):
        if s[i] == close_c:
            depth += 1
        elif s[i] == open_c:
            depth -= 1
            if depth == 0:
                return s[:i]
    return s


def _operator_end(s, i):
    """Index after the operator symbol that starts at s[i] (after 'operator')."""
    for sym in ("()", "[]"):
        if s.startswith(sym, i):
            return i + 2
    j = i
    while j < len(s) and s[j] in "+-*/%^&|~!=<>,":
        j += 1
    return j


def _drop_template_args(s):
    out, depth, i = [], 0, 0
    while i < len(s):
        if s.startswith("operator", i) and (i == 0 or not (s[i - 1].isalnum() or s[i - 1] == "_")):
            j = _operator_end(s, i + len("operator"))
            if depth == 0:
                out.append(s[i:j])
            i = j
            continue
        c = s[i]
        if c == "<":
            depth += 1
        elif c == ">" and depth > 0:
            depth -= 1
        elif depth == 0:
            out.append(c)
        i += 1
    return "".join(out)


def canonical(name):
    """The row a function's name belongs to (see the module's comment)."""
    s = name.strip()
    # Trailing bracketed notes: [inlined], [clone .isra.0], [T = double].
    while s.endswith("]") and "[" in s and not s.endswith("operator[]"):
        head = _strip_balanced_suffix(s, "[", "]").rstrip()
        if head == s or not head:
            break
        s = head
    while True:
        t = _CLONE.sub("", s)
        if t == s:
            break
        s = t
    # Qualifiers after the parameter list, then the list itself.
    while True:
        t = re.sub(r"\s*(?:const|volatile|noexcept|&&|&)$", "", s)
        if t == s:
            break
        s = t
    if s.endswith(")") and not s.endswith("operator()"):
        s = _strip_balanced_suffix(s, "(", ")").rstrip()
    s = _drop_template_args(s).rstrip()
    # A return type before the name: the last space outside parentheses
    # ("(anonymous namespace)" has one inside).
    depth, cut = 0, -1
    for i, c in enumerate(s):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == " " and depth == 0 and not re.search(r"\boperator\S*$", s[:i]):
            cut = i
    s = s[cut + 1:].lstrip("*& ")
    if s in _NOT_FUNCTIONS or s.endswith("@plt"):
        return OTHER
    return s


def display(row):
    return row.replace("(anonymous namespace)::", "")


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.basename(a) == os.path.basename(b)


def _write(rows, total, notes):
    for note in notes:
        print("# %s" % note)
    for row, value in sorted(rows.items(), key=lambda kv: -kv[1]):
        print("%.3f\t%s" % (100.0 * value / total if total > 0 else 0.0, row))


def _perf_samples(lines):
    """(comm, frames) per sample of `perf script -F comm,ip,sym,dso` of a
    recording with call chains (-g): a line with the command, then one line
    per frame, leaf first ("\tIP SYM (DSO)"), then a blank line."""
    frame = re.compile(r"^\s+([0-9a-f]+)\s+(.*?)\s*\(([^()]*)\)\s*$")
    comm, frames = None, []
    for line in lines:
        if not line.strip():
            if comm is not None:
                yield comm, frames
            comm, frames = None, []
        elif comm is None:
            comm = line.split()[0]
        else:
            m = frame.match(line)
            if m:
                frames.append((int(m.group(1), 16), m.group(2), m.group(3)))
    if comm is not None:
        yield comm, frames


def _in_kernel(ip, dso):
    return dso.startswith("[kernel") or ip >= 0xffff800000000000


def perf_shares(exe, lines, kernel="caller"):
    """Shares of perf's samples. kernel="caller": a sample in the kernel is
    the user-space frame that entered it (the first user frame of its chain:
    the instruction that faulted, the library's system call wrapper), which
    is where hcc's CPU-time signal lands too; "other": the kernel is a
    library, [libraries and other]."""
    rows, total, skipped, in_kernel, no_user = {}, 0, 0, 0, 0
    for comm, frames in _perf_samples(lines):
        if comm == "perf-exec":  # perf's own start before the exec
            skipped += 1
            continue
        if not frames:
            continue
        ip, sym, dso = frames[0]
        row = None
        if _in_kernel(ip, dso):
            in_kernel += 1
            user = [f for f in frames if not _in_kernel(f[0], f[2])]
            if kernel != "caller":
                row = OTHER
            elif not user:
                no_user += 1
                row = OTHER
            else:
                ip, sym, dso = user[0]
        if row is None:
            row = canonical(sym) if _same_file(dso, exe) else OTHER
        rows[row] = rows.get(row, 0) + 1
        total += 1
    where = ("the user frame that entered it" if kernel == "caller" else OTHER)
    _write(rows, total, ["%d cpu-clock samples (%d before the exec left out); %d in the kernel, counted as %s%s"
                         % (total, skipped, in_kernel, where,
                            " (%d without one: %s)" % (no_user, OTHER) if no_user else "")])


def hcc_shares(exe, profile, cpu_file=None):
    """Shares of exclusive time in an hcc-report --json profile, summed over
    call paths and locations."""
    regions = profile["regions"]
    paths = {c["id"]: c for c in profile["callpaths"]}
    row_of = {}

    def row(cid):
        if cid in row_of:
            return row_of[cid]
        c = paths[cid]
        reg = regions[c["region"]]
        name, kind = reg["name"], reg.get("kind", "function")
        if kind == "artificial":
            r = None if name == "<not on CPU>" else OTHER
        elif name.startswith("!$omp") or kind == "loop":
            # An OpenMP construct (or a loop region): its enclosing function's.
            r = row(c["parent"]) if c["parent"] in paths else OTHER
            r = OTHER if r is None else r
        elif kind == "sampled" and not _same_file(reg.get("file", ""), exe):
            r = OTHER  # a shared library, or the runtime's own code
        elif name.startswith("MPI_") or name.startswith("PMPI_"):
            r = OTHER
        else:
            r = canonical(name)
        row_of[cid] = r
        return r

    rows, total, off_cpu, samples = {}, 0.0, 0.0, 0
    for cid, c in paths.items():
        values = c["values"]
        t = sum(values["time"]["excl"])
        if "samples" in values:
            samples += sum(values["samples"]["excl"])
        r = row(cid)
        if r is None:
            off_cpu += t
            continue
        rows[r] = rows.get(r, 0.0) + t
        total += t
    notes = ["%.3f s of exclusive time (%.3f s <not on CPU> left out), %d samples" % (total, off_cpu, samples)]
    if cpu_file:
        with open(cpu_file) as f:
            cpu = float(f.read())
        if cpu > 0:
            notes.append("the run's CPU time (user+sys) %.3f s; profile time / CPU time %.2f (above 1: time off the"
                         " CPU inside frames, blocking or waiting for a core)" % (cpu, total / cpu))
    _write(rows, total, notes)


def run(cpu_file, command):
    """Runs command (stdin, stdout, stderr inherited); its exit status is
    ours; its user + system CPU seconds go to cpu_file."""
    child = subprocess.Popen(command)
    _, status, usage = os.wait4(child.pid, 0)
    with open(cpu_file, "w") as f:
        f.write("%.6f\n" % (usage.ru_utime + usage.ru_stime))
    return os.waitstatus_to_exitcode(status)


def read_tsv(path):
    rows, notes = {}, []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                notes.append(line[1:].strip())
            elif line:
                share, row = line.split("\t", 1)
                rows[row] = float(share)
    return rows, notes


def medians(paths):
    runs = [read_tsv(p)[0] for p in paths]
    names = set().union(*runs) if runs else set()
    return {n: statistics.median([r.get(n, 0.0) for r in runs]) for n in names}, len(runs)


def judge(name, directory):
    perf_paths = sorted(glob.glob(os.path.join(directory, "perf-*.tsv")))
    hcc_paths = sorted(glob.glob(os.path.join(directory, "hcc-*.tsv")))
    if not perf_paths or not hcc_paths:
        sys.exit("shares.py: no perf-*.tsv or hcc-*.tsv in %s" % directory)
    perf, n_perf = medians(perf_paths)
    hcc, n_hcc = medians(hcc_paths)
    rows = set(perf) | set(hcc)
    order = sorted(rows, key=lambda r: (r == OTHER, -perf.get(r, 0.0), -hcc.get(r, 0.0), r))
    width = max([len(display(r)) for r in order] + [24])
    print("%s: exclusive share, median of %d run(s) each (judged: perf >= %.0f%%, * = gap over %.0f points)"
          % (name, min(n_perf, n_hcc), JUDGED_FROM, MAX_GAP))
    print("  %-*s %8s %8s %7s" % (width, "function", "perf %", "hcc %", "gap"))
    max_gap, hidden_perf, hidden_hcc, hidden = 0.0, 0.0, 0.0, 0
    for r in order:
        p, h = perf.get(r, 0.0), hcc.get(r, 0.0)
        judged = p >= JUDGED_FROM
        if judged:
            max_gap = max(max_gap, abs(h - p))
        if p < SHOWN_FROM and h < SHOWN_FROM and r != OTHER:
            hidden, hidden_perf, hidden_hcc = hidden + 1, hidden_perf + p, hidden_hcc + h
            continue
        mark = "*" if judged and abs(h - p) > MAX_GAP else " "
        print("  %-*s %8.1f %8.1f %+7.1f%s" % (width, display(r), p, h, h - p, mark))
    if hidden:
        print("  %-*s %8.1f %8.1f" % (width, "(%d more, each < %.0f%% on both sides)" % (hidden, SHOWN_FROM),
                                       hidden_perf, hidden_hcc))
    top_perf = max(perf, key=lambda r: perf[r])
    top_hcc = max(hcc, key=lambda r: hcc[r])
    ok = max_gap <= MAX_GAP and top_perf == top_hcc
    for path in (perf_paths[0], hcc_paths[0]):
        for note in read_tsv(path)[1]:
            print("  %s (%s): %s" % ("perf" if "perf-" in os.path.basename(path) else "hcc", os.path.basename(path), note))
    print("%s %s: max gap %.1f points on rows perf gives >= %.0f%%; top row perf '%s', hcc '%s'"
          % ("PASS" if ok else "FAIL", name, max_gap, JUDGED_FROM, display(top_perf), display(top_hcc)))
    token = lambda r: display(r).replace(" ", "_")
    print("truth: %s max_gap=%.1f top_perf=%s top_hcc=%s verdict=%s"
          % (name, max_gap, token(top_perf), token(top_hcc), "pass" if ok else "fail"))


def main(argv):
    if len(argv) in (3, 4) and argv[1] == "perf":
        kernel = argv[3].split("=", 1)[1] if len(argv) == 4 and argv[3].startswith("--kernel=") else "caller"
        if len(argv) == 4 and (not argv[3].startswith("--kernel=") or kernel not in ("caller", "other")):
            sys.exit("shares.py: perf's option is --kernel=caller|other, not %s" % argv[3])
        perf_shares(argv[2], sys.stdin, kernel)
    elif len(argv) in (3, 4) and argv[1] == "hcc":
        hcc_shares(argv[2], json.load(sys.stdin), argv[3] if len(argv) == 4 else None)
    elif len(argv) >= 4 and argv[1] == "run":
        code = run(argv[2], argv[3:])
        sys.exit(code if code >= 0 else 128 - code)
    elif len(argv) == 4 and argv[1] == "judge":
        judge(argv[2], argv[3])
    else:
        sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    main(sys.argv)
