#!/usr/bin/env bash
# Fixture: installs hcc from the build tree into a scratch prefix, as users
# get it (cmake --install), and builds the sample plainly for reference output.
source "$(dirname "$0")/lib.sh"
step "cmake --install into $IT_PREFIX"
rm -rf "$IT_PREFIX"
"$CMAKE" --install "$IT_BUILD_DIR" --prefix "$IT_PREFIX" > install.log || { cat install.log; fail "install"; }
for f in bin/hcc bin/hcc-cc bin/hcc-c++ lib/libhcc.so lib/libhcc_cubex.so lib/cmake/hcc/hcc-toolchain.cmake lib/cmake/hcc/hccConfig.cmake \
         lib/cmake/hcc/hccConfigVersion.cmake; do
  [ -e "$IT_PREFIX/$f" ] || fail "installation lacks $f"
done
"$IT_PREFIX/bin/hcc" --hcc-show-config | grep -q "^cmake: *$IT_PREFIX/lib/cmake/hcc$" \
  || fail "hcc --hcc-show-config does not name the CMake package dir"

step "plain reference build of samples/cmake-project"
"$CMAKE" -S "$SAMPLE" -B plain -G "$GENERATOR" > plain.log || { cat plain.log; fail "plain configure"; }
"$CMAKE" --build plain > plain-build.log || { cat plain-build.log; fail "plain build"; }
plain/histogram 20000 > "$IT_REFERENCE"
