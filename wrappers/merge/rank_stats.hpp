// hcc — statistics over ranks per call path (HCC_LOCATIONS=summary): for
// every metric, the sum, min, mean and max over the job's ranks of each call
// path's exclusive value (a rank's threads summed; a rank without the path
// counts 0) and the rank holding the max. Its size is metrics × call paths,
// whatever the number of ranks: the summary mode reduces it up the binary
// tree, and rank 0 of the other modes keeps one beside the streamed file for
// summary.txt when the whole matrix would not fit.
#pragma once

#include <string>
#include <vector>

#include "merge.hpp"

namespace hcc::mpimerge {

class RankStats {
 public:
  RankStats(std::size_t n_metrics, std::size_t n_cnodes);
  void add(int rank, const Packet &pk);  // one rank's packet (global ids)
  void merge(const RankStats &other);    // disjoint sets of ranks
  std::string serialize() const;
  static RankStats deserialize(const std::string &bytes, std::size_t n_metrics, std::size_t n_cnodes);  // throws

  // The profile of the statistics: one location ("all N ranks"), every
  // metric of `global` with its sum over ranks, then per metric four more
  // (rank_stat_metrics): <name>_rank_min, _rank_mean, _rank_max (exclusive
  // values; their inclusive sums mean nothing) and _rank_max_at (the rank).
  // Control flow summed over ranks.
  profile::Profile summary_profile(const Defs &global, int nranks) const;
  std::size_t ranks() const { return ranks_; }

 private:
  std::size_t nm_, nc_;
  std::size_t ranks_ = 0;
  std::vector<double> sum_, min_, max_;       // [m * nc + c]
  std::vector<std::int32_t> max_at_;          // rank of max_
  std::vector<std::uint32_t> seen_;           // ranks that had the path
  std::vector<std::vector<std::pair<int, double>>> preds_;  // per call path: (predecessor, count)
};

}  // namespace hcc::mpimerge
