// Names from a profile written into a plan or a suggested filter (issue 40,
// item 4): a profile someone hands you may carry linker names with blanks,
// line breaks, control characters or filter keywords. Every rule line must
// be read back by the filter parser the build uses as that one region: the
// plan still parses, `main` and unrelated functions are never left out,
// and the regions that cannot have a line are named in a comment.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "cubex.hpp"
#include "filter/filter.hpp"
#include "report_run.hpp"
#include "test_util.hpp"

using namespace hcc_test;

namespace {

struct Leaf {
  std::string name, mangled;
};

// The accessor of every leaf below (the one a plan should leave out).
const Leaf kDot = {"dot(int)", "_Z3doti"};

// main and one leaf per entry, each leaf 20 000 visits of 11 ns (10 of
// them its pair's inside part, pair 20 ns): what the rule calls>100 picks
// as an accessor to leave out (suggest_filter_test.cpp's dot).
Profile profile_with_leaves(const std::vector<Leaf> &leaves) {
  Profile p;
  p.attrs = {{"program", "app"}, {"hcc.pair_cost_ns", "20.00"}, {"hcc.pair_inside_ns", "10.00"}};
  p.hosts = {"node"};
  p.metrics = {metric("time", "sec", DType::Double, CubeType::Inclusive),
               metric("visits", "occ", DType::UInt64, CubeType::Exclusive)};
  p.regions = {region("main", "a.cpp", 1, 2)};
  p.regions[0].mangled = "main";
  p.cnodes = {{0, -1}};
  for (const Leaf &l : leaves) {
    Region r = region(l.name, "a.cpp", 3, 4);
    r.mangled = l.mangled;
    p.regions.push_back(r);
    p.cnodes.push_back({static_cast<int>(p.regions.size()) - 1, 0});
  }
  p.locations = {{"thread 0", 0, 0}};
  p.excl.assign(2, std::vector<double>(p.cnodes.size(), 0.0));
  p.at(0, 0, 0) = 1e-3;
  p.at(1, 0, 0) = 1;
  for (size_t c = 1; c < p.cnodes.size(); ++c) {
    p.at(0, c, 0) = 20000 * 11e-9;
    p.at(1, c, 0) = 20000;
  }
  return p;
}

// Linker names and names a filter line cannot hold, each with what the
// comment says about it, and two that only need an escape. hcc's writer
// turns control characters into blanks; a file made by hand keeps them, so
// @NL@ and @DEL@ are put in after writing (write_hostile).
const std::vector<Leaf> kHostile = {
    kDot,
    {"tiny(int)", "tiny main"},  // EXCLUDE MANGLED tiny main: two patterns, one of them main
    {"nl(int)", "_Z2nli@NL@SCOREP_REGION_NAMES_END@NL@SCOREP_REGION_NAMES_BEGIN@NL@  EXCLUDE *"},
    {"nl2(int)@NL@EXCLUDE *", ""},  // a line break in the name itself
    {"ctl@DEL@(int)", ""},          // a control byte: the parser refuses the whole file
    {"main(int)", ""},              // its qualified name is main's
    {"MANGLED", ""},                // a keyword: written as \MANGLED
    {"file x(int)", ""},            // hcc's format: `exclude file x` would be a file rule
};

void replace_all(std::string &s, const std::string &from, const std::string &to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
}

// The profile of kHostile at `path`, line breaks and DEL bytes in place.
void write_hostile(const TempDir &d, const std::string &path) {
  write_cubex(profile_with_leaves(kHostile), d.file("plain.cubex"));
  auto members = tar_members(d.file("plain.cubex"));
  replace_all(members["anchor.xml"], "@NL@", "\n");
  replace_all(members["anchor.xml"], "@DEL@", "\x7f");
  put_file(path, cubelib_style_tar({members.begin(), members.end()}));
}

std::string read(const std::string &path) {
  std::ifstream f(path);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// The filter parser the build uses, on `file`: "" when it parses, else its error.
std::string parse(const std::string &file, hcc::filter::Filter &f) {
  std::string error;
  return f.add_file(file, error) ? "" : error;
}

bool excludes(const hcc::filter::Filter &f, const std::string &name, const std::string &mangled) {
  return f.excludes({name, mangled, "a.cpp"});
}

int count_lines_starting(const std::string &text, const std::string &start) {
  int n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) n += line.rfind(start, 0) == 0;
  return n;
}

TEST(PlanNames, NamesAFilterCannotHoldAreNotWrittenAndThePlanStillParses) {
  TempDir d;
  write_hostile(d, d.file("p.cubex"));
  const std::string plan = d.file("hcc.plan");
  const ReportResult r = run_capturing(quote(HCC_REPORT_EXE) + " --plan " + quote(d.file("p.cubex")) +
                                           " --rule 'calls>100,budget<100' -o " + quote(plan) + " 2>" +
                                           quote(d.file("err")),
                                       d.file("err"));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = read(plan);
  hcc::filter::Filter f;
  ASSERT_EQ(parse(plan, f), "") << text;
  // Left out: the accessor, the keyword-named region and `file x(int)`
  // (as its qualified name `x`, hcc's name form for a region without a
  // linker name), nothing else.
  EXPECT_TRUE(excludes(f, kDot.name, kDot.mangled)) << text;
  EXPECT_TRUE(excludes(f, "MANGLED", "")) << text;
  EXPECT_FALSE(excludes(f, "main", "main")) << text;
  EXPECT_FALSE(excludes(f, "other(int)", "_Z5otheri")) << text;
  EXPECT_EQ(count_lines_starting(text, "  EXCLUDE "), 3) << text;
  EXPECT_NE(text.find("\n  EXCLUDE MANGLED _Z3doti\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  EXCLUDE \\MANGLED\n"), std::string::npos) << text;
  // The others are named, with why, on comment lines; the evidence of a
  // region left out is not claimed for them.
  EXPECT_NE(text.find("\n# 5 region(s) not written: their names cannot be one filter line"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\n# not written tiny(int): a blank in its linker name\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n# not written nl(int): a control character in its linker name\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n# not written ctl?(int): a control character in its name\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n# not written nl2(int)?EXCLUDE *: a control character in its name\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\n# not written main(int): the filter parser does not read its line back as that one region\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("# left out tiny(int)"), std::string::npos) << text;
  EXPECT_NE(text.find("# left out dot(int)"), std::string::npos) << text;
  // Every line of the file is a comment, a block keyword or one rule.
  EXPECT_EQ(count_lines_starting(text, "SCOREP_REGION_NAMES_BEGIN"), 1) << text;
  EXPECT_EQ(count_lines_starting(text, "SCOREP_REGION_NAMES_END"), 1) << text;
}

// --suggest-filter in each format: the file parses, leaves out the accessor
// and neither main nor an unrelated function.
class SuggestedFilterNames : public ::testing::TestWithParam<const char *> {};

TEST_P(SuggestedFilterNames, ParseAndLeaveOutOnlyWhatTheyName) {
  TempDir d;
  write_hostile(d, d.file("p.cubex"));
  const std::string out = d.file("filter.txt");
  const ReportResult r = run_capturing(quote(HCC_REPORT_EXE) + " --suggest-filter --format " + GetParam() + " " +
                                           quote(d.file("p.cubex")) + " --rule 'calls>100,budget<100' -o " + quote(out) +
                                           " 2>" + quote(d.file("err")),
                                       d.file("err"));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = read(out);
  hcc::filter::Filter f;
  ASSERT_EQ(parse(out, f), "") << text;
  EXPECT_TRUE(excludes(f, kDot.name, kDot.mangled)) << text;
  EXPECT_FALSE(excludes(f, "main", "main")) << text;
  EXPECT_FALSE(excludes(f, "other(int)", "_Z5otheri")) << text;
  EXPECT_NE(text.find(" region(s) not written: "), std::string::npos) << text;
  if (std::string(GetParam()) == "hcc") {
    // Written with an escape, read back as that region's name.
    EXPECT_NE(text.find("\nexclude \\file x(int)\n"), std::string::npos) << text;
    EXPECT_TRUE(excludes(f, "file x(int)", "")) << text;
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, SuggestedFilterNames, ::testing::Values("hcc", "tau", "scorep"));

}  // namespace
