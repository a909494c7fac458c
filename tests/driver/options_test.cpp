// The driver's own --hcc-* options, HCC_WRAPPER values, link flags and path
// helpers.
#include <cstdlib>
#include <gtest/gtest.h>

#include "link_flags.hpp"
#include "options.hpp"
#include "paths.hpp"
#include "test_util.hpp"

using namespace hcc::driver;
using Args = std::vector<std::string>;

TEST(HccOptions, TakenOutWhereverTheyAre) {
  Args a = {"--hcc-verbose", "-c", "x.c", "--hcc-keep", "--hcc-compiler=ccache gcc -m64",
            "--hcc-off", "-o", "x.o", "--hcc-version", "--hcc-show-config"};
  HccOptions o;
  EXPECT_FALSE(take_hcc_options(a, o));
  EXPECT_EQ(a, (Args{"-c", "x.c", "-o", "x.o"}));
  EXPECT_TRUE(o.verbose && o.keep && o.off && o.version && o.show_config);
  ASSERT_TRUE(o.compiler);
  EXPECT_EQ(split_command(*o.compiler), (Args{"ccache", "gcc", "-m64"}));
}

TEST(HccOptions, UnknownOptionIsNamed) {
  Args a = {"-c", "--hcc-verbos", "x.c"};
  HccOptions o;
  auto err = take_hcc_options(a, o);
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("'--hcc-verbos'"), std::string::npos) << *err;
  EXPECT_EQ(a, (Args{"-c", "x.c"}));
}

// Headers are instrumented unless --hcc-headers=off; --hcc-functions=all
// (every function, today's only policy) goes on to the instrumentor.
TEST(HccOptions, HeadersSwitchAndFunctionPolicy) {
  Args a = {"-c", "x.cpp", "--hcc-functions=all"};
  HccOptions o;
  EXPECT_FALSE(take_hcc_options(a, o));
  EXPECT_TRUE(o.headers);
  EXPECT_EQ(o.instrument_args, (Args{"--functions=all"}));
  Args b = {"--hcc-headers=off", "-c", "x.cpp"};
  HccOptions p;
  EXPECT_FALSE(take_hcc_options(b, p));
  EXPECT_FALSE(p.headers);
  for (std::string bad : {"--hcc-headers", "--hcc-headers=maybe", "--hcc-functions=some"}) {
    Args c = {bad};
    HccOptions q;
    auto err = take_hcc_options(c, q);
    ASSERT_TRUE(err) << bad;
    EXPECT_NE(err->find(bad), std::string::npos) << *err;
  }
}

// Count mode: --hcc-functions=count:A,B passes one --count= per name; commas
// inside <>, () and [] belong to the name; it combines with auto|all|none.
TEST(HccOptions, FunctionsCountNamesFunctionsToCount) {
  Args a = {"--hcc-functions=all", "--hcc-functions=count:get*, f<int, char>,g(int, double)", "-c", "x.cpp"};
  HccOptions o;
  EXPECT_FALSE(take_hcc_options(a, o));
  EXPECT_EQ(o.instrument_args,
            (Args{"--functions=all", "--count=get*", "--count=f<int, char>", "--count=g(int, double)"}));
  EXPECT_EQ(a, (Args{"-c", "x.cpp"}));
  for (std::string bad : {"--hcc-functions=count:", "--hcc-functions=count: , "}) {
    Args c = {bad};
    HccOptions q;
    auto err = take_hcc_options(c, q);
    ASSERT_TRUE(err) << bad;
    EXPECT_NE(err->find("names no function"), std::string::npos) << *err;
  }
}

TEST(HccOptions, CompilerNeedsAValue) {
  for (std::string bad : {"--hcc-compiler", "--hcc-compiler=", "--hcc-compiler=  "}) {
    Args a = {bad};
    HccOptions o;
    EXPECT_TRUE(take_hcc_options(a, o)) << bad;
  }
}

// The driver's switches (HCC_WRAPPER, HCC_SERVER, HCC_EARLY_START) speak
// the one vocabulary; unset, empty and unknown words leave them on.
TEST(HccOptions, WrapperSwitch) {
  auto off_with = [](const char *value) {
    if (value) ::setenv("HCC_WRAPPER", value, 1);
    else ::unsetenv("HCC_WRAPPER");
    const bool off = switched_off("HCC_WRAPPER");
    ::unsetenv("HCC_WRAPPER");
    return off;
  };
  for (const char *w : {"off", "OFF", "0", "no", "No", "false", "FALSE"}) EXPECT_TRUE(off_with(w)) << w;
  for (const char *w : {"on", "1", "yes", "true", "TRUE"}) EXPECT_FALSE(off_with(w)) << w;
  EXPECT_FALSE(off_with(nullptr));
  EXPECT_FALSE(off_with(""));
  testing::internal::CaptureStderr();
  EXPECT_FALSE(off_with("maybe"));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "hcc: error: HCC_WRAPPER='maybe' is not on, off, 1, 0, yes, no, true or false; using on\n");
}

TEST(LinkFlags, RuntimeAndRpath) {
  // --no-as-needed: objects from hcc need no symbol of libhcc (they bind the
  // runtime themselves), yet a program linked by hcc must load it at start-up.
  // No link stub in these directories (an older installation): -L<lib>.
  EXPECT_EQ(runtime_link_flags("/opt/hcc/lib"),
            (Args{"-L/opt/hcc/lib", "-Wl,-rpath,/opt/hcc/lib", "-Wl,--defsym,__hcc_linked_by_hcc=1",
                  "-Wl,--push-state,--no-as-needed", "-lhcc",
                  "-Wl,--pop-state"}));
  // -Wl, would split a path with a comma.
  EXPECT_EQ(runtime_link_flags("/opt/a,b/lib"),
            (Args{"-L/opt/a,b/lib", "-Xlinker", "-rpath", "-Xlinker", "/opt/a,b/lib",
                  "-Wl,--defsym,__hcc_linked_by_hcc=1", "-Wl,--push-state,--no-as-needed",
                  "-lhcc", "-Wl,--pop-state"}));
}

TEST(LinkFlags, LinksAgainstTheStubLoadsTheRealLibrary) {
  // The linker reads libhcc.so's symbols from the stub (no dependencies to
  // open); the program finds the real one, same SONAME, through -rpath.
  hcc_test::ScratchDir lib;
  hcc_test::write_file(lib / "libhcc.so", "");
  hcc_test::write_file(lib / (std::string(kLinkStubDir) + "/libhcc.so"), "");
  EXPECT_EQ(runtime_link_flags(lib.path()),
            (Args{"-L" + lib.path() + "/hcc-link", "-Wl,-rpath," + lib.path(),
                  "-Wl,--defsym,__hcc_linked_by_hcc=1", "-Wl,--push-state,--no-as-needed", "-lhcc",
                  "-Wl,--pop-state"}));
}

TEST(LinkFlags, RuntimePathDefineIsEscapedTwice) {
  EXPECT_EQ(runtime_path_define("/opt/hcc/lib/libhcc.so"), "-DHCC_RUNTIME_LIBRARY_=\"/opt/hcc/lib/libhcc.so\"");
  // A quote or backslash passes through C and then the assembler.
  EXPECT_EQ(runtime_path_define("/opt/a\"b\\c/libhcc.so"),
            "-DHCC_RUNTIME_LIBRARY_=\"/opt/a\\\\\\\"b\\\\\\\\c/libhcc.so\"");
  EXPECT_EQ(runtime_path_define("/opt/new\nline/libhcc.so"), "");
  EXPECT_EQ(runtime_path_define(""), "");
}

TEST(Paths, Helpers) {
  EXPECT_EQ(dir_name("src/x.c"), "src");
  EXPECT_EQ(dir_name("x.c"), ".");
  EXPECT_EQ(dir_name("/x.c"), "/");
  EXPECT_EQ(dir_name("a//x.c"), "a");
  EXPECT_EQ(base_name("a/b/x.c"), "x.c");
  EXPECT_EQ(strip_extension("obj/x.o"), "obj/x");
  EXPECT_EQ(strip_extension("obj/x.foo.o"), "obj/x.foo");
  EXPECT_EQ(strip_extension("a.b/noext"), "a.b/noext");
  EXPECT_EQ(strip_extension(".hidden"), ".hidden");
}

TEST(Paths, LayoutIsRelativeToTheExecutable) {
  Layout l = layout_for("/opt/tools/hcc-1/bin/hcc");
  EXPECT_EQ(l.prefix, "/opt/tools/hcc-1");
  EXPECT_EQ(l.instrumentor, "/opt/tools/hcc-1/libexec/hcc/hcc-instrument");
  EXPECT_EQ(l.lib_dir, "/opt/tools/hcc-1/lib");
  EXPECT_EQ(l.runtime_library, "/opt/tools/hcc-1/lib/libhcc.so");
  EXPECT_EQ(l.include_dir, "/opt/tools/hcc-1/include");
  EXPECT_EQ(l.prelude, "/opt/tools/hcc-1/include/hcc/detail/inject.h");
}

TEST(Paths, RuntimeInTheInstallLibdirIsFound) {
  hcc_test::ScratchDir d;
  hcc_test::write_file(d / "bin/hcc", "", true);
  InstallDirs dirs;
  dirs.lib = "lib64";
  EXPECT_EQ(layout_for(d / "bin/hcc", dirs).lib_dir, d / "lib");  // nothing there: the default
  hcc_test::write_file(d / "lib64/libhcc.so", "");
  EXPECT_EQ(layout_for(d / "bin/hcc", dirs).lib_dir, d / "lib64");
  hcc_test::write_file(d / "lib/libhcc.so", "");
  EXPECT_EQ(layout_for(d / "bin/hcc", dirs).lib_dir, d / "lib");  // lib/ first
  dirs.lib = "/usr/lib64";  // absolute: ignored, hcc stays relocatable
  dirs.libexec = "/usr/libexec/hcc";
  EXPECT_EQ(layout_for(d / "bin/hcc", dirs).instrumentor, d / "libexec/hcc/hcc-instrument");
}
