// hcc-report on every file CubeLib 4.6's tools wrote from hcc profiles
// (tests/cube/fixtures/cubelib-4.6): each view that makes sense for the
// file's content prints it, with exit status 0 and nothing on stderr, and
// the JSON holds the values the inputs hold.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report_run.hpp"
#include "test_util.hpp"

using namespace hcc_test;
using nlohmann::json;

namespace {

const std::string kDir = HCC_CUBELIB_FIXTURES;

ReportResult report(const std::string &args) {
  TempDir errdir;
  const std::string errfile = errdir.file("stderr");
  return run_capturing(quote(HCC_REPORT_EXE) + " " + args + " 2>" + quote(errfile), errfile);
}

std::string fixture(const std::string &name) { return quote(kDir + "/" + name); }

struct Case {
  std::string file;
  bool openmp, mpi;
};

const Case kCases[] = {
    {"a.cubex", false, false},    {"diff.cubex", false, false}, {"mean.cubex", false, false},
    {"omp.cubex", true, false},   {"clean.cubex", true, false}, {"cut.cubex", true, false},
    {"mpi.cubex", false, true},   {"excl.cubex", false, true},  {"incl.cubex", false, true},
    {"merge.cubex", true, true},
};

void PrintTo(const Case &c, std::ostream *os) { *os << c.file; }

class CubeLibFile : public ::testing::TestWithParam<Case> {};

TEST_P(CubeLibFile, EveryViewPrintsIt) {
  const Case c = GetParam();
  std::vector<std::string> views = {"", "--tree", "--json", "--summary", "--folded", "--gprof",
                                    "--callgraph=dot", "--html", "--diff " + fixture(c.file)};
  if (c.openmp) views.push_back("--openmp");
  if (c.mpi) views.push_back("--mpi");
  for (const std::string &v : views) {
    SCOPED_TRACE(v);
    const ReportResult r = report(v + " " + fixture(c.file));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    // Folded stacks list only call paths with time: none in a diff of a
    // file with itself.
    if (v == "--folded" && c.file == "diff.cubex")
      EXPECT_EQ(r.out, "");
    else
      EXPECT_GT(r.out.size(), 40u) << r.out;
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, CubeLibFile, ::testing::ValuesIn(kCases), [](const auto &info) {
  std::string n = info.param.file.substr(0, info.param.file.find('.'));
  return n;
});

// Sum of a metric's exclusive values over call paths and locations.
double total(const json &j, const std::string &metric) {
  double t = 0;
  for (const auto &c : j["callpaths"])
    if (c["values"].contains(metric))
      for (const auto &v : c["values"][metric]["excl"]) t += v.get<double>();
  return t;
}

json json_of(const std::string &file) {
  const ReportResult r = report("--json " + fixture(file));
  EXPECT_EQ(r.status, 0) << r.err;
  return json::parse(r.out);
}

TEST(CubeLibFiles, DiffReadsAsZerosOnTheCallTreeOfItsInput) {
  const json a = json_of("a.cubex"), d = json_of("diff.cubex");
  ASSERT_EQ(d["callpaths"].size(), a["callpaths"].size());
  for (std::size_t c = 0; c < a["callpaths"].size(); ++c) {
    EXPECT_EQ(d["callpaths"][c]["parent"], a["callpaths"][c]["parent"]);
    EXPECT_EQ(d["regions"][d["callpaths"][c]["region"].get<int>()]["name"],
              a["regions"][a["callpaths"][c]["region"].get<int>()]["name"]);
  }
  EXPECT_GT(total(a, "visits"), 0);
  EXPECT_EQ(total(d, "visits"), 0);
  EXPECT_EQ(total(d, "time"), 0);
}

TEST(CubeLibFiles, ExclusifiedAndInclusifiedMpiProfilesHaveItsValues) {
  const json mpi = json_of("mpi.cubex");
  ASSERT_GT(total(mpi, "bytes_sent"), 0);
  for (const std::string f : {"excl.cubex", "incl.cubex"}) {
    const json x = json_of(f);
    for (const std::string m : {"visits", "bytes_sent", "bytes_received", "messages_sent"})
      EXPECT_EQ(total(x, m), total(mpi, m)) << f << " " << m;
    EXPECT_NEAR(total(x, "time"), total(mpi, "time"), 1e-9 * total(mpi, "time")) << f;
  }
}

TEST(CubeLibFiles, CutTreeStartsAtMain) {
  const ReportResult r = report("--tree " + fixture("cut.cubex"));
  ASSERT_EQ(r.status, 0) << r.err;
  // The first call path line of the tree is main.
  const json j = json_of("cut.cubex");
  ASSERT_GT(j["callpaths"].size(), 1u);
  EXPECT_EQ(j["callpaths"][0]["parent"], -1);
  EXPECT_EQ(j["regions"][j["callpaths"][0]["region"].get<int>()]["name"], "main");
  for (std::size_t c = 1; c < j["callpaths"].size(); ++c) EXPECT_NE(j["callpaths"][c]["parent"], -1) << c;
}

}  // namespace
