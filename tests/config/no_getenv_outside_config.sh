#!/usr/bin/env bash
# Fails naming file:line for every getenv/secure_getenv of an "HCC_..."
# literal outside config/ (readers use config::flag/number/text), and for
# every HCC_* name that a reader asks config/ for, or that a script reads,
# which the table lacks.
#   no_getenv_outside_config.sh SOURCE_ROOT HCC_CONFIG_DOC
set -uo pipefail
root=$1
tool=$2
cd "$root" || exit 2
# Every top-level source folder, so a new one is covered without editing this
# list: all but the tests, docs, samples and build or install trees.
dirs=()
for d in */; do
  d=${d%/}
  case $d in tests | docs | samples | install | build*) ;; *) [ -f "$d/CMakeLists.txt" ] || [ "$d" = scripts ] && dirs+=("$d") ;; esac
done
status=0

direct=$(grep -rnE --include='*.c' --include='*.cc' --include='*.cpp' --include='*.h' --include='*.hpp' \
  '(secure_)?getenv[[:space:]]*\([[:space:]]*"HCC_' "${dirs[@]}" | grep -v '^config/')
if [ -n "$direct" ]; then
  echo "getenv of an HCC_* name outside config/ (use config::flag, config::number or config::text):"
  echo "$direct"
  status=1
fi

known=$("$tool" names) || exit 2
# Names in reads: getenv(...) anywhere, config::*("HCC_...") and the driver's switched_off("HCC_...").
read_names=$(grep -rhoE --include='*.c' --include='*.cpp' --include='*.h' --include='*.hpp' \
  '((secure_)?getenv|config::[a-z_]+|switched_off|flag|names_filter)[[:space:]]*\([[:space:]]*"HCC_[A-Z0-9_]+"' "${dirs[@]}" |
  grep -oE 'HCC_[A-Z0-9_]+')
# Names the scripts read: ${HCC_X...} and $HCC_X.
script_names=$(grep -rhoE '\$\{?HCC_[A-Z0-9_]+' scripts .ci 2>/dev/null | grep -oE 'HCC_[A-Z0-9_]+')
for n in $(printf '%s\n%s\n' "$read_names" "$script_names" | sort -u); do
  if ! grep -qx "$n" <<<"$known"; then
    where=$(grep -rnE "\"$n\"|\\\$\\{?$n\\b" "${dirs[@]}" .ci 2>/dev/null | head -1)
    echo "$n is read but not in the configuration table (add a row to the env_vars.def of its part): $where"
    status=1
  fi
done
[ $status = 0 ] && echo "no getenv of an HCC_* name outside config/; $(wc -l <<<"$known") variables in the table"
exit $status
