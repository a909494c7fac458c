// Our files as the real CubeLib sees them (built only when cube_dump and
// cube_sanity are found, see CMakeLists.txt): cube_sanity accepts the file
// and cube_dump prints, per call path and location, exactly the inclusive and
// exclusive values we wrote, for every metric.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

#include "cubex.hpp"
#include "test_util.hpp"

using namespace hcc_test;

namespace {

struct Output {
  int status = -1;
  std::string text;
};

Output run(const std::string &cmd) {
  Output o;
  FILE *f = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!f) return o;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) o.text.append(buf, n);
  const int st = ::pclose(f);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return o;
}

// With -x incl cube_dump shows the stored value of every metric (CUBE's
// stored parent-metric values include their child metrics; -x excl would
// subtract the children along the metric tree).
// cube_dump -s csv2 output: "Cnode ID, Thread ID,m1,m2..." then rows.
// Returns (metric name, cnode, location) -> value.
std::map<std::tuple<std::string, int, int>, double> parse_csv2(const std::string &text) {
  std::map<std::tuple<std::string, int, int>, double> out;
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> metrics;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    if (cells.size() >= 2 && cells[0] == "Cnode ID") {
      metrics.assign(cells.begin() + 2, cells.end());
      continue;
    }
    if (metrics.empty() || cells.size() != metrics.size() + 2) continue;
    try {
      const int c = std::stoi(cells[0]), l = std::stoi(cells[1]);
      for (std::size_t m = 0; m < metrics.size(); ++m) out[{metrics[m], c, l}] = std::stod(cells[m + 2]);
    } catch (const std::exception &) {
    }
  }
  return out;
}

// Several roots, two ranks on two hosts, locations listed out of rank order,
// a nested metric, counts, and values that print exactly.
Profile compat_profile() {
  Profile p = sample_profile();
  p.hosts = {"alpha", "beta"};
  p.metrics.push_back(metric("bytes_sent", "bytes", DType::UInt64, CubeType::Exclusive));
  p.metrics.push_back(metric("comp", "sec", DType::Double, CubeType::Inclusive, 0));
  p.regions.push_back(region("init", "app.c", 50, 60));
  p.cnodes.push_back({4, -1});  // second root: init
  p.cnodes.push_back({1, 4});   // init -> foo
  p.locations = {{"r1 t0", 1, 0}, {"r0 t0", 0, 0}, {"r0 t1", 0, 1}};
  const std::size_t nc = p.cnodes.size(), nl = 3;
  p.excl.assign(p.metrics.size(), std::vector<double>(nc * nl));
  for (std::size_t m = 0; m < p.metrics.size(); ++m)
    for (std::size_t c = 0; c < nc; ++c)
      for (std::size_t l = 0; l < nl; ++l)
        p.excl[m][c * nl + l] = static_cast<double>((m + 1) * 1000 + c * 10 + l) / (m == 0 || m == 3 ? 8.0 : 1.0);
  return p;
}

void expect_dump_matches(const Profile &p, const std::string &file, bool incl) {
  const Output o = run(std::string(HCC_CUBE_DUMP) + " -m all -c all -x incl -z " + (incl ? "incl" : "excl") +
                       " -s csv2 " + file);
  ASSERT_EQ(o.status, 0) << o.text;
  const auto got = parse_csv2(o.text);
  const std::size_t nl = p.nloc();
  // cube_dump's "Thread ID" is the location Id in the file: position in
  // location_file_order(), not the model's location id.
  const std::vector<int> order = location_file_order(p);
  std::vector<int> file_id(nl);
  for (std::size_t i = 0; i < nl; ++i) file_id[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
  std::size_t compared = 0;
  for (std::size_t m = 0; m < p.metrics.size(); ++m) {
    const std::vector<double> want = incl ? inclusive(p, m) : p.excl[m];
    for (std::size_t c = 0; c < p.cnodes.size(); ++c)
      for (std::size_t l = 0; l < nl; ++l) {
        const auto it = got.find({p.metrics[m].uniq_name, static_cast<int>(c), file_id[l]});
        ASSERT_NE(it, got.end()) << p.metrics[m].uniq_name << " cnode " << c << " loc " << l << "\n" << o.text;
        EXPECT_NEAR(it->second, want[c * nl + l], 1e-9 * (1 + std::fabs(want[c * nl + l])))
            << (incl ? "incl " : "excl ") << p.metrics[m].uniq_name << " cnode " << c << " loc " << l;
        ++compared;
      }
  }
  EXPECT_EQ(compared, p.metrics.size() * p.cnodes.size() * nl);
}

}  // namespace

TEST(CubeLib, SanityAcceptsOurFile) {
  TempDir d;
  write_cubex(compat_profile(), d.file("p.cubex"));
  const Output o = run(std::string(HCC_CUBE_SANITY) + " " + d.file("p.cubex"));
  EXPECT_EQ(o.status, 0) << o.text;
  EXPECT_EQ(o.text.find("rror"), std::string::npos) << o.text;
}

TEST(CubeLib, DumpShowsOurInclusiveValues) {
  TempDir d;
  const Profile p = compat_profile();
  write_cubex(p, d.file("p.cubex"));
  expect_dump_matches(p, d.file("p.cubex"), true);
}

TEST(CubeLib, DumpShowsOurExclusiveValues) {
  TempDir d;
  const Profile p = compat_profile();
  write_cubex(p, d.file("p.cubex"));
  expect_dump_matches(p, d.file("p.cubex"), false);
}

TEST(CubeLib, DumpReadsAllMembersWhenAnchorHitsTheTarBlockSize) {
  Profile p = compat_profile();
  const std::size_t len = anchor_xml(p).size();
  p.regions[0].name += std::string((512 - len % 512) % 512, 'x');
  ASSERT_EQ(anchor_xml(p).size() % 512, 0u);
  TempDir d;
  write_cubex(p, d.file("p.cubex"));
  expect_dump_matches(p, d.file("p.cubex"), false);
}

TEST(CubeLib, FileRewrittenByCubeLibReadsBack) {
  // cube_clean reads our file and writes its own .cubex (CubeLib's writer:
  // sparse indexes, its own attrs and padding). read_cubex of that file must
  // give back our call paths and values.
  TempDir d;
  const Profile p = compat_profile();
  write_cubex(p, d.file("p.cubex"));
  const Output o = run("cd " + d.path.string() + " && " + HCC_CUBE_CLEAN + " -o clean p.cubex");
  ASSERT_EQ(o.status, 0) << o.text;
  const Profile q = read_cubex(d.file("clean.cubex"));
  ASSERT_EQ(q.cnodes.size(), p.cnodes.size());
  ASSERT_EQ(q.nloc(), p.nloc());
  auto path_of = [](const Profile &x, int c) {
    std::string s;
    for (; c >= 0; c = x.cnodes[static_cast<std::size_t>(c)].parent)
      s = x.regions[static_cast<std::size_t>(x.cnodes[static_cast<std::size_t>(c)].region)].name + "/" + s;
    return s;
  };
  std::map<std::string, int> q_ids;
  for (std::size_t c = 0; c < q.cnodes.size(); ++c) q_ids[path_of(q, static_cast<int>(c))] = static_cast<int>(c);
  for (std::size_t m = 0; m < p.metrics.size(); ++m) {
    const int qm = q.metric_index(p.metrics[m].uniq_name);
    ASSERT_GE(qm, 0) << p.metrics[m].uniq_name;
    EXPECT_EQ(q.metrics[static_cast<std::size_t>(qm)].dtype, p.metrics[m].dtype);
    EXPECT_EQ(q.metrics[static_cast<std::size_t>(qm)].cube_type, p.metrics[m].cube_type);
    for (std::size_t c = 0; c < p.cnodes.size(); ++c) {
      const std::string path = path_of(p, static_cast<int>(c));
      ASSERT_TRUE(q_ids.count(path)) << path;
      for (std::size_t l = 0; l < p.nloc(); ++l) {
        // locations are matched by (rank, thread)
        std::size_t ql = 0;
        while (ql < q.nloc() && !(q.locations[ql].rank == p.locations[l].rank && q.locations[ql].thread == p.locations[l].thread)) ++ql;
        ASSERT_LT(ql, q.nloc());
        EXPECT_NEAR(q.at(static_cast<std::size_t>(qm), static_cast<std::size_t>(q_ids[path]), ql), p.at(m, c, l), 1e-9)
            << p.metrics[m].uniq_name << " " << path << " loc " << l;
      }
    }
  }
}
