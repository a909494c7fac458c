// hcc — rank 0's side of the merge in the modes that keep locations
// (HCC_LOCATIONS=all|process): the packets of all ranks go into the .cubex
// as they arrive, a block of data columns at a time (cube/cubex_stream.hpp),
// so rank 0 holds one block (metrics × call paths × block columns), the
// statistics over ranks (metrics × call paths) and, only while it stays
// small, the whole profile for summary.txt — never a matrix that grows with
// the number of ranks beyond `keep_bytes`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cube/cubex_stream.hpp"
#include "merge.hpp"
#include "rank_stats.hpp"

namespace hcc::mpimerge {

struct StreamLimits {
  std::size_t block_bytes = std::size_t(32) << 20;  // one block of columns
  std::size_t keep_bytes = std::size_t(64) << 20;   // the whole matrix kept for summary.txt up to this
};

// The order in which rank 0 takes the ranks' packets: the file's column
// order, hosts in order of their lowest rank, then rank (hosts[r] = rank r's).
std::vector<int> column_order(const std::vector<std::string> &hosts);

class StreamAssembler {
 public:
  // hosts[r], threads[r]: rank r's host name and number of locations (1 in
  // process mode). Locations are laid out as the file wants them (by host
  // in order of its lowest rank, then rank, then thread).
  StreamAssembler(const Defs &global, const std::vector<int> &threads, const std::vector<std::string> &hosts,
                  LocationMode mode, StreamLimits limits = {});
  ~StreamAssembler();

  // The ranks in the order their packets must come: data-column order.
  const std::vector<int> &order() const { return order_; }
  // Writes into `fd` (an empty file) from now on; without it packets are
  // only taken in (nowhere to write: the others must still be drained).
  void open(int fd, const std::string &shown, const std::string &machine);
  void add(int rank, const std::string &packed);  // in order(); throws on a bad packet
  // Ends the file with these attributes and returns the profile summary.txt
  // is made of: the whole profile when it stayed within keep_bytes, else the
  // statistics over ranks (RankStats::summary_profile).
  profile::Profile finish(const std::vector<std::pair<std::string, std::string>> &attrs);

  std::size_t columns() const { return shape_.locations.size(); }
  std::size_t block_columns() const { return width_; }
  bool keeps_whole_profile() const { return bool(whole_); }

 private:
  void flush();

  Defs global_;
  LocationMode mode_;
  profile::Profile shape_;               // definitions + locations in file order
  std::vector<int> order_;               // ranks in column order
  std::vector<std::size_t> first_col_;   // per rank
  std::vector<int> threads_;
  std::unique_ptr<profile::CubexStream> out_;
  std::unique_ptr<Assembler> whole_;
  RankStats stats_;
  std::size_t width_ = 1;                // columns per block
  std::size_t block_first_ = 0, block_used_ = 0;
  std::vector<double> block_;                               // [(k * nm + m) * nc + c]
  std::vector<std::vector<profile::Predecessor>> preds_;    // per call path, counts of width_
  bool any_preds_ = false;
  std::size_t next_ = 0;  // index into order_
};

}  // namespace hcc::mpimerge
