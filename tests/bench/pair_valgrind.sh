#!/usr/bin/env bash
# What one enter+exit pair executes and touches, counted by valgrind (the
# same on a busy machine as on a quiet one), on pair_floor.sh's stand-ins:
#   - callgrind: instructions per pair in libhcc's enter and exit paths and
#     in the program's guard and trampolines, the difference of two runs
#     (pair_lookup 16 with 1 and 2 million calls; pair_recursion 25 and 26,
#     150,050 calls apart), so start-up and exit cancel out;
#   - lackey (--trace-mem=yes): the distinct 64-byte lines that libhcc's
#     instructions read or write in one pair of the program's loop (the
#     descriptor and the program's stack included), and which access hit
#     which line in the last pair.
#   tests/bench/pair_valgrind.sh [BUILD_OR_PREFIX [LIBDIR]]
# LIBDIR (default BUILD/lib) is put first in LD_LIBRARY_PATH, which the
# programs' RUNPATH gives way to: the same binaries against an older
# libhcc.so (e.g. a build of the parent commit) give the "before" figures.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
lib=$(cd "${2:-$build/lib}" && pwd)
hcc=$build/bin/hcc
command -v valgrind >/dev/null || { echo "pair_valgrind.sh: needs valgrind" >&2; exit 2; }
[ -x "$hcc" ] || { echo "pair_valgrind.sh: no hcc at $hcc" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for s in pair_lookup pair_recursion; do
  "$hcc" --hcc-compiler=gcc --hcc-functions=all -O2 -I"$here" "$here/$s.c" -o "$work/$s"
done
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
run() { HCC_VERBOSE=0 HCC_OVERWRITE=1 HCC_OUTPUT_DIR="$work/prof" "$@"; }
echo "libhcc.so: $lib/libhcc.so"

for spec in "tiny loop:pair_lookup 16 1000000:pair_lookup 16 2000000:1000000" \
            "recursion:pair_recursion 25:pair_recursion 26:150050"; do
  IFS=: read -r name a b n <<< "$spec"
  run valgrind --tool=callgrind --callgrind-out-file="$work/cg.a" "$work"/$a > /dev/null 2>&1
  run valgrind --tool=callgrind --callgrind-out-file="$work/cg.b" "$work"/$b > /dev/null 2>&1
  python3 - "$work/cg.a" "$work/cg.b" "$n" "$name" <<'PY'
import collections, re, subprocess, sys
def load(path):  # instructions per group: libhcc's enter side, exit side, the program's trampolines
    d = collections.Counter()
    out = subprocess.run(["callgrind_annotate", "--threshold=100", path], capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*)$", line)
        if not m:
            continue
        ir, where = int(m.group(1).replace(",", "")), m.group(2)
        fn = re.sub(r" \[.*\]$", "", where).split(":", 1)[-1]
        if "libhcc" in where:
            d["enter" if "enter" in fn else "exit" if "exit" in fn or "pop" in fn else "other"] += ir
        elif fn.startswith("__hcc_t_"):
            d["guards"] += ir
    return d
a, b, n = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3])
per = {k: (b[k] - a[k]) / n for k in ["enter", "exit", "other", "guards"]}
print(f"callgrind, {sys.argv[4]}: {per['enter'] + per['exit']:.1f} instructions per pair in libhcc "
      f"(enter side {per['enter']:.1f}, exit side {per['exit']:.1f}, elsewhere {per['other']:.1f}), "
      f"{per['guards']:.1f} in the program's guards and trampolines")
PY
done

# One lackey run; libhcc's load address from the dynamic loader's own report.
run env LD_DEBUG=files valgrind --tool=lackey --trace-mem=yes --log-file="$work/trace" \
  "$work/pair_lookup" 16 3000 > /dev/null 2> "$work/ld"
python3 - "$work/trace" "$work/ld" "$lib/libhcc.so" <<'PY'
import collections, re, subprocess, sys
trace, ld, lib = sys.argv[1:4]
m = re.search(r"file=\S*libhcc\.so.*?\n.*?\n\s*\d+:\s+dynamic: \S+\s+base: (0x[0-9a-f]+)\s+size: (0x[0-9a-f]+)", open(ld).read())
if not m:
    sys.exit("pair_valgrind.sh: libhcc.so's base address not found in LD_DEBUG's output")
base, size = int(m.group(1), 16), int(m.group(2), 16)
syms = {}
for line in subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True).stdout.splitlines():
    addr, _, name = line.split()
    syms[name] = int(addr, 16)
start = base + syms["hcc_enter"]
pairs, cur, ia, prev = [], None, 0, 0
for line in open(trace):
    if line[0] == "I":
        prev, ia = ia, int(line.split()[1].split(",")[0], 16)
        if ia == start:  # a pair begins: one called by the program, not by libhcc itself
            cur = [] if not base <= prev < base + size else None
            if cur is not None:
                pairs.append(cur)
    elif cur is not None and line[:1] == " " and line[1] in "LSM" and base <= ia < base + size:
        kind, rest = line.split()
        addr, sz = rest.split(",")
        cur.append((kind, int(addr, 16), int(sz), ia - base))
steady = pairs[-2000:-2]  # the program's loop (the last pair runs into exit)
lines = lambda p: {l for _, a, sz, _ in p for l in range(a >> 6, ((a + sz - 1) >> 6) + 1)}
counts = collections.Counter(len(lines(p)) for p in steady)
print(f"lackey, tiny loop: distinct cache lines per pair (libhcc's accesses, descriptor and stack included): "
      + ", ".join(f"{k} in {v} pairs" for k, v in sorted(counts.items())))
print("one pair, access by access (kind, line, offset in it, size, libhcc offset of the instruction):")
for kind, a, sz, off in steady[-1]:
    print(f"  {kind} {a >> 6 << 6:#x} +{a & 63:<2d} {sz}  libhcc+{off:#x}")
PY
