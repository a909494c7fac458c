// hcc — the cross-rank merge, in process (wrappers/merge), and the MPI
// section of the summary on merged profiles (text_views/mpi_summary.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "summary.hpp"
#include "merge/merge.hpp"
#include "synthetic.hpp"

using namespace hcc;
using hcc::profile::Profile;

namespace {

std::string path_of(const Profile &p, int c) {
  std::string s;
  for (; c >= 0; c = p.cnodes[c].parent) s = p.regions[p.cnodes[c].region].name + (s.empty() ? "" : "/" + s);
  return s;
}

// (path, metric name) → value, for one location.
std::map<std::pair<std::string, std::string>, double> values_at(const Profile &p, size_t loc) {
  std::map<std::pair<std::string, std::string>, double> out;
  for (size_t c = 0; c < p.cnodes.size(); ++c)
    for (size_t m = 0; m < p.metrics.size(); ++m) {
      double v = p.at(m, c, loc);
      if (v != 0) out[{path_of(p, int(c)), p.metrics[m].uniq_name}] = v;
    }
  return out;
}

TEST(MpiMerge, SerializeRoundTrip) {
  Profile p = hcc::testing::synthetic_rank(3, 2);
  mpimerge::Defs d = mpimerge::deserialize(mpimerge::serialize(mpimerge::defs_of(p)));
  ASSERT_EQ(d.regions.size(), p.regions.size());
  ASSERT_EQ(d.cnodes.size(), p.cnodes.size());
  EXPECT_EQ(d.regions[2].name, p.regions[2].name);
  EXPECT_EQ(d.metrics[3].uniq_name, "bytes_received");
  EXPECT_EQ(d.cnodes.back().parent, p.cnodes.back().parent);
}

TEST(MpiMerge, RejectsBadMessages) {
  EXPECT_THROW(mpimerge::deserialize("garbage"), std::runtime_error);
  std::string s = mpimerge::serialize(mpimerge::defs_of(hcc::testing::synthetic_rank(0, 1)));
  EXPECT_THROW(mpimerge::deserialize(s.substr(0, s.size() - 3)), std::runtime_error);
}

// Every value of every rank and thread arrives at its path, unchanged, for
// a rank count that is not a power of two.
TEST(MpiMerge, JobKeepsEveryValue) {
  const int ranks = 13;
  auto make = [](int r) { return hcc::testing::synthetic_rank(r, 1 + r % 3); };
  Profile merged = hcc::testing::simulate_job(ranks, make);
  ASSERT_NO_THROW(profile::validate(merged));
  size_t loc = 0;
  for (int r = 0; r < ranks; ++r) {
    Profile local = make(r);
    for (size_t t = 0; t < local.nloc(); ++t, ++loc) {
      ASSERT_LT(loc, merged.nloc());
      EXPECT_EQ(merged.locations[loc].rank, r);
      EXPECT_EQ(merged.locations[loc].thread, int(t));
      EXPECT_EQ(values_at(merged, loc), values_at(local, t)) << "rank " << r << " thread " << t;
    }
    EXPECT_EQ(merged.hosts[r], local.hosts[0]);
  }
  EXPECT_EQ(loc, merged.nloc());
  // main + 20 x (solver + 5 kernels + 3 MPI calls) + 13 x (variant + 5 kernels + 1 MPI call)
  EXPECT_EQ(merged.cnodes.size(), 1u + 20 * 9 + 13 * 7);
  // One region per distinct name, whatever order the ranks registered them in.
  std::map<std::string, int> seen;
  for (const auto &reg : merged.regions) EXPECT_EQ(++seen[reg.name], 1) << reg.name;
}

TEST(MpiMerge, CallPathsArePreOrder) {
  Profile merged = hcc::testing::simulate_job(4, [](int r) { return hcc::testing::synthetic_rank(r, 1); });
  for (size_t c = 1; c < merged.cnodes.size(); ++c) {
    int parent = merged.cnodes[c].parent;
    ASSERT_LT(parent, int(c));
    // pre-order: the parent is the previous node or an ancestor of it
    bool ok = false;
    for (int a = int(c) - 1; a >= 0; a = merged.cnodes[a].parent)
      if (a == parent) ok = true;
    EXPECT_TRUE(ok || parent < 0) << c;
  }
}

TEST(MpiMerge, MetricsUnionAcrossRanks) {
  auto make = [](int r) {
    Profile p = hcc::testing::synthetic_rank(r, 1);
    if (r == 1) {  // only rank 1 has an extra counter
      profile::Metric m;
      m.uniq_name = "PAPI_TOT_INS";
      m.dtype = profile::DType::UInt64;
      p.metrics.push_back(m);
      p.excl.emplace_back(p.cnodes.size() * p.nloc(), 5.0);
    }
    return p;
  };
  Profile merged = hcc::testing::simulate_job(3, make);
  int k = merged.metric_index("PAPI_TOT_INS");
  ASSERT_GE(k, 0);
  EXPECT_EQ(merged.at(k, 0, 1), 5.0);
  EXPECT_EQ(merged.at(k, 0, 0), 0.0);
  EXPECT_EQ(merged.at(k, 0, 2), 0.0);
}

// Control flow (Profile::preds): every rank's predecessor counts arrive at
// the same (call path, predecessor) pair by path, on that rank's locations;
// a rank without control-flow data (HCC_CFG=off) adds nothing.
TEST(MpiMerge, PredecessorListsArriveByPathOnEveryRanksLocations) {
  auto make = [](int r) {
    Profile p = hcc::testing::synthetic_rank(r, 2);
    if (r == 1) return p;  // this rank ran with HCC_CFG=off
    p.preds.assign(p.cnodes.size(), {});
    int previous_child_of_main = -1;
    for (size_t c = 0; c < p.cnodes.size(); ++c) {
      const int parent = p.cnodes[c].parent;
      if (parent < 0) continue;
      // a sibling first, to see the parent moved to the front
      if (parent == 0 && previous_child_of_main >= 0)
        p.preds[c].push_back({previous_child_of_main, {double(10 * r + 7), 0.0}});
      p.preds[c].push_back({parent, {double(r + 1), double(r + 2)}});
      if (parent == 0) previous_child_of_main = int(c);
    }
    return p;
  };
  Profile merged = hcc::testing::simulate_job(3, make);
  ASSERT_NO_THROW(profile::validate(merged));
  ASSERT_EQ(merged.preds.size(), merged.cnodes.size());
  ASSERT_EQ(merged.nloc(), 6u);
  for (int r : {0, 2}) {
    Profile local = make(r);
    for (size_t c = 0; c < local.cnodes.size(); ++c) {
      if (local.cnodes[c].parent < 0) continue;
      int g = -1;
      for (size_t k = 0; k < merged.cnodes.size(); ++k)
        if (path_of(merged, int(k)) == path_of(local, int(c))) g = int(k);
      ASSERT_GE(g, 0);
      const auto &list = merged.preds[size_t(g)];
      ASSERT_FALSE(list.empty());
      EXPECT_EQ(list[0].callpath, merged.cnodes[size_t(g)].parent) << "the parent comes first";
      for (const auto &pr : local.preds[c]) {
        const std::string pred_path = path_of(local, pr.callpath);
        const auto it = std::find_if(list.begin(), list.end(),
                                     [&](const profile::Predecessor &x) { return path_of(merged, x.callpath) == pred_path; });
        ASSERT_NE(it, list.end()) << path_of(local, int(c)) << " <- " << pred_path;
        EXPECT_EQ(it->count[size_t(2 * r)], pr.count[0]);
        EXPECT_EQ(it->count[size_t(2 * r + 1)], pr.count[1]);
        EXPECT_EQ(it->count[2], 0.0) << "rank 1 kept no control flow";
        EXPECT_EQ(it->count[3], 0.0);
      }
    }
  }
}

TEST(MpiMerge, AssemblerRejectsWrongThreadCount) {
  Profile p = hcc::testing::synthetic_rank(0, 2);
  mpimerge::Defs g = mpimerge::canonical(mpimerge::defs_of(p));
  mpimerge::Assembler as(g, {1});
  std::string packet = mpimerge::pack_values(p, mpimerge::map_local(g, p), g.metrics.size(), "h");
  EXPECT_THROW(as.add(0, packet), std::runtime_error);
  EXPECT_THROW(as.add(0, packet.substr(0, 10)), std::runtime_error);
}

}  // namespace

namespace {

// Lines of `section` (up to the next blank line) whose first word is a
// number: the rows of the per-rank table.
size_t count_rank_rows(const std::string &text, const std::string &section) {
  size_t at = text.find(section), n = 0;
  if (at == std::string::npos) return 0;
  size_t pos = text.find('\n', at) + 1;
  while (pos < text.size() && text[pos] != '\n') {
    size_t end = text.find('\n', pos);
    std::string line = text.substr(pos, end - pos);
    size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && isdigit(static_cast<unsigned char>(line[first]))) ++n;
    pos = end + 1;
  }
  return n;
}

TEST(MpiSummary, SectionFromMpiRegions) {
  Profile merged = hcc::testing::simulate_job(3, [](int r) { return hcc::testing::synthetic_rank(r, 1); });
  const std::string text = profile::mpi_summary_text(merged);
  EXPECT_NE(text.find("MPI TIME PER RANK"), std::string::npos);
  EXPECT_EQ(count_rank_rows(text, "MPI TIME PER RANK"), 3u);
  EXPECT_NE(text.find("TOP 10 MPI CALL PATHS BY TIME"), std::string::npos);
  EXPECT_NE(text.find("TOP 10 MPI CALL PATHS BY BYTES SENT"), std::string::npos);
  EXPECT_NE(text.find("main \u2192 solver_0 \u2192 MPI_Send"), std::string::npos);
  EXPECT_NE(text.find("\nMPI_Allreduce "), std::string::npos);
  // summary.txt carries it too
  EXPECT_NE(profile::summary_text(merged).find("MPI CALLS OVER RANKS"), std::string::npos);

  // No MPI regions: no section.
  Profile plain = hcc::testing::synthetic_rank(0, 1);
  for (auto &r : plain.regions) r.paradigm = "compiler";
  EXPECT_EQ(profile::mpi_summary_text(plain), "");
}

TEST(MpiSummary, ManyRanksShowTheEnds) {
  Profile merged = hcc::testing::simulate_job(40, [](int r) { return hcc::testing::synthetic_rank(r, 1); });
  const std::string text = profile::mpi_summary_text(merged);
  EXPECT_NE(text.find("(40 ranks: the 10 with most and the 10 with least MPI time)"), std::string::npos);
  EXPECT_EQ(count_rank_rows(text, "MPI TIME PER RANK"), 20u);
}

}  // namespace
