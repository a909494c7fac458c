// Argument classification: which arguments are inputs, which are option
// values, what the stage and output options say.
#include <gtest/gtest.h>

#include "args.hpp"
#include "mpi_wrapper.hpp"

using namespace hcc::driver;
using Args = std::vector<std::string>;

namespace {

std::vector<std::string> input_paths(const CommandLine &cl) {
  std::vector<std::string> out;
  for (const auto &in : cl.inputs) out.push_back(in.path);
  return out;
}

std::vector<std::string> instrumentable_paths(const CommandLine &cl) {
  std::vector<std::string> out;
  for (const auto &in : cl.inputs)
    if (in.instrumentable) out.push_back(in.path);
  return out;
}

}  // namespace

TEST(Classify, SourcesAndObjects) {
  Args a = {"-O2", "-c", "src/a.c", "b.cpp", "c.o", "libd.a", "x.s", "y.S", "z.i", "w.ii"};
  CommandLine cl = classify(a);
  EXPECT_EQ(input_paths(cl), (Args{"src/a.c", "b.cpp", "c.o", "libd.a", "x.s", "y.S", "z.i", "w.ii"}));
  EXPECT_EQ(instrumentable_paths(cl), (Args{"src/a.c", "b.cpp"}));
  EXPECT_TRUE(cl.compile_only);
  EXPECT_EQ(cl.inputs[0].language, "c");
  EXPECT_EQ(cl.inputs[1].language, "c++");
  EXPECT_EQ(cl.inputs[2].language, "");
  EXPECT_EQ(cl.inputs[6].language, "cpp-output");
}

TEST(Classify, EveryCxxExtension) {
  for (std::string ext : {".cc", ".cpp", ".cxx", ".c++", ".C", ".cp", ".CPP"}) {
    CommandLine cl = classify({"-c", "f" + ext});
    ASSERT_EQ(cl.inputs.size(), 1u) << ext;
    EXPECT_EQ(cl.inputs[0].language, "c++") << ext;
    EXPECT_TRUE(cl.inputs[0].instrumentable) << ext;
  }
}

TEST(Classify, SeparateValuesAreNotInputs) {
  Args a = {"-o", "out.c", "-I", "inc.c", "-include", "pre.h", "-MF", "deps.c", "-MT", "t.c",
            "-MQ", "q.c", "-Xlinker", "lk.o", "-isystem", "sys.c", "-iquote", "q", "-L",
            "libdir.c", "-l", "m", "-D", "X.c", "-U", "Y", "-T", "link.ld", "-u", "sym",
            "-e", "entry", "-z", "now", "--param", "p=1", "-target", "x86_64", "-B",
            "b.c", "-aux-info", "aux.c", "-Xclang", "-ast-dump", "-x", "c", "real.c"};
  CommandLine cl = classify(a);
  EXPECT_EQ(input_paths(cl), (Args{"real.c"}));
  ASSERT_TRUE(cl.output);
  EXPECT_EQ(*cl.output, "out.c");
  EXPECT_EQ(cl.dep_files, (Args{"deps.c"}));
  EXPECT_TRUE(cl.libraries);
  EXPECT_EQ(cl.roles[1], Role::Value);
  EXPECT_EQ(cl.roles[0], Role::Option);
}

TEST(Classify, JoinedOutputAndDepFile) {
  CommandLine cl = classify({"-c", "a.c", "-oobj/a.o", "-MFobj/a.d", "-MMD"});
  ASSERT_TRUE(cl.output);
  EXPECT_EQ(*cl.output, "obj/a.o");
  EXPECT_EQ(cl.dep_files, (Args{"obj/a.d"}));
  EXPECT_TRUE(cl.deps_side);
  EXPECT_EQ(input_paths(cl), (Args{"a.c"}));
}

TEST(Classify, LastOutputWins) {
  CommandLine cl = classify({"a.c", "-o", "first", "-o", "second"});
  EXPECT_EQ(*cl.output, "second");
}

TEST(Classify, LanguageOptionAppliesUntilNone) {
  CommandLine cl = classify({"-c", "-x", "c++", "a.c", "b.h", "-x", "none", "c.c", "-xc", "d.cpp",
                             "-x", "assembler-with-cpp", "e.c"});
  ASSERT_EQ(cl.inputs.size(), 5u);
  EXPECT_EQ(cl.inputs[0].language, "c++");
  EXPECT_TRUE(cl.inputs[0].explicit_language);
  EXPECT_EQ(cl.inputs[1].language, "c++");  // -x also forces headers
  EXPECT_EQ(cl.inputs[2].language, "c");
  EXPECT_FALSE(cl.inputs[2].explicit_language);
  EXPECT_EQ(cl.inputs[3].language, "c");  // -xc joined
  EXPECT_TRUE(cl.inputs[3].instrumentable);
  EXPECT_EQ(cl.inputs[4].language, "assembler-with-cpp");
  EXPECT_FALSE(cl.inputs[4].instrumentable);
}

TEST(Classify, IntelTargetOptionIsNotALanguage) {
  CommandLine cl = classify({"-xHost", "-c", "a.cpp"});
  ASSERT_EQ(cl.inputs.size(), 1u);
  EXPECT_EQ(cl.inputs[0].language, "c++");
  EXPECT_FALSE(cl.inputs[0].explicit_language);
}

TEST(Classify, StdinIsAnInputButNotInstrumentable) {
  CommandLine cl = classify({"-x", "c", "-c", "-", "-o", "s.o"});
  ASSERT_EQ(cl.inputs.size(), 1u);
  EXPECT_EQ(cl.inputs[0].path, "-");
  EXPECT_EQ(cl.inputs[0].language, "c");
  EXPECT_FALSE(cl.inputs[0].instrumentable);
  EXPECT_EQ(pass_through_reason(cl), "no C or C++ source to instrument");
}

TEST(Classify, KernelStyleDepfile) {
  CommandLine cl = classify({"-Wp,-MMD,dir/.a.o.d", "-c", "a.c"});
  EXPECT_TRUE(cl.deps_side);
  EXPECT_EQ(cl.dep_files, (Args{"dir/.a.o.d"}));
}

TEST(Classify, DepfileToStdout) {
  CommandLine cl = classify({"-MD", "-MF", "-", "-c", "a.c"});
  EXPECT_TRUE(cl.dep_file_stdout);
  EXPECT_TRUE(cl.dep_files.empty());
}

TEST(PassThrough, QueriesAndPreprocessing) {
  EXPECT_EQ(pass_through_reason(classify({"--version"})), "'--version' asks the compiler about itself");
  EXPECT_NE(pass_through_reason(classify({"-E", "a.c"})), "");
  EXPECT_NE(pass_through_reason(classify({"-M", "a.c"})), "");
  EXPECT_NE(pass_through_reason(classify({"-MM", "a.c"})), "");
  EXPECT_NE(pass_through_reason(classify({"-fsyntax-only", "a.c"})), "");
  EXPECT_NE(pass_through_reason(classify({"-v"})), "");
  EXPECT_NE(pass_through_reason(classify({"-V"})), "");
  EXPECT_NE(pass_through_reason(classify({"-dumpversion"})), "");
  EXPECT_NE(pass_through_reason(classify({"-dumpmachine"})), "");
  EXPECT_NE(pass_through_reason(classify({"-print-prog-name=ld"})), "");
  EXPECT_NE(pass_through_reason(classify({"-print-search-dirs"})), "");
  EXPECT_NE(pass_through_reason(classify({"--help"})), "");
  EXPECT_NE(pass_through_reason(classify({"-c", "a.s"})), "");
  EXPECT_NE(pass_through_reason(classify({"-c", "a.i"})), "");
  EXPECT_NE(pass_through_reason(classify({"a.o", "b.o", "-o", "app"})), "");
}

TEST(PassThrough, CompilesAreInstrumented) {
  EXPECT_EQ(pass_through_reason(classify({"-c", "a.c"})), "");
  EXPECT_EQ(pass_through_reason(classify({"-S", "a.cpp"})), "");
  EXPECT_EQ(pass_through_reason(classify({"-O2", "a.cpp", "-o", "app"})), "");
  EXPECT_EQ(pass_through_reason(classify({"-v", "-c", "a.c"})), "");
  // -MD/-MMD are a side output of a real compile, -M/-MM alone are not.
  EXPECT_EQ(pass_through_reason(classify({"-MMD", "-c", "a.c"})), "");
  // -dumpbase takes a value; it is not -dumpversion.
  EXPECT_EQ(pass_through_reason(classify({"-dumpbase", "x", "-c", "a.c"})), "");
}

TEST(Link, WhichCommandsLink) {
  EXPECT_TRUE(links_program(classify({"a.o", "b.o", "-o", "app"})));
  EXPECT_TRUE(links_program(classify({"-O2", "a.c"})));
  EXPECT_TRUE(links_program(classify({"-shared", "a.o", "-o", "liba.so"})));
  EXPECT_FALSE(links_program(classify({"-c", "a.c"})));
  EXPECT_FALSE(links_program(classify({"-S", "a.c"})));
  EXPECT_FALSE(links_program(classify({"-E", "a.c"})));
  EXPECT_FALSE(links_program(classify({"-fsyntax-only", "a.c"})));
  EXPECT_FALSE(links_program(classify({"--version"})));
  EXPECT_FALSE(links_program(classify({"-v"})));
  EXPECT_FALSE(links_program(classify({"-r", "a.o", "b.o", "-o", "ab.o"})));
  EXPECT_TRUE(classify({"-static", "a.o"}).static_link);
}

TEST(InstrumentorArgs, DropsOutputsStagesAndDependencyOptions) {
  Args a = {"-O2", "-c", "src/a.c", "-o", "obj/a.o", "-DX=1", "-MMD", "-MP", "-MF", "obj/a.d",
            "-MT", "obj/a.o", "-Iinc", "-include", "cfg.h", "-Wp,-MD,k.d,-DY", "-S", "-E",
            "-ofoo", "-MQ", "q", "-MFjoined.d", "b.o", "-lm", "-std=c11"};
  CommandLine cl = classify(a);
  auto out = instrumentor_args(a, cl, cl.inputs[0]);
  EXPECT_EQ(out, (Args{"-O2", "-DX=1", "-Iinc", "-include", "cfg.h", "-Wp,-DY", "-lm", "-std=c11"}));
}

TEST(InstrumentorArgs, ExplicitLanguageBecomesOneTrailingX) {
  Args a = {"-x", "c", "a.cpp", "-x", "none", "b.c", "-c"};
  CommandLine cl = classify(a);
  EXPECT_EQ(instrumentor_args(a, cl, cl.inputs[0]), (Args{"-x", "c"}));
  EXPECT_EQ(instrumentor_args(a, cl, cl.inputs[1]), Args{});
}

TEST(FileInputs, ExtensionsThatAreNeverCompilerNames) {
  EXPECT_TRUE(looks_like_file_input("a.c"));
  EXPECT_TRUE(looks_like_file_input("dir/a.o"));
  EXPECT_TRUE(looks_like_file_input("libz.so.1.2"));
  EXPECT_TRUE(looks_like_file_input("libm.a"));
  EXPECT_FALSE(looks_like_file_input("gcc"));
  EXPECT_FALSE(looks_like_file_input("/usr/bin/x86_64-linux-gnu-g++-12"));
  EXPECT_FALSE(looks_like_file_input("mpicxx"));
}

TEST(ConfigureProbe, AutoconfLibtoolAndCMakeProbesAreRecognised) {
  auto reason = [](Args a) { return configure_probe_reason(classify(a)); };
  EXPECT_NE(reason({"-o", "conftest", "-O2", "conftest.c", "-lm"}), "");
  EXPECT_NE(reason({"-c", "conftest.cpp"}), "");
  EXPECT_NE(reason({"-c", "conftst1.c"}), "");                 // libtool
  EXPECT_NE(reason({"-c", "-O2", "ztest4120.c"}), "");          // zlib's configure
  EXPECT_NE(reason({"-o", "ztest4120", "ztest4120.o"}), "");
  EXPECT_NE(reason({"/b/meson-private/tmpab12cd/testfile.c", "-o", "/b/meson-private/tmpab12cd/output.exe"}), "");
  EXPECT_NE(reason({"conftest.o", "-o", "conftest"}), "");     // link of a probe object
  EXPECT_NE(reason({"-c", "/b/CMakeFiles/CMakeScratch/TryCompile-x/src.c", "-o",
                    "CMakeFiles/cmTC_1.dir/src.c.o"}), "");
  EXPECT_NE(reason({"CMakeFiles/cmTC_1.dir/src.c.o", "-o", "cmTC_1"}), "");
  EXPECT_NE(reason({"CMakeCCompilerId.c"}), "");
  EXPECT_NE(reason({"-v", "-c", "/usr/share/cmake/Modules/CMakeCXXCompilerABI.cpp"}), "");
  // The user's own files, even in a CMake build tree.
  EXPECT_EQ(reason({"-c", "src/app.c", "-o", "CMakeFiles/app.dir/src/app.c.o"}), "");
  EXPECT_EQ(reason({"CMakeFiles/app.dir/src/app.c.o", "-o", "app"}), "");
  EXPECT_EQ(reason({"-c", "contest.c"}), "");
  EXPECT_EQ(reason({"-c", "ztest.c"}), "");  // a user's file named ztest
  EXPECT_EQ(reason({"-c", "ztests_io.c"}), "");
}

TEST(MpiWrapper, PreprocessorFlagsFromShow) {
  // Open MPI (mpicxx -show) and MPICH (mpicc -show) output.
  EXPECT_EQ(preprocessor_flags_from_show(
                "g++ -I/usr/lib/openmpi/include -I/usr/lib/openmpi/include/openmpi "
                "-L/usr/lib/openmpi/lib -lmpi_cxx -lmpi\n"),
            (Args{"-I/usr/lib/openmpi/include", "-I/usr/lib/openmpi/include/openmpi"}));
  EXPECT_EQ(preprocessor_flags_from_show("gcc -Wl,-z,relro -I/opt/mpich/include -isystem /x -DMPICH_X=1 "
                                         "-pthread -L/opt/mpich/lib -Wl,-rpath -Wl,/opt/mpich/lib -lmpi"),
            (Args{"-I/opt/mpich/include", "-isystem", "/x", "-DMPICH_X=1", "-pthread"}));
  EXPECT_TRUE(runs_mpi_wrapper({"/usr/bin/mpicxx"}));
  EXPECT_TRUE(runs_mpi_wrapper({"/usr/bin/ccache", "mpicc"}));
  EXPECT_FALSE(runs_mpi_wrapper({"/usr/bin/gcc", "-m64"}));
}
