// Unit tests of the filter parser/matcher (filter/): each syntax's rules.
#include "filter/filter.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

using hcc::filter::Filter;
using hcc::filter::Region;

namespace {

Filter parse(const std::string &text) {
  Filter f;
  std::string error;
  EXPECT_TRUE(f.add_text(text, "t.filt", error)) << error;
  return f;
}
std::string parse_error(const std::string &text) {
  Filter f;
  std::string error;
  EXPECT_FALSE(f.add_text(text, "bad.filt", error));
  return error;
}
bool ex(const Filter &f, const char *name, const char *file = "app.cpp", const char *mangled = "") {
  return f.excludes(Region{name, mangled, file, false});
}

TEST(NameForms, SplitsSignatures) {
  auto f = hcc::filter::name_forms("void  quicksort(int *, int,int)");
  EXPECT_EQ(f.full, "void quicksort(int*,int,int)");
  EXPECT_EQ(f.sig, "quicksort(int*,int,int)");
  EXPECT_EQ(f.qual, "quicksort");
  EXPECT_TRUE(f.has_params);
  auto g = hcc::filter::name_forms("double geo::Matrix<T>::mul_trace(int) const [T = double]");
  EXPECT_EQ(g.qual, "geo::Matrix<double>::mul_trace");
  EXPECT_EQ(g.sig, "geo::Matrix<double>::mul_trace(int)const");
  EXPECT_EQ(g.base, "mul_trace");
  auto h = hcc::filter::name_forms("(anonymous namespace)::f(int)");
  EXPECT_EQ(h.qual, "(anonymous namespace)::f");
  auto o = hcc::filter::name_forms("S::operator()(int) const");
  EXPECT_EQ(o.qual, "S::operator()");
  EXPECT_EQ(hcc::filter::name_forms("fib").base, "fib");
  EXPECT_EQ(f.ret, "void");
  EXPECT_EQ(g.ret, "double");
  EXPECT_EQ(hcc::filter::name_forms("fib").ret, "");
  // A return type ending in '>' right before the name (no blank left).
  auto v = hcc::filter::name_forms("std::vector<T> geo::rows(int) [with T = double]");
  EXPECT_EQ(v.ret, "std::vector<double>");
  EXPECT_EQ(v.qual, "geo::rows");
  EXPECT_EQ(hcc::filter::name_forms("geo::Matrix<double>::mul_trace").qual, "geo::Matrix<double>::mul_trace");
}

TEST(Tau, ExcludeListSignaturesAndNames) {
  Filter f = parse(
      "# a comment\n"
      "BEGIN_EXCLUDE_LIST\n"
      "void quicksort(int *, int, int)\n"
      "geo::Matrix<double>::mul_trace\n"
      "small\n"
      "END_EXCLUDE_LIST\n");
  EXPECT_TRUE(ex(f, "quicksort(int *, int, int)"));        // C++ name, no return type
  EXPECT_TRUE(ex(f, "quicksort"));                         // C name
  EXPECT_FALSE(ex(f, "quicksort(int *, int)"));            // another overload
  EXPECT_TRUE(ex(f, "double geo::Matrix<T>::mul_trace(int) const [with T = double]"));
  EXPECT_FALSE(ex(f, "float geo::Matrix<T>::mul_trace(int) const [with T = float]"));
  EXPECT_TRUE(ex(f, "ns::small()"));  // unqualified pattern: last component
  EXPECT_FALSE(ex(f, "smaller()"));
  EXPECT_FALSE(ex(f, "main"));
}

TEST(Tau, HashIsWildcardInsideCommentAtStartQuotedAtStart) {
  Filter f = parse(
      "BEGIN_EXCLUDE_LIST\n"
      "# not a pattern: a comment\n"
      "get#\n"
      "\"#_accessor\"\n"
      "int *ptr(int *)\n"  // '*' is literal in TAU routine patterns
      "END_EXCLUDE_LIST\n");
  EXPECT_TRUE(ex(f, "getX()"));
  EXPECT_TRUE(ex(f, "Vec::x_accessor() const"));
  EXPECT_FALSE(ex(f, "not"));
  EXPECT_FALSE(ex(f, "a"));
  EXPECT_TRUE(ex(f, "ptr(int *)"));
  EXPECT_FALSE(ex(f, "ptr(int)"));
}

// --- TAU's own forms -----------------------------------------------------
// hcc's names differ by side: at compile time the instrumentor also gives the
// routine's signature (return type first, as TAU writes it); at run time a C
// function is a bare name ("early"), a C++ function has no return type
// ("quicksort(int *, int, int)"), and only a template instance has both.
struct Fn {
  const char *c_name;    // C: name and linker name
  const char *cxx_name;  // C++: hcc's readable name
  const char *signature; // what the instrumentor passes at compile time
};
// The routines of TAU's select-file examples, and two that tell return
// types apart ("int ear#").
const Fn kQuicksort{"quicksort", "quicksort(int *, int, int)", "void quicksort(int *, int, int)"};
const Fn kSort5{"sort_5elements", "sort_5elements(int *)", "void sort_5elements(int *)"};
const Fn kSortAll{"sort_all", "sort_all(double *)", "void sort_all(double *)"};
const Fn kInterchange{"interchange", "interchange(int *, int *)", "void interchange(int *, int *)"};
const Fn kSelect{"select_kth_largest", "select_kth_largest(int, int *, int)", "int select_kth_largest(int, int *, int)"};
const Fn kEarly{"early", "early(int)", "int early(int)"};
const Fn kEarlyReport{"early_report", "early_report(int)", "void early_report(int)"};
const Fn kMultiply{"multiply", "multiply()", "double multiply(void)"};
const Fn kMain{"main", "main", "int main(int, char **)"};  // main keeps its plain name in C++ too

enum Side { CompileTime, RunTime };
bool ex_c(const Filter &f, const Fn &fn, Side side) {
  return f.excludes(Region{fn.c_name, fn.c_name, "kl.c", false, side == CompileTime ? fn.signature : ""});
}
bool ex_cxx(const Filter &f, const Fn &fn, Side side) {
  return f.excludes(Region{fn.cxx_name, "", "kl.cpp", false, side == CompileTime ? fn.signature : ""});
}
// Excluded in C and in C++, at compile time and at run time.
void expect_excluded_everywhere(const Filter &f, const Fn &fn, bool want) {
  for (Side side : {CompileTime, RunTime}) {
    const char *when = side == CompileTime ? "compile time" : "run time";
    EXPECT_EQ(ex_c(f, fn, side), want) << fn.c_name << ", C, " << when;
    EXPECT_EQ(ex_cxx(f, fn, side), want) << fn.cxx_name << ", C++, " << when;
  }
}

TEST(TauDocs, UsersGuideExcludeListOfSignatures) {
  Filter f = parse(
      "# the example of TAU's user guide\n"
      "BEGIN_EXCLUDE_LIST\n"
      "void quicksort(int *, int, int)\n"
      "void sort_#(int *)\n"
      "void interchange(int *, int *)\n"
      "END_EXCLUDE_LIST\n"
      "BEGIN_FILE_EXCLUDE_LIST\n"
      "*.so\n"
      "END_FILE_EXCLUDE_LIST\n");
  expect_excluded_everywhere(f, kQuicksort, true);
  expect_excluded_everywhere(f, kSort5, true);
  expect_excluded_everywhere(f, kInterchange, true);
  expect_excluded_everywhere(f, kSelect, false);
  expect_excluded_everywhere(f, kMain, false);
  // "sort_# with arguments int *": where the parameters are known.
  EXPECT_FALSE(ex_c(f, kSortAll, CompileTime));
  EXPECT_FALSE(ex_cxx(f, kSortAll, CompileTime));
  EXPECT_FALSE(ex_cxx(f, kSortAll, RunTime));
  EXPECT_TRUE(ex_c(f, kSortAll, RunTime));  // a C name has no parameters to compare
}

TEST(TauDocs, ReturnTypeAndTrailingWildcard) {
  Filter f = parse("BEGIN_EXCLUDE_LIST\nint ear#\nint select_#\nvoid interchange#\nEND_EXCLUDE_LIST\n");
  expect_excluded_everywhere(f, kEarly, true);
  expect_excluded_everywhere(f, kSelect, true);
  expect_excluded_everywhere(f, kInterchange, true);
  expect_excluded_everywhere(f, kSort5, false);
  // The return type decides where a signature is known; a run-time name has
  // none, so "ear#" decides there.
  EXPECT_FALSE(ex_c(f, kEarlyReport, CompileTime));
  EXPECT_FALSE(ex_cxx(f, kEarlyReport, CompileTime));
  EXPECT_TRUE(ex_c(f, kEarlyReport, RunTime));
  EXPECT_TRUE(ex_cxx(f, kEarlyReport, RunTime));
  // A template instance's run-time name has its return type.
  EXPECT_TRUE(ex(f, "int early(T) [with T = long int]"));
  EXPECT_FALSE(ex(f, "void early(T) [with T = long int]"));
  // Without the blank the pattern is a name: "int ear#" is not "intear#".
  EXPECT_FALSE(ex(f, "intearly(int)"));
}

TEST(TauDocs, CSuffixMarksCRoutines) {
  Filter f = parse(
      "BEGIN_INCLUDE_LIST\n"
      "int main(int, char **) C\n"
      "int select_#\n"
      "double multiply(void) C\n"
      "END_INCLUDE_LIST\n");
  expect_excluded_everywhere(f, kMain, false);
  expect_excluded_everywhere(f, kSelect, false);
  expect_excluded_everywhere(f, kQuicksort, true);
  for (Side side : {CompileTime, RunTime}) {
    EXPECT_FALSE(ex_c(f, kMultiply, side));  // "(void)" is C's "()"
    EXPECT_TRUE(ex_cxx(f, kMultiply, side));  // " C": a C++ function is not a C routine
  }
  // A trailing '#' covers the suffix too.
  Filter g = parse("BEGIN_EXCLUDE_LIST\nint early(int)#\nint main#\nEND_EXCLUDE_LIST\n");
  expect_excluded_everywhere(g, kEarly, true);
  expect_excluded_everywhere(g, kMain, true);
  expect_excluded_everywhere(g, kEarlyReport, false);
}

TEST(TauDocs, HashAloneAndReturnTypeAlone) {
  Filter all = parse("BEGIN_EXCLUDE_LIST\n\"#\"\nEND_EXCLUDE_LIST\n");
  for (const Fn *fn : {&kQuicksort, &kSelect, &kMain, &kMultiply}) expect_excluded_everywhere(all, *fn, true);
  EXPECT_TRUE(ex(all, "geo::Matrix<T>::scale(T) [with T = double]"));

  // "void#" names every routine returning void. Only a signature or a
  // template instance's name shows the return type: run-time names of other
  // functions do not, and are not matched (nor by "void #").
  for (const char *text : {"BEGIN_EXCLUDE_LIST\nvoid#\nEND_EXCLUDE_LIST\n",
                           "BEGIN_EXCLUDE_LIST\nvoid #\nEND_EXCLUDE_LIST\n"}) {
    Filter f = parse(text);
    for (const Fn *fn : {&kQuicksort, &kSort5, &kInterchange, &kEarlyReport}) {
      EXPECT_TRUE(ex_c(f, *fn, CompileTime)) << text << fn->c_name;
      EXPECT_TRUE(ex_cxx(f, *fn, CompileTime)) << text << fn->cxx_name;
      EXPECT_FALSE(ex_c(f, *fn, RunTime)) << text << fn->c_name;
      EXPECT_FALSE(ex_cxx(f, *fn, RunTime)) << text << fn->cxx_name;
    }
    for (const Fn *fn : {&kSelect, &kEarly, &kMain, &kMultiply}) expect_excluded_everywhere(f, *fn, false);
    EXPECT_TRUE(ex(f, "void geo::Matrix<T>::scale(T) [with T = double]")) << text;
    EXPECT_FALSE(ex(f, "double geo::Matrix<T>::sum() const [with T = double]")) << text;
  }
}

TEST(TauDocs, TemplateInstancesByTheirArguments) {
  // TAU's LLVM plugin example: include the instances, then exclude one.
  Filter f = parse(
      "BEGIN_INCLUDE_LIST\n"
      "initialize(#)\n"
      "void compute_interchange<#>(#**, #**, #**, int, int, int)\n"
      "END_INCLUDE_LIST\n"
      "BEGIN_EXCLUDE_LIST\n"
      "void compute_interchange<int>(int**, int**, int**, int, int, int)\n"
      "END_EXCLUDE_LIST\n");
  // Run time: __PRETTY_FUNCTION__ names (GCC's and Clang's forms).
  EXPECT_FALSE(ex(f, "void compute_interchange(T**, T**, T**, int, int, int) [with T = double]"));
  EXPECT_TRUE(ex(f, "void compute_interchange(T **, T **, T **, int, int, int) [T = int]"));
  EXPECT_FALSE(ex(f, "initialize(double **, int)"));
  EXPECT_TRUE(ex(f, "main"));
  // Compile time: one guard for all instances, decided by the qualified name.
  EXPECT_TRUE(f.excludes(Region{"compute_interchange(T **, T **, T **, int, int, int)", "", "m.cpp", true,
                                "void compute_interchange(T **, T **, T **, int, int, int)"}));
}

TEST(TauDocs, LoopsRequestWithCSignature) {
  Filter f = parse("BEGIN_INSTRUMENT_SECTION\n"
                   "loops file=\"loop_test.c\" routine=\"double multiply(void) C\"\n"
                   "loops routine=\"#compute#\"\n"
                   "END_INSTRUMENT_SECTION\n");
  EXPECT_TRUE(f.wants_loops(Region{"multiply", "multiply", "src/loop_test.c", false, "double multiply(void)"}));
  EXPECT_FALSE(f.wants_loops(Region{"multiply", "multiply", "other.c", false, "double multiply(void)"}));
  EXPECT_TRUE(f.wants_loops(Region{"do_compute_step", "do_compute_step", "x.c", false, "void do_compute_step(void)"}));
  EXPECT_FALSE(f.wants_loops(Region{"main", "main", "x.c", false, "int main(void)"}));
}

TEST(TauDocs, OtherFormatsKeepTheirMeaning) {
  // Score-P and hcc patterns are not TAU's: '#' is no wildcard there and a
  // leading word stays part of the pattern.
  Filter s = parse("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE int*ear*\nSCOREP_REGION_NAMES_END\n");
  EXPECT_FALSE(s.excludes(Region{"early", "early", "kl.c", false, "int early(int)"}));
  Filter h = parse("exclude ear#\n");
  EXPECT_FALSE(ex(h, "early"));
  EXPECT_TRUE(ex(h, "ear#"));
}

TEST(Tau, IncludeListAndExclusionWins) {
  Filter f = parse("BEGIN_INCLUDE_LIST\nmain\nwork#\nEND_INCLUDE_LIST\n"
                   "BEGIN_EXCLUDE_LIST\nwork_tiny\nEND_EXCLUDE_LIST\n");
  EXPECT_FALSE(ex(f, "main"));
  EXPECT_FALSE(ex(f, "work_big(int)"));
  EXPECT_TRUE(ex(f, "work_tiny(int)"));
  EXPECT_TRUE(ex(f, "other"));
}

TEST(Tau, FileListsBaseNameAndWildcards) {
  Filter f = parse("BEGIN_FILE_EXCLUDE_LIST\n*_gen.c\nsrc/util/*\nEND_FILE_EXCLUDE_LIST\n");
  EXPECT_TRUE(ex(f, "f", "/home/u/proj/parser_gen.c"));
  EXPECT_TRUE(ex(f, "f", "src/util/a.c"));
  EXPECT_FALSE(ex(f, "f", "src/main.c"));
  EXPECT_TRUE(f.excludes_file("x_gen.c"));
}

TEST(Tau, LoopsRequest) {
  Filter f = parse("BEGIN_INSTRUMENT_SECTION\nloops file=\"mm.c\" routine=\"multiply\"\nEND_INSTRUMENT_SECTION\n");
  EXPECT_TRUE(f.wants_loops(Region{"multiply", "", "dir/mm.c", false}));
  EXPECT_FALSE(f.wants_loops(Region{"multiply", "", "other.c", false}));
  EXPECT_FALSE(f.excludes(Region{"multiply", "", "mm.c", false}));
}

TEST(Tau, Errors) {
  EXPECT_EQ(parse_error("BEGIN_EXCLUDE_LIST\nfoo\n"),
            "bad.filt:1: BEGIN_EXCLUDE_LIST is never closed (missing END_EXCLUDE_LIST)");
  EXPECT_EQ(parse_error("BEGIN_EXCLUDE_LIST\nfoo\nBEGIN_INCLUDE_LIST\nbar\nEND_INCLUDE_LIST\n"),
            "bad.filt:3: 'BEGIN_INCLUDE_LIST' inside BEGIN_EXCLUDE_LIST opened at line 1 (missing END_EXCLUDE_LIST?)");
  EXPECT_EQ(parse_error("\nBEGIN_EXCLUDE_LISTS\n").substr(0, 33), "bad.filt:2: unknown keyword 'BEGI");
  EXPECT_EQ(parse_error("BEGIN_INSTRUMENT_SECTION\nmemory file=\"a.c\"\nEND_INSTRUMENT_SECTION\n").substr(0, 11),
            "bad.filt:2:");
}

TEST(ScoreP, LastMatchWins) {
  Filter f = parse(
      "SCOREP_REGION_NAMES_BEGIN\n"
      "  EXCLUDE *\n"
      "  INCLUDE main bar*\n"
      "  EXCLUDE bart\n"
      "SCOREP_REGION_NAMES_END\n");
  EXPECT_FALSE(ex(f, "main"));
  EXPECT_FALSE(ex(f, "barrier(int)"));
  EXPECT_TRUE(ex(f, "bart"));
  EXPECT_TRUE(ex(f, "foo"));
}

TEST(ScoreP, FileBlockFirstExcludedFileCannotBeReincluded) {
  Filter f = parse(
      "SCOREP_REGION_NAMES_BEGIN\n INCLUDE *\nSCOREP_REGION_NAMES_END\n"
      "SCOREP_FILE_NAMES_BEGIN\n EXCLUDE */util/*\n INCLUDE */util/keep.c\nSCOREP_FILE_NAMES_END\n");
  EXPECT_TRUE(ex(f, "f", "/p/util/a.c"));      // region INCLUDE * does not bring it back
  EXPECT_FALSE(ex(f, "f", "/p/util/keep.c"));  // a later file INCLUDE does
  EXPECT_FALSE(ex(f, "f", "/p/main.c"));
}

TEST(ScoreP, MangledAndCommentsAndContinuation) {
  Filter f = parse(
      "# comment\n"
      "SCOREP_REGION_NAMES_BEGIN # trailing comment\n"
      "  EXCLUDE MANGLED _ZN3geo*\n"
      "     plain_name   # continues the rule; MANGLED still applies\n"
      "  EXCLUDE hash\\#name\n"
      "  EXCLUDE tiny_[xy]\n"
      "SCOREP_REGION_NAMES_END\n");
  EXPECT_TRUE(ex(f, "geo::Matrix::mul(double) const", "a.cpp", "_ZNK3geo6Matrix3mulEd") == false);
  EXPECT_TRUE(ex(f, "geo::A::f()", "a.cpp", "_ZN3geo1A1fEv"));
  EXPECT_FALSE(ex(f, "geo::A::f()", "a.cpp", ""));  // demangled name does not match _Z…
  EXPECT_FALSE(ex(f, "plain_name"));                // matched as a mangled name: no linker name
  EXPECT_TRUE(ex(f, "x", "a.c", "plain_name"));
  EXPECT_TRUE(ex(f, "hash#name"));
  EXPECT_TRUE(ex(f, "tiny_x"));
  EXPECT_FALSE(ex(f, "tiny_z"));
}

TEST(ScoreP, Errors) {
  EXPECT_EQ(parse_error("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE foo\n"),
            "bad.filt:1: SCOREP_REGION_NAMES_BEGIN is never closed (missing SCOREP_REGION_NAMES_END)");
  EXPECT_EQ(parse_error("SCOREP_REGION_NAMES_BEGIN\nfoo\nSCOREP_REGION_NAMES_END\n"),
            "bad.filt:2: pattern 'foo' before any INCLUDE or EXCLUDE");
  EXPECT_EQ(parse_error("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE foo\nSCOREP_REGION_NAMES_END\nEXCLUDE x\n"),
            "bad.filt:4: unknown keyword 'EXCLUDE' outside a SCOREP_…_BEGIN/END block");
}

TEST(HccFormat, OrderedRulesAndFiles) {
  Filter f = parse("# hcc filter\nexclude *\ninclude main\ninclude void quicksort(int *, int, int)\n"
                   "exclude file *_test.cpp\n");
  EXPECT_FALSE(ex(f, "main"));
  EXPECT_FALSE(ex(f, "quicksort(int*,int,int)"));
  EXPECT_TRUE(ex(f, "other"));
  EXPECT_TRUE(ex(f, "main", "x_test.cpp"));
  EXPECT_EQ(parse_error("exclude foo\nfrobnicate bar\n"),
            "bad.filt:2: unknown keyword 'frobnicate' (expected include or exclude)");
  EXPECT_EQ(parse_error("whatever\n").substr(0, 31), "bad.filt:1: not a filter file: ");
}

TEST(Plain, IncludeExcludeOptions) {
  Filter f;
  std::string e;
  ASSERT_TRUE(f.add_exclude("*::get*", e));
  EXPECT_TRUE(ex(f, "Vec::getX() const"));
  EXPECT_FALSE(ex(f, "getX"));  // qualified pattern needs a scope
  ASSERT_TRUE(f.add_include("Vec::*", e));
  EXPECT_TRUE(ex(f, "main"));
  EXPECT_FALSE(ex(f, "Vec::norm() const"));
  EXPECT_FALSE(f.add_include("  ", e));
}

TEST(Compose, EverySetMustAgree) {
  Filter f = parse("BEGIN_EXCLUDE_LIST\na\nEND_EXCLUDE_LIST\n");
  std::string e;
  ASSERT_TRUE(f.add_text("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE b\nSCOREP_REGION_NAMES_END\n", "s", e));
  EXPECT_TRUE(ex(f, "a"));
  EXPECT_TRUE(ex(f, "b"));
  EXPECT_FALSE(ex(f, "c"));
}

TEST(CompileTime, TemplatePatternsCompareWithoutArguments) {
  Filter f = parse("BEGIN_EXCLUDE_LIST\ngeo::Matrix<double>::mul_trace\nEND_EXCLUDE_LIST\n");
  EXPECT_TRUE(f.excludes(Region{"geo::Matrix<T>::mul_trace(int) const", "", "a.cpp", true}));
  EXPECT_FALSE(f.excludes(Region{"geo::Matrix<T>::other(int) const", "", "a.cpp", true}));
}

// Issue 28, item 8: the matcher's wildcards are the bytes 0x01-0x04, so a
// raw 0x01 in a pattern matched everything (`exclude <0x01>` dropped every
// region). Every control byte is refused, in every syntax, naming the file
// and line; a tab stays a blank and a CRLF line end stays allowed.
TEST(ControlBytes, AreRefusedWithFileAndLineInEverySyntax) {
  const std::string kMsg = " (filters are text: printable characters, blanks and tabs only)";
  EXPECT_EQ(parse_error(std::string("# mine\nexclude \x01\n")), "bad.filt:2: control character 0x01" + kMsg);
  EXPECT_EQ(parse_error(std::string("exclude a\x02z\n")), "bad.filt:1: control character 0x02" + kMsg);
  EXPECT_EQ(parse_error(std::string("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE \x03x\x04\nSCOREP_REGION_NAMES_END\n")),
            "bad.filt:2: control character 0x03" + kMsg);
  EXPECT_EQ(parse_error(std::string("BEGIN_EXCLUDE_LIST\n\"#\"\nvoid f\x01\nEND_EXCLUDE_LIST\n")),
            "bad.filt:3: control character 0x01" + kMsg);
  EXPECT_EQ(parse_error(std::string("exclude a\n# a comment with an escape \x1b[1m\n")),
            "bad.filt:2: control character 0x1b" + kMsg);
  EXPECT_EQ(parse_error(std::string("exclude a\x7f\n")), "bad.filt:1: control character 0x7f" + kMsg);
  EXPECT_EQ(parse_error(std::string("exclude a\rb\n")), "bad.filt:1: control character 0x0d" + kMsg);
  EXPECT_EQ(parse_error(std::string("exclude a\0b\n", 12)), "bad.filt:1: control character 0x00" + kMsg);
  // Still text: tabs, CRLF line ends, UTF-8.
  Filter f = parse("exclude\tquick*\r\ninclude caf\xc3\xa9\r\n");
  EXPECT_TRUE(ex(f, "quicksort"));
  EXPECT_FALSE(ex(f, "main"));
}

TEST(ControlBytes, AreRefusedInPlainPatterns) {
  Filter f;
  std::string e;
  EXPECT_FALSE(f.add_exclude(std::string("\x01"), e));
  EXPECT_EQ(e, "exclude pattern: control character 0x01 (filters are text: printable characters, blanks and tabs only)");
  EXPECT_FALSE(f.add_include(std::string("ma\x02n"), e));
  EXPECT_EQ(e.substr(0, 37), "include pattern: control character 0x");
  EXPECT_TRUE(f.empty());
  EXPECT_FALSE(ex(f, "anything"));
}

// Filter::add_file goes through io::read_regular_file: what is not a
// regular file, or is too large, is an error naming the file, not a hang
// and not an empty filter.
TEST(FilterFile, PathsThatAreNotRegularFilesAreErrorsNamingTheFile) {
  const std::string dir = ::testing::TempDir() + "hcc-filter-file-" + std::to_string(::getpid());
  std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "/dir'").c_str());
  const std::string fifo = dir + "/f.fifo", zero = dir + "/zero.tau";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(::symlink("/dev/zero", zero.c_str()), 0);
  const std::string big = dir + "/big.filt";
  {
    std::ofstream(big) << "exclude tiny\n# ";
  }
  ASSERT_EQ(::truncate(big.c_str(), (16 << 20) + 1), 0);
  const std::pair<std::string, std::string> cases[] = {
      {fifo, "not a regular file (a FIFO)"},
      {zero, "not a regular file (a character device)"},
      {dir + "/dir", "not a regular file (a directory)"},
      {big, "larger than the 16 MiB limit"},
      {dir + "/none", "No such file or directory"},
  };
  for (const auto &[path, why] : cases) {
    Filter f;
    std::string e;
    EXPECT_FALSE(f.add_file(path, e)) << path;
    EXPECT_EQ(e, path + ": cannot read the filter file: " + why);
    EXPECT_TRUE(f.empty());
  }
  std::system(("rm -rf '" + dir + "'").c_str());
}

}  // namespace

// Count mode: COUNT (Score-P) / count (hcc) / add_count (--hcc-functions=count:).
namespace {
bool counts(const Filter &f, const char *name, const char *file = "app.cpp") {
  return f.counts(Region{name, "", file, false});
}
}  // namespace

TEST(CountRules, ScorePCountLineCountsAndIncludes) {
  Filter f = parse(
      "SCOREP_REGION_NAMES_BEGIN\n"
      "  EXCLUDE *\n"
      "  COUNT get_* tiny\n"  // re-includes them, counted
      "  EXCLUDE get_secret\n"  // the last match wins: excluded, not counted
      "SCOREP_REGION_NAMES_END\n");
  EXPECT_TRUE(counts(f, "get_x"));
  EXPECT_FALSE(ex(f, "get_x"));
  EXPECT_TRUE(counts(f, "tiny"));
  EXPECT_FALSE(counts(f, "get_secret"));
  EXPECT_TRUE(ex(f, "get_secret"));
  EXPECT_FALSE(counts(f, "main"));
  EXPECT_TRUE(ex(f, "main"));
  // A count rule names the function: --hcc-functions=auto keeps it whatever its size.
  EXPECT_TRUE(f.includes_by_name(Region{"get_x", "", "app.cpp", false}));
}

TEST(CountRules, LaterIncludeMakesItTimedAgain) {
  Filter f = parse("SCOREP_REGION_NAMES_BEGIN\nCOUNT *\nINCLUDE main\nSCOREP_REGION_NAMES_END\n");
  EXPECT_TRUE(counts(f, "helper"));
  EXPECT_FALSE(counts(f, "main"));
  EXPECT_FALSE(ex(f, "main"));
}

TEST(CountRules, CountContinuesOnLaterLinesAndTakesMangledNames) {
  Filter f = parse("SCOREP_REGION_NAMES_BEGIN\nCOUNT a\n  b\nCOUNT MANGLED _Z1cv\nSCOREP_REGION_NAMES_END\n");
  EXPECT_TRUE(counts(f, "a"));
  EXPECT_TRUE(counts(f, "b"));
  EXPECT_TRUE(f.counts(Region{"c()", "_Z1cv", "app.cpp", false}));
}

TEST(CountRules, FileExclusionWins) {
  Filter f = parse(
      "SCOREP_FILE_NAMES_BEGIN\nEXCLUDE */gen/*\nSCOREP_FILE_NAMES_END\n"
      "SCOREP_REGION_NAMES_BEGIN\nCOUNT *\nSCOREP_REGION_NAMES_END\n");
  EXPECT_TRUE(counts(f, "f", "src/app.c"));
  EXPECT_FALSE(counts(f, "f", "src/gen/app.c"));
}

TEST(CountRules, HccFormatCountLines) {
  Filter f = parse("count tiny_*\nexclude tiny_skip\n");
  EXPECT_TRUE(counts(f, "tiny_a"));
  EXPECT_FALSE(counts(f, "tiny_skip"));
  EXPECT_TRUE(ex(f, "tiny_skip"));
  EXPECT_FALSE(ex(f, "other"));  // count admits; it restricts nothing
}

TEST(CountRules, PlainCountPatterns) {
  Filter f;
  std::string error;
  ASSERT_TRUE(f.add_count("vec::at*", error)) << error;
  ASSERT_TRUE(f.add_exclude("vec::at_unchecked", error)) << error;
  EXPECT_TRUE(counts(f, "vec::at(int)"));
  EXPECT_FALSE(counts(f, "vec::at_unchecked"));
  EXPECT_FALSE(ex(f, "main"));  // a count pattern admits nothing by itself, excludes nothing
  EXPECT_FALSE(counts(f, "main"));
  EXPECT_FALSE(f.add_count("  ", error));
  EXPECT_EQ(error, "empty count pattern");
}

TEST(CountRules, BadCountLinesNameFileAndLine) {
  EXPECT_EQ(parse_error("SCOREP_FILE_NAMES_BEGIN\n  COUNT *.c\nSCOREP_FILE_NAMES_END\n"),
            "bad.filt:2: 'COUNT' in a file-name block: COUNT names regions (functions), put it between "
            "SCOREP_REGION_NAMES_BEGIN and SCOREP_REGION_NAMES_END");
  EXPECT_EQ(parse_error("SCOREP_REGION_NAMES_BEGIN\nCOUNT\nSCOREP_REGION_NAMES_END\nCOUNT x\n"),
            "bad.filt:4: unknown keyword 'COUNT' outside a SCOREP_…_BEGIN/END block");
  EXPECT_EQ(parse_error("count file *.c\n"), "bad.filt:1: 'count file' is not a rule: count names functions, not files");
  EXPECT_EQ(parse_error("include main\ncount\n"), "bad.filt:2: 'count' without a pattern");
}
