#!/usr/bin/env bash
# Build time through hcc versus the plain compiler (-O2 -c), for a small C
# file (samples/matmul), a C++ file with templates and lambdas
# (samples/cpp/particles.cpp) and a header-heavy C++ file
# (heavy_headers.cpp: <regex>, <map>, <iostream> …), with gcc and clang.
#
# Paired runs: each round compiles the file plainly and through hcc, one
# right after the other (the order alternates), and the ratio of the pair
# is taken; the table shows the medians of those ratios, wall clock and CPU
# time (user + system of every process involved), so a shared machine's
# load drifting between rounds cancels out. The hcc columns:
#   warm   — the instrumentor's caches on (their default; untimed compiles
#            fill them): the file compiled again unchanged (result cache);
#   edited — the file's body changed before every compile (a comment
#            appended): its leading system headers come from the
#            precompiled preamble, the rest is parsed;
#   new    — a file never compiled before (a fresh copy in a new directory
#            every round) that begins like files compiled earlier from the
#            same directory with the same flags: no result to reuse, the
#            preamble theirs;
#   first  — a project's first build: an empty cache directory (a new one
#            every round), the file compiled once (it leaves a mark that
#            its leading lines were seen);
#   second — right after `first`, another file with the same text in the
#            same directory: the second sighting of those leading lines,
#            which the server precompiles once this file has its answer,
#            while the compiler runs (a third file would be `new`);
#   cold   — HCC_CACHE=off: every compile parses everything;
#   noserver — HCC_CACHE=off HCC_SERVER=off: also a started hcc-instrument
#            for every file (the other columns run it in the instrumentation
#            server, which the untimed compiles start).
# The CPU columns include the server's workers (their /proc times around
# each compile): they are not children of the compile; `second`'s includes
# the precompilation (the measurement waits for it, the wall time does not).
# Usage: build_time.sh <prefix-or-build-dir> [rounds] [file]
#   (default 9 rounds; `file`, e.g. matmul.c, measures that file's rows only)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
hcc=${1:-$root/build}/bin/hcc
rounds=${2:-9}
only=${3:-}
[ -x "$hcc" ] || { echo "no hcc at $hcc" >&2; exit 2; }
exec python3 - "$hcc" "$rounds" "$root" "$here" "$only" <<'PY'
import os, resource, statistics, subprocess, sys, tempfile, time

hcc, rounds, root, here, only = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
work = tempfile.mkdtemp(prefix="hcc-build-time-")
cache = os.path.join(work, "cache")

TICK = os.sysconf("SC_CLK_TCK")

def server_cpu():
    """CPU seconds so far of the instrumentation servers: every process
    started with --serve= (the server, its workers, the jobs a worker runs
    after a reply), what they have reaped, and the ended jobs not yet reaped."""
    stats = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                serving = b"--serve=" in f.read()
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            stats[int(pid)] = (serving, fields)
        except OSError:
            pass
    servers = {pid for pid, (serving, _) in stats.items() if serving}
    total = 0
    for pid, (serving, fields) in stats.items():
        if serving:  # utime, stime, cutime, cstime
            total += sum(int(x) for x in fields[11:15])
        elif fields[0] == "Z" and int(fields[1]) in servers:
            total += int(fields[11]) + int(fields[12])
    return total / TICK

def run(cmd, env=None, settle=None):
    """Wall and CPU seconds of one command, its children and the server;
    `settle` says when work the command left running in the server is done
    (its CPU is counted, its time is not)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    served = server_cpu()
    t = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    for _ in range(300 if settle else 0):
        if settle():
            break
        time.sleep(0.1)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu + server_cpu() - served

def pchs(cache_dir):
    """How many precompiled preambles `cache_dir` holds."""
    d = os.path.join(cache_dir, "pch")
    return len([n for n in os.listdir(d) if n.endswith(".pch")]) if os.path.isdir(d) else 0

def measure(cc, src):
    plain = [cc, "-O2", "-c", src, "-o", os.path.join(work, "plain.o")]
    through_hcc = lambda path: [hcc, "--hcc-compiler=" + cc, "-O2", "-c", path, "-o", os.path.join(work, "hcc.o")]
    inst = through_hcc(src)
    edited = os.path.join(work, "edit-" + cc, os.path.basename(src))
    os.makedirs(os.path.dirname(edited), exist_ok=True)
    text = open(src).read()
    def edit(i):
        with open(edited, "w") as f:
            f.write(text + f"/* edit {i} */\n")
    inst_edited = through_hcc(edited)
    def copy(i):
        path = os.path.join(work, f"new-{cc}-{i}", os.path.basename(src))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return through_hcc(path)
    def first_build(i):
        d = os.path.join(work, f"first-{cc}-{os.path.basename(src)}-{i}")
        os.makedirs(d)
        cmds = []
        for name in ("a", "b"):
            path = os.path.join(d, name + "_" + os.path.basename(src))
            with open(path, "w") as f:
                f.write(text)
            cmds.append(through_hcc(path))
        env = dict(warm_env, HCC_CACHE_DIR=os.path.join(d, "cache"))
        done = lambda: pchs(env["HCC_CACHE_DIR"]) > 0
        return [("first", cmds[0], env, None), ("second", cmds[1], env, done)]
    warm_env = dict(os.environ, HCC_CACHE_DIR=cache)
    warm_env.pop("HCC_CACHE", None)
    warm_env.pop("HCC_SERVER", None)
    cold_env = dict(os.environ, HCC_CACHE="off")
    cold_env.pop("HCC_SERVER", None)
    unserved_env = dict(cold_env, HCC_SERVER="off")
    run(plain)
    run(inst, warm_env)  # fills the result cache, starts the server
    before = pchs(cache)
    for i in (-2, -1):   # the preamble: seen, then precompiled (after the answer)
        edit(i)
        run(inst_edited, warm_env, settle=lambda: pchs(cache) > before)
    run(inst, cold_env)
    time.sleep(0.5)      # the server up, its workers having run once
    run(inst, cold_env)
    columns = ("warm", "edited", "new", "first", "second", "cold", "noserver")
    rows = {name: [] for name in ("plain",) + columns}
    for i in range(rounds):
        edit(i)
        # `first` and `second` stay in that order, one after the other.
        order = [[("plain", plain, None, None)], [("warm", inst, warm_env, None)],
                 [("edited", inst_edited, warm_env, None)], [("new", copy(i), warm_env, None)],
                 first_build(i), [("cold", inst, cold_env, None)], [("noserver", inst, unserved_env, None)]]
        if i % 2:
            order.reverse()
        for group in order:
            for name, cmd, env, settle in group:
                rows[name].append(run(cmd, env, settle))
    med = lambda xs: statistics.median(xs)
    plain_wall = med([w for w, _ in rows["plain"]])
    out = f"{os.path.basename(src):18s} {cc:8s} plain {plain_wall*1e3:6.0f} ms"
    for name in columns:
        wall_ratio = med([h[0] / p[0] for h, p in zip(rows[name], rows["plain"])])
        cpu_ratio = med([h[1] / p[1] for h, p in zip(rows[name], rows["plain"])])
        wall = med([w for w, _ in rows[name]])
        out += f" | {name} {wall*1e3:5.0f} ms {wall_ratio:4.2f} (cpu {cpu_ratio:4.2f})"
    print(out, flush=True)

print(f"{'file':18s} {'compiler':8s} medians of {rounds} paired rounds; hcc ms, hcc/plain wall (cpu)")
for src, compilers in ((os.path.join(root, "samples/matmul/matmul.c"), ("gcc", "clang")),
                       (os.path.join(root, "samples/cpp/particles.cpp"), ("g++", "clang++")),
                       (os.path.join(here, "heavy_headers.cpp"), ("g++", "clang++"))):
    if only and os.path.basename(src) != only:
        continue
    for cc in compilers:
        measure(cc, src)
subprocess.run(["rm", "-rf", work])
PY
