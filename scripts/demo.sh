#!/usr/bin/env bash
# The main job on a fresh machine: set up, build and install hcc (without its
# tests), instrument samples/matmul, run it, and print its profile, saying how
# long each step took.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
step_start=$SECONDS
step() {
  echo "demo: $1 took $((SECONDS - step_start)) s"
  step_start=$SECONDS
}
"$root/scripts/build.sh" --demo
step "setting up, building and installing"
prefix=${HCC_PREFIX:-$root/install}
work=$(mktemp -d)
cd "$work"
"$prefix/bin/hcc" -O2 "$root/samples/matmul/matmul.c" -o matmul
step "instrumenting and compiling samples/matmul"
HCC_OUTPUT_DIR="$work/profile" ./matmul
step "running it"
echo
"$prefix/bin/hcc-report" "$work/profile"
echo
echo "Call tree:"
"$prefix/bin/hcc-report" --tree "$work/profile"
echo
echo "Profile kept in $work/profile (profile.cubex opens in CubeGUI; summary.txt is plain text)."
echo "demo: $SECONDS s in all"
