// hcc-report's views are exclusive: two options that select different views
// are refused (exit 2, one line naming both), an option that modifies one view
// is refused with another, and the views given alone print what they did.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cubex.hpp"
#include "report_run.hpp"
#include "summary.hpp"
#include "test_util.hpp"

using namespace hcc_test;

namespace {

// Runs hcc-report with `args` (already quoted for the shell).
ReportResult report(const std::string &args) {
  TempDir errdir;
  const std::string errfile = errdir.file("stderr");
  return run_capturing(quote(HCC_REPORT_EXE) + " " + args + " 2>" + quote(errfile), errfile);
}

// Every option that selects a view, with the words it needs to parse. A new
// view must be added here: OptionsListedHereAreExactlyThoseOfHelp fails until it is.
const std::map<std::string, std::string> kViewOptions = {
    {"--findings", "--findings"},
    {"--tree", "--tree"},
    {"--summary", "--summary"},
    {"--openmp", "--openmp"},
    {"--mpi", "--mpi"},
    {"--json", "--json"},
    {"--cfg", "--cfg=dot"},
    {"--suggest-filter", "--suggest-filter"},
    {"--plan", "--plan a.cubex"},
    {"--trace-json", "--trace-json"},
    {"--watch", "--watch"},
    {"--html", "--html"},
    {"--folded", "--folded"},
    {"--diff", "--diff a.cubex b.cubex"},
    {"--gprof", "--gprof"},
    {"--callgraph", "--callgraph=dot"},
};

// The options that modify a view rather than select one.
const std::set<std::string> kModifierOptions = {"--location", "--cfg-root", "--rule",   "--format",         "-o",
                                                "--top",      "--metric",   "--unmarked", "--callgraph-focus",
                                                "--fail-above"};

// The option names --help lists (first word of each option line; "-h,--help" is one).
std::set<std::string> options_in_help() {
  const ReportResult help = report("--help");
  EXPECT_EQ(help.status, 0) << help.err;
  std::set<std::string> names;
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  -", 0) != 0) continue;
    std::istringstream words(line);
    std::string name;
    words >> name;
    names.insert(name);
  }
  return names;
}

}  // namespace

TEST(ReportViewOptions, OptionsListedHereAreExactlyThoseOfHelp) {
  std::set<std::string> listed = kModifierOptions;
  for (const auto &[name, words] : kViewOptions) listed.insert(name);
  listed.insert("-h,--help");
  EXPECT_EQ(options_in_help(), listed);
}

// --diff and --findings take --json as their output format; every other pair is refused,
// whichever comes first, before any file is read.
TEST(ReportViewOptions, EveryPairOfViewOptionsIsRefusedNamingBoth) {
  int pairs = 0;
  for (const auto &[first, first_words] : kViewOptions)
    for (const auto &[second, second_words] : kViewOptions) {
      if (first == second) continue;
      const bool json_form = (first == "--json" && (second == "--diff" || second == "--findings")) ||
                             (second == "--json" && (first == "--diff" || first == "--findings"));
      if (json_form) continue;
      const ReportResult r = report("/nonexistent/profile.cubex " + first_words + " " + second_words);
      EXPECT_EQ(r.status, 2) << first << " " << second;
      EXPECT_EQ(r.err, "hcc-report: " + first + " and " + second + " select different views; give one\n");
      EXPECT_EQ(r.out, "");
      ++pairs;
    }
  EXPECT_EQ(pairs, 16 * 15 - 4);
}

TEST(ReportViewOptions, ThreeViewOptionsNameTheFirstTwo) {
  const ReportResult r = report("--gprof --json --diff a.cubex b.cubex");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "hcc-report: --gprof and --diff select different views; give one\n");
}

TEST(ReportViewOptions, ModifierOfAnotherViewIsRefusedSayingWhereItApplies) {
  const ReportResult metric = report("--tree --metric visits x.cubex");
  EXPECT_EQ(metric.status, 2);
  EXPECT_EQ(metric.err, "hcc-report: --metric applies to --folded, not to --tree\n");

  const ReportResult out = report("-o f.txt x.cubex");
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.err,
            "hcc-report: -o applies to --suggest-filter, --plan, --trace-json, --html or --callgraph, not to the flat "
            "profile (the default view)\n");

  const ReportResult location = report("--summary --location 0 x.cubex");
  EXPECT_EQ(location.status, 2);
  EXPECT_EQ(location.err,
            "hcc-report: --location applies to the flat profile (the default view), --tree, --json, --cfg, "
            "--folded, --gprof or --callgraph, not to --summary\n");
  EXPECT_EQ(location.out, "");
}

TEST(ReportViewOptions, DefaultAndTreeViewsPrintWhatTheLibraryWrites) {
  TempDir d;
  const std::string file = d.file("profile.cubex");
  write_cubex(sample_profile(), file);
  const Profile p = hcc::profile::read_cubex(file);

  const ReportResult flat = report(quote(file));
  ASSERT_EQ(flat.status, 0) << flat.err;
  EXPECT_EQ(flat.out, hcc::profile::flat_profile_text(p));
  EXPECT_EQ(flat.err, "");

  const ReportResult tree = report("--tree --location 1 " + quote(file));
  ASSERT_EQ(tree.status, 0) << tree.err;
  EXPECT_EQ(tree.out, hcc::profile::call_tree_text(p, 1));
  EXPECT_NE(tree.out.find("CALL TREE"), std::string::npos) << tree.out;
}

TEST(ReportViewOptions, JsonWithDiffIsTheComparisonAsJson) {
  TempDir d;
  write_cubex(sample_profile(), d.file("a.cubex"));
  write_cubex(sample_profile(), d.file("b.cubex"));
  for (const std::string &args : {"--json --diff " + quote(d.file("a.cubex")) + " " + quote(d.file("b.cubex")),
                                  "--diff " + quote(d.file("a.cubex")) + " " + quote(d.file("b.cubex")) + " --json"}) {
    const ReportResult r = report(args);
    ASSERT_EQ(r.status, 0) << args << ": " << r.err;
    EXPECT_EQ(r.out.front(), '{') << r.out;
    EXPECT_NE(r.out.find(d.file("b.cubex")), std::string::npos) << r.out;
  }
}
