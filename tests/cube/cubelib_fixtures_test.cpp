// Files written by CubeLib 4.6's tools from hcc's own profiles
// (fixtures/cubelib-4.6/README.md says which command wrote each) read back
// with the values their inputs hold: a cube_diff of a file with itself is
// all zeros on the same call tree, a cube_mean of a file with itself is the
// file, exclusify/inclusify keep every exclusive value, cube_merge holds
// both inputs' call paths and locations, cube_cut -r main is rooted at main.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "cubex.hpp"

namespace {

using hcc::profile::Profile;

const std::string kDir = HCC_CUBELIB_FIXTURES;

Profile load(const std::string &name) { return hcc::profile::read_cubex(kDir + "/" + name); }

// "main/!$omp parallel @omp.c:13/compute" for every call path.
std::vector<std::string> paths(const Profile &p) {
  std::vector<std::string> out(p.cnodes.size());
  for (std::size_t c = 0; c < p.cnodes.size(); ++c) {
    const int parent = p.cnodes[c].parent;
    out[c] = (parent < 0 ? "" : out[static_cast<std::size_t>(parent)] + "/") + p.regions[p.cnodes[c].region].name;
  }
  return out;
}

// Exclusive values of `metric` per call path and location name ("rank r
// thread t"), keyed by path; missing metric: empty.
std::map<std::string, std::map<std::string, double>> values(const Profile &p, const std::string &metric) {
  std::map<std::string, std::map<std::string, double>> out;
  const int m = p.metric_index(metric);
  if (m < 0) return out;
  const auto names = paths(p);
  for (std::size_t c = 0; c < p.cnodes.size(); ++c)
    for (std::size_t l = 0; l < p.nloc(); ++l) {
      const std::string loc = "rank " + std::to_string(p.locations[l].rank) + " thread " +
                              std::to_string(p.locations[l].thread);
      out[names[c]][loc] += p.at(static_cast<std::size_t>(m), c, l);
    }
  return out;
}

std::vector<std::string> metric_names(const Profile &p) {
  std::vector<std::string> out;
  for (const auto &m : p.metrics) out.push_back(m.uniq_name);
  return out;
}

// Same keys, values equal to 1e-9 relative (CubeLib recomputes some in
// doubles: inclusive sums, means).
void expect_same_values(const Profile &a, const Profile &b, const std::string &metric) {
  const auto va = values(a, metric), vb = values(b, metric);
  ASSERT_FALSE(va.empty()) << metric;
  ASSERT_EQ(va.size(), vb.size()) << metric;
  for (const auto &[path, locs] : va) {
    ASSERT_TRUE(vb.count(path)) << metric << " " << path;
    for (const auto &[loc, v] : locs) {
      ASSERT_TRUE(vb.at(path).count(loc)) << metric << " " << path << " " << loc;
      EXPECT_NEAR(vb.at(path).at(loc), v, 1e-9 * std::fabs(v) + 1e-15) << metric << " " << path << " " << loc;
    }
  }
}

double total(const Profile &p, const std::string &metric) {
  double t = 0;
  for (const auto &[path, locs] : values(p, metric))
    for (const auto &[loc, v] : locs) t += v;
  return t;
}

TEST(CubeLibFixtures, DiffOfAFileWithItselfIsAllZerosOnTheSameCallTree) {
  const Profile a = load("a.cubex"), d = load("diff.cubex");
  EXPECT_EQ(paths(d), paths(a));
  EXPECT_EQ(metric_names(d), metric_names(a));
  EXPECT_EQ(d.nloc(), a.nloc());
  ASSERT_GT(total(a, "visits"), 0);
  ASSERT_GT(total(a, "time"), 0);
  // Sums and counts subtract to zero (header-only sparse indexes); a
  // maximum (recursion_depth, MAXDOUBLE) is not subtracted by cube_diff:
  // it keeps the inputs' values.
  for (const auto &m : d.metrics) {
    if (m.dtype == hcc::profile::DType::MaxDouble || m.dtype == hcc::profile::DType::MinDouble) {
      expect_same_values(a, d, m.uniq_name);
      continue;
    }
    for (const auto &[path, locs] : values(d, m.uniq_name))
      for (const auto &[loc, v] : locs) EXPECT_EQ(v, 0.0) << m.uniq_name << " " << path << " " << loc;
  }
  EXPECT_EQ(total(d, "visits"), 0);
  EXPECT_EQ(total(d, "time"), 0);
}

TEST(CubeLibFixtures, MeanOfAFileWithItselfHasItsValues) {
  const Profile a = load("a.cubex"), mean = load("mean.cubex");
  EXPECT_EQ(paths(mean), paths(a));
  for (const std::string m : {"time", "recursive_visits", "recursive_calls"}) expect_same_values(a, mean, m);
  // What CubeLib 4.6's cube_mean stores for other kinds, read as stored (the
  // file's own bytes): a maximum (recursion_depth, MAXDOUBLE) is halved
  // (51 and 51 -> 25.5: the larger of the two, divided by two), and a count
  // is divided by two in integers before the sum (51 and 51 -> 25 + 25 = 50;
  // 1 and 1 -> 0, not stored; 10 and 10 -> 10).
  const auto da = values(a, "recursion_depth"), dm = values(mean, "recursion_depth");
  ASSERT_EQ(da.size(), dm.size());
  for (const auto &[path, locs] : da)
    for (const auto &[loc, v] : locs) EXPECT_EQ(dm.at(path).at(loc), v / 2) << path << " " << loc;
  EXPECT_EQ(dm.at("main/even/odd").at("rank 0 thread 0"), 25.5);
  const auto va = values(a, "visits"), vm = values(mean, "visits");
  ASSERT_EQ(va.size(), vm.size());
  for (const auto &[path, locs] : va)
    for (const auto &[loc, v] : locs) EXPECT_EQ(vm.at(path).at(loc), 2 * std::floor(v / 2)) << path << " " << loc;
  EXPECT_EQ(vm.at("main/fib").at("rank 0 thread 0"), 21890);
}

TEST(CubeLibFixtures, CleanKeepsEveryValue) {
  const Profile omp = load("omp.cubex"), clean = load("clean.cubex");
  EXPECT_EQ(paths(clean), paths(omp));
  for (const std::string m : {"time", "visits"}) expect_same_values(omp, clean, m);
}

TEST(CubeLibFixtures, ExclusifyAndInclusifyKeepEveryExclusiveValue) {
  const Profile mpi = load("mpi.cubex");
  ASSERT_GT(total(mpi, "bytes_sent"), 0);
  for (const std::string f : {"excl.cubex", "incl.cubex"}) {
    SCOPED_TRACE(f);
    const Profile x = load(f);
    EXPECT_EQ(paths(x), paths(mpi));
    EXPECT_EQ(x.nloc(), mpi.nloc());
    for (const auto &m : mpi.metrics) expect_same_values(mpi, x, m.uniq_name);
  }
}

TEST(CubeLibFixtures, MergeHoldsBothInputsCallPathsAndLocations) {
  const Profile omp = load("omp.cubex"), mpi = load("mpi.cubex"), merge = load("merge.cubex");
  // Both call trees side by side (two roots named main).
  EXPECT_EQ(merge.cnodes.size(), omp.cnodes.size() + mpi.cnodes.size());
  EXPECT_EQ(hcc::profile::roots(merge).size(), 2u);
  const auto merged = paths(merge);
  for (const Profile *in : {&omp, &mpi})
    for (const std::string &path : paths(*in))
      EXPECT_NE(std::find(merged.begin(), merged.end(), path), merged.end()) << path;
  // The system trees are merged by name: omp's rank 0 (4 threads) and mpi's
  // rank 0 are one process, mpi's rank 1 the second.
  ASSERT_EQ(merge.nloc(), 5u);
  // omp's call paths keep omp's values on its four threads.
  const auto vo = values(omp, "visits"), vm = values(merge, "visits");
  for (const auto &[path, locs] : vo) {
    if (path == "main") continue;  // both roots share this name
    for (const auto &[loc, v] : locs) EXPECT_EQ(vm.at(path).at(loc), v) << path << " " << loc;
  }
  // mpi's call paths: rank 0's values in rank 0's column. (CubeLib 4.6's
  // cube_merge writes mpi's rank 1 column into the second column, and
  // leaves uninitialised every column an input has no location for: omp's
  // rows in rank 1's column, mpi's in the last three; heap contents such as
  // 94198503559472 visits or 1.2e+214 seconds in the file's own bytes. They
  // are read as stored.)
  const auto vp = values(mpi, "visits");
  EXPECT_EQ(vm.at("main/exchange/MPI_Send").at("rank 0 thread 0"), vp.at("main/exchange/MPI_Send").at("rank 0 thread 0"));
  EXPECT_EQ(vm.at("main/MPI_Init").at("rank 0 thread 0"), 1);
}

TEST(CubeLibFixtures, CutAtMainIsRootedAtMainWithItsValues) {
  const Profile omp = load("omp.cubex"), cut = load("cut.cubex");
  const auto r = hcc::profile::roots(cut);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(cut.regions[cut.cnodes[r[0]].region].name, "main");
  for (const std::string m : {"time", "visits"}) expect_same_values(omp, cut, m);
}

}  // namespace
