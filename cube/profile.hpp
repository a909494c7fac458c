// hcc — the in-memory profile: what the runtime hands to the CUBE4 writer and
// what the reader gives back to hcc-report and the tests. It is deliberately
// plain data: definitions in dense id order plus one value matrix per metric.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace hcc::profile {

// Value type of a metric; the model stores every value as a double.
// Double and UInt64 are what the runtime produces. The others appear when
// reading foreign (Score-P) files: Int64 is a signed count, MinDouble and
// MaxDouble aggregate over a subtree with min/max instead of a sum.
enum class DType { Double, UInt64, Int64, MinDouble, MaxDouble };

// How CUBE stores a metric's rows. The model itself always keeps EXCLUSIVE
// values; the writer converts for INCLUSIVE metrics (Score-P's `time`).
enum class CubeType { Exclusive, Inclusive };

struct Metric {
  std::string uniq_name;  // "time", "visits", "bytes_sent", "PAPI_TOT_INS"
  std::string disp_name;  // "Time", "Visits", ...
  std::string uom;        // "sec", "occ", "bytes", "#"
  std::string descr;
  std::string url;
  DType dtype = DType::Double;
  CubeType cube_type = CubeType::Exclusive;
  int parent = -1;  // metric id of the parent in the metric tree, or -1
};

struct Region {
  std::string name;     // readable, demangled
  std::string mangled;  // may be empty
  std::string file;     // source file ("" when unknown)
  int begin_line = -1;
  int end_line = -1;
  std::string paradigm = "compiler";  // compiler, user, openmp, mpi, measurement
  std::string role = "function";      // function, loop, parallel, barrier, artificial ...
  std::string descr;
};

// Count mode (runtime/core/README.md, "Count mode"): a region whose visits
// are counted exactly on their call path but which reads no clock. Its own
// (exclusive) time is the CPU time of the samples that landed in it, taken
// out of the exclusive time of the nearest timed call path above it (0
// without sampling: its running time is then its caller's); its inclusive
// time is that plus its children's. Marked by this exact <descr> text, a
// standard CUBE element that CubeLib shows and every merge (threads, ranks,
// hcc-report diff) carries with the region. Profiles of hcc before sampling
// was the default carry the older text, read the same.
inline constexpr const char *kCountedRegionDescr =
    "hcc count mode: visits counted exactly, no clock read; its time is the CPU time of its samples";
inline constexpr const char *kCountedRegionDescrBefore =
    "hcc count mode: visits counted exactly, no clock read; its time is its caller's";
inline bool is_counted(const Region &r) { return r.descr == kCountedRegionDescr || r.descr == kCountedRegionDescrBefore; }

// Throttling (runtime/core/auto_throttle.cpp, HCC_THROTTLE): a function timed
// until it proved cheap and frequent, then counted like a counted region
// (every visit exact, no clock). Its time is the CPU time of its samples,
// as a counted region's.
inline constexpr const char *kThrottledRegionDescr =
    "hcc throttled: timed no more once cheap and frequent, visits counted exactly; its time is the CPU time of its "
    "samples";
// Its count stopped as well (HCC_COUNT_STOP): counting it cost more than it
// told, so its visits are the count at the stop, a lower bound.
inline constexpr const char *kCountStoppedRegionDescr =
    "hcc throttled, count stopped: timed no more once cheap and frequent, counted until counting cost more than 2% "
    "of the run, so its visits are a lower bound; its time is the CPU time of its samples";
inline bool visits_lower_bound(const Region &r) { return r.descr == kCountStoppedRegionDescr; }
inline bool is_throttled(const Region &r) { return r.descr == kThrottledRegionDescr || visits_lower_bound(r); }

// Whether a call path of region `r` has its time from samples rather than
// from hcc's clock (sampled functions and inlined calls, counted and
// throttled regions): every view marks such a time. A counted region of a
// profile written before sampling was the default (the older descr) is not:
// its exclusive time is 0 and its time really is its caller's.
inline bool time_from_samples(const Region &r) {
  return r.paradigm == "sampling" || r.descr == kCountedRegionDescr || is_throttled(r);
}

// HCC_LOCATIONS=summary (wrappers/merge/rank_stats.hpp): per metric, four
// more metrics whose descr starts with this text hold the min, mean and max
// over ranks of each call path's exclusive value and the rank of the max.
// Views give them no columns of their own (their inclusive sums mean nothing).
inline constexpr const char *kRankStatDescrPrefix = "hcc statistic over ranks: ";
inline bool is_rank_statistic(const Metric &m) { return m.descr.rfind(kRankStatDescrPrefix, 0) == 0; }

struct CallNode {
  int region = -1;
  int parent = -1;  // -1 for a root; a parent's id is always smaller than its child's
};

struct Location {
  std::string name;  // "thread 0"
  int rank = 0;      // process (MPI rank; 0 without MPI)
  int thread = 0;    // thread number inside the process
};

// Control flow (runtime/core/cfg.hpp): call path `callpath` ran just before
// an entry of the call path that owns this entry, count[l] times on
// location l. A predecessor is the parent or a sibling (with folded
// recursion also the node itself or, A -> B -> A', a child).
struct Predecessor {
  int callpath = -1;
  std::vector<double> count;  // per location (size nloc())
};

struct Profile {
  std::vector<std::pair<std::string, std::string>> attrs;  // CUBE <attr key value>
  std::string machine = "hcc";
  std::vector<std::string> hosts;  // host name per rank (index = rank)
  std::vector<Metric> metrics;
  std::vector<Region> regions;
  std::vector<CallNode> cnodes;  // dense ids, parents before children
  std::vector<Location> locations;  // dense ids; Id = column in every data row
  // excl[m][c * locations.size() + l]: EXCLUSIVE value of metric m at call
  // path c on location l. Counts are whole numbers stored exactly (< 2^53).
  std::vector<std::vector<double>> excl;
  // preds[c]: predecessors of call path c, the parent first, then the others
  // in order of first occurrence. Empty (no entry at all) when the profile
  // has no control-flow data: HCC_CFG=off, or not written by hcc. Travels in
  // the .cubex as the member `hcc_cfg.txt` (cubex_write.cpp), which CubeLib
  // ignores.
  std::vector<std::vector<Predecessor>> preds;

  std::size_t nloc() const { return locations.size(); }
  double &at(std::size_t m, std::size_t c, std::size_t l) { return excl[m][c * nloc() + l]; }
  double at(std::size_t m, std::size_t c, std::size_t l) const { return excl[m][c * nloc() + l]; }
  int metric_index(const std::string &uniq_name) const;  // -1 when absent
};

// children[c] = call paths whose parent is c, in id order; roots under index -1
// are returned separately by roots().
std::vector<std::vector<int>> children_of(const Profile &p);
std::vector<int> roots(const Profile &p);

// Seconds per unit of a time metric's uom: "sec" (ours, Score-P's), "ms",
// "us", "ns" and their "msec"-style spellings; 1 for anything else.
double seconds_per_unit(const std::string &uom);

// Depth-first pre-order walk of every tree (roots in id order, children in id
// order): enter(c) when a call path is reached, leave(c) once its subtree is
// done. Iterative, so a deep recursion in the profiled program never becomes
// a deep recursion in the tools.
void walk_preorder(const Profile &p, const std::function<void(int)> &enter,
                   const std::function<void(int)> &leave = {});

// Inclusive values of metric m (same layout as excl): the subtree sums.
std::vector<double> inclusive(const Profile &p, std::size_t m);

// Checks structural invariants (dense ids, parents before children, value
// matrix sizes); throws std::runtime_error naming the first violation.
void validate(const Profile &p);
// The same without the value matrices and predecessor lists: what the
// anchor needs (the streamed writer, cubex_stream.hpp, holds no matrix).
void validate_definitions(const Profile &p);

}  // namespace hcc::profile
