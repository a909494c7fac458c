#!/usr/bin/env bash
# Rewrites the environment table in docs/running.md (between its two marker
# comments) from the configuration table: config/ and every part's
# env_vars.def. Run after adding or changing a variable; the ctest test
# config.env_doc_matches_table fails until you do.
#   scripts/gen-env-doc.sh [BUILD_DIR]     (default: $HCC_BUILD_DIR or ./build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${HCC_BUILD_DIR:-$root/build}}
cmake --build "$build" --target hcc-config-doc >/dev/null
tool=$(find "$build" -name hcc-config-doc -type f -perm -u+x -print -quit)
[ -n "$tool" ] || { echo "gen-env-doc.sh: no hcc-config-doc in $build" >&2; exit 1; }
"$tool" update "$root/docs/running.md"
echo "docs/running.md: environment table regenerated ($("$tool" names | wc -l) variables)"
