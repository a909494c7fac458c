// Unit tests of the filter parser/matcher (filter/): each syntax's rules.
#include "filter/filter.hpp"

#include <gtest/gtest.h>

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

}  // namespace
