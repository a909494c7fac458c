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
# What cost the run the most: matmul has nothing above 0.5%; the OpenMP
# sample's imbalanced loop and critical section are found.
"$prefix/bin/hcc-report" --findings "$work/profile"
"$prefix/bin/hcc" -fopenmp -O2 "$root/samples/openmp/imbalance.c" -o imbalance
OMP_NUM_THREADS=4 HCC_OUTPUT_DIR="$work/openmp-profile" ./imbalance
echo
echo "Findings of samples/openmp/imbalance.c:"
"$prefix/bin/hcc-report" --findings "$work/openmp-profile"
step "the findings of matmul and of the OpenMP sample"
echo
echo "Profile kept in $work/profile (profile.cubex opens in CubeGUI; summary.txt is plain text)."
echo "demo: $SECONDS s in all"
