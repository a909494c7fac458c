// hcc — merging the profiles of MPI ranks, with no MPI in sight.
//
// The MPI side (src/mpi_finalize.cpp) only moves bytes: definitions go up a
// binary reduction tree (serialize → send → deserialize → merge_into), the
// unified definitions come back down by broadcast, every rank maps its own
// ids onto them and packs its values, and rank 0 places the packets one rank
// at a time into the final matrix. Keeping every step a pure function lets
// the tests and the benchmark run whole "jobs" in one process.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cube/profile.hpp"

namespace hcc::mpimerge {

// Definitions of one rank or of a subtree of ranks: what travels up the tree.
struct Defs {
  std::vector<profile::Metric> metrics;
  std::vector<profile::Region> regions;
  std::vector<profile::CallNode> cnodes;  // a parent's id is smaller than its child's
};

Defs defs_of(const profile::Profile &p);
std::string serialize(const Defs &d);
Defs deserialize(const std::string &bytes);  // throws std::runtime_error on bad input

// Union of `b` into `a`: a's ids stay, b's new metrics (by unique name),
// regions (by name, linker name, file, lines, paradigm, role) and call
// paths (by parent and region) are appended in b's order.
void merge_into(Defs &a, const Defs &b);

// Call paths renumbered in pre-order (children in id order), as the runtime
// numbers a single process's tree: the definitions every rank receives.
Defs canonical(const Defs &d);

// Where a rank's local ids go in the global definitions (-1: nowhere, which
// cannot happen when `global` came from merging this rank's definitions).
struct Mapping {
  std::vector<int> metric;  // local metric id → global
  std::vector<int> cnode;   // local call path → global
};
Mapping map_local(const Defs &global, const profile::Profile &local);

// One rank's values in global ids: its host name, its threads and, per local
// call path, the global call path and the exclusive value of every global
// metric on every thread. Only what this rank has travels.
std::string pack_values(const profile::Profile &local, const Mapping &m, std::size_t n_global_metrics,
                        const std::string &host);

// A value packet read back (what pack_values wrote), pointing into its
// bytes: rows of nm × threads doubles (metric-major), then the control flow.
struct Packet {
  std::string host;
  std::size_t threads = 0;
  struct Row {
    int cnode;
    const char *values;  // nm * threads doubles, unaligned: read with value()
  };
  struct Pred {
    int cnode, pred;
    const char *counts;  // threads doubles
  };
  std::vector<Row> rows;
  std::vector<Pred> preds;
  bool has_cfg = false;
  static double value(const char *p, std::size_t i) {
    double v;
    std::memcpy(&v, p + i * sizeof v, sizeof v);
    return v;
  }
};
// Throws std::runtime_error on a malformed packet (ids checked against nc).
Packet parse_packet(const std::string &packed, std::size_t nm, std::size_t nc);

// Where a location's values go (HCC_LOCATIONS): every thread (All), threads
// summed per rank (Process), or statistics over ranks (Summary).
enum class LocationMode { All, Process, Summary };
// "all", "process", "summary"; false for anything else.
bool parse_location_mode(const std::string &text, LocationMode *out);
const char *location_mode_name(LocationMode m);

// Process mode: the rank's threads summed into one location ("all threads").
void collapse_threads(profile::Profile &p);

// Rank 0's side: the final profile, filled rank by rank.
class Assembler {
 public:
  // threads_per_rank[r] = number of locations of rank r.
  // Process mode names each rank's one location "all threads".
  Assembler(const Defs &global, const std::vector<int> &threads_per_rank,
            LocationMode mode = LocationMode::All);
  void add(int rank, const std::string &packed);  // throws on a malformed packet
  void add(int rank, const Packet &pk);           // one already read (parse_packet)
  profile::Profile take();  // control-flow lists put parent first
  const profile::Profile &profile() const { return p_; }
  std::size_t matrix_bytes() const;

 private:
  profile::Profile p_;
  std::vector<std::size_t> first_loc_;  // first location id of each rank
};

}  // namespace hcc::mpimerge
