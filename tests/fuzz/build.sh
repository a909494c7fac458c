#!/bin/sh
# Builds the libFuzzer targets with Clang 19 (-fsanitize=fuzzer,address,undefined)
# into $1 (default: build-fuzz at the top of the tree). Each target is one
# source here plus the library sources it exercises, compiled directly: the
# project's own build uses GCC, and libFuzzer needs Clang.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$top/build-fuzz}
cxx=${HCC_FUZZ_CXX:-clang++-19}
mkdir -p "$out"
flags="-std=c++17 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Wno-deprecated-declarations -D_GNU_SOURCE"
cube="$top/cube"
views="$top/report/views"
text="$top/text_views"
# The HTML view's page is compiled in from a generated header, as in the build.
mkdir -p "$out/generated"
cmake -DIN_DIR="$views/html" -DOUT="$out/generated/html_assets.hpp" -P "$views/html/embed.cmake"
# shellcheck disable=SC2086
# The text views open with the findings (findings/), whose measurement kind
# prices regions with the plans' model (plans/, which checks its filter
# lines with the filter parser).
$cxx $flags -I"$top" -I"$cube" -I"$text" -I"$top/findings" -I"$top/plans" -I"$views" -I"$out/generated" -I/usr/include/libxml2 \
  "$here/cubex_reader.cpp" "$cube"/profile.cpp \
  "$cube"/row_order.cpp "$cube"/anchor_write.cpp "$cube"/anchor_read.cpp "$cube"/cubex_write.cpp "$cube"/cubex_read.cpp \
  "$cube"/cfg_member.cpp "$text"/summary.cpp "$text"/mpi_summary.cpp "$text"/openmp_summary.cpp \
  "$top"/findings/*.cpp "$top"/plans/judge.cpp "$top"/plans/filter_lines.cpp "$top"/filter/filter.cpp "$top"/io/regular_file.cpp \
  "$views"/findings_view.cpp \
  "$views"/json_view.cpp "$views"/html_view.cpp "$views"/call_graph_model.cpp "$views"/gprof_view.cpp \
  "$views"/callgraph_dot.cpp "$views"/graphviz.cpp "$views"/cfg_view.cpp "$views"/folded.cpp "$views"/diff.cpp \
  -lxml2 -larchive -lfmt -o "$out/cubex_reader"
# shellcheck disable=SC2086
$cxx $flags -I"$top" -I"$top/filter" "$here/filter_parser.cpp" "$top/filter/filter.cpp" "$top/io/regular_file.cpp" \
  -o "$out/filter_parser"
# shellcheck disable=SC2086
# env.cpp checks names against the configuration table (config/).
$cxx $flags -I"$top" -I"$top/runtime" "$here/env_parser.cpp" "$top/runtime/core/env.cpp" "$top/config/table.cpp" \
  "$top/config/switch_words.cpp" -o "$out/env_parser"
# shellcheck disable=SC2086
$cxx $flags -I"$top" -I"$top/instrumentor/driver" "$here/driver_args.cpp" "$top/instrumentor/driver/args.cpp" \
  "$top/instrumentor/driver/response_file.cpp" "$top/io/regular_file.cpp" -o "$out/driver_args"
echo "$out"
