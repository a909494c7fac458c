// hcc — HCC_LOCATIONS in process (wrappers/merge): every thread streamed into
// the file a block of columns at a time, threads summed per rank, and the
// statistics over ranks; each file read back with our CUBE reader.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <string>

#include "cube/cubex.hpp"
#include "summary.hpp"
#include "synthetic.hpp"

using namespace hcc;
using hcc::mpimerge::LocationMode;
using hcc::profile::Profile;

namespace {

std::string path_of(const Profile &p, int c) {
  std::string s;
  for (; c >= 0; c = p.cnodes[size_t(c)].parent)
    s = p.regions[size_t(p.cnodes[size_t(c)].region)].name + (s.empty() ? "" : "/" + s);
  return s;
}

using Values = std::map<std::pair<std::string, std::string>, double>;

// (path, metric) → value at location `loc`, for the metrics of `p` that are
// not statistics over ranks.
Values values_at(const Profile &p, size_t loc) {
  Values out;
  for (size_t c = 0; c < p.cnodes.size(); ++c)
    for (size_t m = 0; m < p.metrics.size(); ++m)
      if (!profile::is_rank_statistic(p.metrics[m]) && p.at(m, c, loc) != 0)
        out[{path_of(p, int(c)), p.metrics[m].uniq_name}] = p.at(m, c, loc);
  return out;
}

struct TempFile {
  std::string path;
  explicit TempFile(const std::string &name)
      : path(std::string(::testing::TempDir()) + "/" + name + "." + std::to_string(getpid()) + ".cubex") {}
  ~TempFile() { std::remove(path.c_str()); }
};

// Three hosts taking ranks round-robin (mpirun --map-by node), so the file's
// column order (by host) is not the rank order.
Profile rank_on_host(int r, int threads) {
  Profile p = hcc::testing::synthetic_rank(r, threads);
  p.hosts = {"node" + std::to_string(r % 3)};
  return p;
}

// Control flow on some ranks: every path's parent as its predecessor.
Profile with_predecessors(Profile p, int r) {
  if (r % 4 == 1) return p;  // this rank ran with HCC_CFG=off
  p.preds.assign(p.cnodes.size(), {});
  for (size_t c = 0; c < p.cnodes.size(); ++c)
    if (p.cnodes[c].parent >= 0)
      p.preds[c].push_back({p.cnodes[c].parent, std::vector<double>(p.nloc(), double(r + 1))});
  return p;
}

// Equal keys, equal values up to the rounding of INCLUSIVE time read back
// (the reader subtracts the children's sums).
void expect_same(const Values &got, const Values &want, const std::string &where) {
  EXPECT_EQ(got.size(), want.size()) << where;
  for (const auto &[key, v] : want) {
    const auto it = got.find(key);
    if (it == got.end()) {
      ADD_FAILURE() << where << ": " << key.first << " " << key.second << " missing";
      continue;
    }
    EXPECT_NEAR(it->second, v, 1e-12 * (1 + v)) << where << ": " << key.first << " " << key.second;
  }
}

size_t location_of(const Profile &p, int rank, int thread) {
  for (size_t l = 0; l < p.nloc(); ++l)
    if (p.locations[l].rank == rank && p.locations[l].thread == thread) return l;
  ADD_FAILURE() << "no location for rank " << rank << " thread " << thread;
  return 0;
}

}  // namespace

// Blocks of two columns (a rank of three threads makes its block wider),
// packets asked for by host: every value of every rank and thread reads back
// at its own path and location, and the control flow too.
TEST(LocationModes, AllStreamsEveryThreadIntoTheFileInSmallBlocks) {
  const int ranks = 13;
  auto make = [](int r) { return with_predecessors(rank_on_host(r, 1 + r % 3), r); };
  TempFile file("all");
  mpimerge::StreamLimits small;
  small.block_bytes = 2 * 8 * 8 * 300;  // two columns of 8 metrics x 300 call paths
  small.keep_bytes = 0;                 // summary.txt from the statistics
  const Profile text = hcc::testing::simulate_mode_job(ranks, LocationMode::All, make, file.path, small);
  const Profile back = profile::read_cubex(file.path);
  ASSERT_NO_THROW(profile::validate(back));
  size_t threads = 0;
  for (int r = 0; r < ranks; ++r) {
    const Profile local = make(r);
    threads += local.nloc();
    for (size_t t = 0; t < local.nloc(); ++t) {
      const size_t loc = location_of(back, r, int(t));
      expect_same(values_at(back, loc), values_at(local, t), "rank " + std::to_string(r) + " thread " + std::to_string(t));
      for (size_t c = 0; c < local.cnodes.size(); ++c) {
        if (local.preds.empty() || local.cnodes[c].parent < 0) continue;
        size_t g = 0;
        while (g < back.cnodes.size() && path_of(back, int(g)) != path_of(local, int(c))) ++g;
        ASSERT_LT(g, back.cnodes.size());
        ASSERT_FALSE(back.preds[g].empty());
        EXPECT_EQ(back.preds[g][0].callpath, back.cnodes[g].parent) << "the parent first";
        EXPECT_EQ(back.preds[g][0].count[loc], double(r + 1)) << path_of(local, int(c));
      }
    }
    EXPECT_EQ(back.hosts[size_t(r)], "node" + std::to_string(r % 3));
  }
  EXPECT_EQ(back.nloc(), threads);
  // Columns by host: node0's ranks 0, 3, 6, 9, 12 first.
  EXPECT_EQ(back.locations[0].rank, 0);
  EXPECT_EQ(back.locations[1].rank, 3);
  // summary.txt's profile: the statistics (the whole matrix was not kept).
  ASSERT_EQ(text.nloc(), 1u);
  const int visits = text.metric_index("visits");
  double total = 0, want = 0;
  for (size_t c = 0; c < text.cnodes.size(); ++c) total += text.at(size_t(visits), c, 0);
  for (int r = 0; r < ranks; ++r) {
    const Profile local = make(r);
    for (size_t c = 0; c < local.cnodes.size(); ++c)
      for (size_t t = 0; t < local.nloc(); ++t) want += local.at(1, c, t);
  }
  EXPECT_EQ(total, want);
  // Its summary: no rows per rank, statistics per MPI call path, no columns
  // for the statistics metrics themselves.
  const std::string summary = profile::summary_text(text);
  EXPECT_NE(summary.find("the sum and statistics over 13 MPI ranks (statistics over ranks; profile.cubex keeps every "
                         "thread)"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("MPI CALL PATHS OVER RANKS"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("MPI TIME PER RANK"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("_rank_min excl"), std::string::npos) << summary;
  // GNU tar reads the hand-written ustar headers as well.
  const std::string cmd = "tar -tf '" + file.path + "' 2>&1";
  std::string listing;
  if (FILE *f = popen(cmd.c_str(), "r")) {
    char buf[256];
    while (fgets(buf, sizeof buf, f)) listing += buf;
    EXPECT_EQ(pclose(f), 0) << listing;
  }
  EXPECT_NE(listing.find("anchor.xml"), std::string::npos) << listing;
  EXPECT_NE(listing.find("7.data"), std::string::npos) << listing;
  EXPECT_NE(listing.find("hcc_cfg.txt"), std::string::npos) << listing;
}

// Within the memory bound the streamed file and summary.txt's profile are
// the merge of every thread as before.
TEST(LocationModes, AllKeepsTheWholeProfileForTheSummaryWhileItIsSmall) {
  const int ranks = 6;
  auto make = [](int r) { return hcc::testing::synthetic_rank(r, 2); };
  TempFile file("all-small");
  const Profile text = hcc::testing::simulate_mode_job(ranks, LocationMode::All, make, file.path);
  const Profile whole = hcc::testing::simulate_job(ranks, make);
  ASSERT_EQ(text.nloc(), whole.nloc());
  for (size_t l = 0; l < whole.nloc(); ++l) EXPECT_EQ(values_at(text, l), values_at(whole, l)) << l;
  const Profile back = profile::read_cubex(file.path);
  for (size_t l = 0; l < whole.nloc(); ++l)
    expect_same(values_at(back, location_of(back, whole.locations[l].rank, whole.locations[l].thread)),
                values_at(whole, l), "location " + std::to_string(l));
}

// One location per rank holding the sum of its threads, on each rank's own
// paths (ranks take different branches: variant_<rank % 16>).
TEST(LocationModes, ProcessSumsEachRanksThreadsOnItsOwnPaths) {
  const int ranks = 9;
  auto make = [](int r) { return rank_on_host(r, 1 + r % 3); };
  TempFile file("process");
  hcc::testing::simulate_mode_job(ranks, LocationMode::Process, make, file.path);
  const Profile back = profile::read_cubex(file.path);
  ASSERT_EQ(back.nloc(), size_t(ranks));
  for (int r = 0; r < ranks; ++r) {
    const Profile local = make(r);
    Values sum;
    for (size_t t = 0; t < local.nloc(); ++t)
      for (const auto &[key, v] : values_at(local, t)) sum[key] += v;
    const size_t loc = location_of(back, r, 0);
    EXPECT_EQ(back.locations[loc].name, "all threads");
    const Values got = values_at(back, loc);
    expect_same(got, sum, "rank " + std::to_string(r));
    EXPECT_TRUE(got.count({"main/variant_" + std::to_string(r % 16), "visits"})) << "rank " << r;
  }
}

// A constructed imbalance: rank r spends r + 1 ms in `work`, rank 4 spends
// 50 ms, rank 5 never calls `rare`; min, mean, max and the rank of the max
// are exact, and the file does not grow with the ranks.
TEST(LocationModes, SummaryGivesExactMinMeanMaxAndTheRankOfTheMax) {
  auto make = [](int r) {
    Profile p;
    p.metrics = {{"time", "Time", "sec", "", "", profile::DType::Double, profile::CubeType::Inclusive, -1},
                 {"visits", "Visits", "occ", "", "", profile::DType::UInt64, profile::CubeType::Exclusive, -1}};
    p.hosts = {"node" + std::to_string(r / 4)};
    p.regions.resize(3);
    p.regions[0].name = "main", p.regions[1].name = "work", p.regions[2].name = "rare";
    p.cnodes = {{0, -1}, {1, 0}};
    if (r != 5) p.cnodes.push_back({2, 0});
    p.locations = {{"thread 0", 0, 0}, {"thread 1", 0, 1}};
    p.excl.assign(2, std::vector<double>(p.cnodes.size() * 2, 0.0));
    const double work = r == 4 ? 50e-3 : (r + 1) * 1e-3;
    p.at(0, 1, 0) = work * 0.75, p.at(0, 1, 1) = work * 0.25;  // threads summed per rank
    p.at(1, 1, 0) = 10, p.at(1, 1, 1) = double(r);
    if (r != 5) p.at(0, 2, 0) = 2e-3, p.at(1, 2, 0) = 1;
    return p;
  };
  TempFile file("summary"), bigger("summary-64");
  const int ranks = 8;
  hcc::testing::simulate_mode_job(ranks, LocationMode::Summary, make, file.path);
  const Profile back = profile::read_cubex(file.path);
  ASSERT_EQ(back.nloc(), 1u);
  int work = -1, rare = -1;
  for (size_t c = 0; c < back.cnodes.size(); ++c) {
    if (path_of(back, int(c)) == "main/work") work = int(c);
    if (path_of(back, int(c)) == "main/rare") rare = int(c);
  }
  ASSERT_GE(work, 0);
  ASSERT_GE(rare, 0);
  auto v = [&](const char *metric, int c) {
    const int m = back.metric_index(metric);
    EXPECT_GE(m, 0) << metric;
    return m < 0 ? -1.0 : back.at(size_t(m), size_t(c), 0);
  };
  // work: 1, 2, 3, 4, 50, 6, 7, 8 ms
  EXPECT_NEAR(v("time", work), 81e-3, 1e-12);
  EXPECT_NEAR(v("time_rank_min", work), 1e-3, 1e-12);
  EXPECT_NEAR(v("time_rank_mean", work), 81e-3 / 8, 1e-12);
  EXPECT_NEAR(v("time_rank_max", work), 50e-3, 1e-12);
  EXPECT_EQ(v("time_rank_max_at", work), 4.0);
  EXPECT_EQ(v("visits", work), 80.0 + 28.0);  // 10 + r per rank
  EXPECT_EQ(v("visits_rank_min", work), 10.0);
  EXPECT_EQ(v("visits_rank_max", work), 17.0);
  EXPECT_EQ(v("visits_rank_max_at", work), 7.0);
  EXPECT_EQ(v("visits_rank_mean", work), 108.0 / 8);
  // rare: 1 visit on every rank but rank 5, which counts 0.
  EXPECT_EQ(v("visits", rare), 7.0);
  EXPECT_EQ(v("visits_rank_min", rare), 0.0);
  EXPECT_EQ(v("visits_rank_max", rare), 1.0);
  EXPECT_EQ(v("visits_rank_max_at", rare), 0.0) << "the lowest rank holding the max";
  for (const auto &m : back.metrics)
    if (m.uniq_name.find("_rank_") != std::string::npos) EXPECT_TRUE(profile::is_rank_statistic(m)) << m.uniq_name;
  // Eight times the ranks, the same size (give or take the digits of the
  // rank counts in the attributes and descriptions).
  hcc::testing::simulate_mode_job(64, LocationMode::Summary, make, bigger.path);
  struct stat a {}, b {};
  ASSERT_EQ(stat(file.path.c_str(), &a), 0);
  ASSERT_EQ(stat(bigger.path.c_str(), &b), 0);
  EXPECT_LE(b.st_size, a.st_size + 512) << a.st_size << " vs " << b.st_size;
}
