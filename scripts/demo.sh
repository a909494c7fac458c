#!/usr/bin/env bash
# The main job on a fresh machine: set up, build and install hcc, instrument
# samples/matmul, run it, and print its profile.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
prefix=${HCC_PREFIX:-$root/install}
work=$(mktemp -d)
cd "$work"
"$prefix/bin/hcc" -O2 "$root/samples/matmul/matmul.c" -o matmul
HCC_OUTPUT_DIR="$work/profile" ./matmul
echo
"$prefix/bin/hcc-report" "$work/profile"
echo
echo "Call tree:"
"$prefix/bin/hcc-report" --tree "$work/profile"
echo
echo "Profile kept in $work/profile (profile.cubex opens in CubeGUI; summary.txt is plain text)."
