// hcc runtime — the seam for metrics beyond time and visits.
//
// Later services (PAPI counters, OpenMP and MPI metrics) register here before
// the first region is entered. Each thread then gives every CCT node that many
// extra uint64 counters (Node::extra()), which the service updates from its own
// hooks; the time/visits hot path never looks at them. The profile builder
// turns counters into profile metrics after `time` and `visits`.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cube/profile.hpp"

namespace hcc::rt {

struct ExtraMetric {
  profile::Metric def;  // as written to the CUBE file
  // true: the counter holds inclusive amounts (deltas between enter and exit,
  // like time), the builder subtracts the children; false: amounts are added
  // to the node where they happen (bytes sent) and are already exclusive.
  bool inclusive_counts = true;
  double scale = 1.0;  // profile value = counter * scale
};

// Returns the counter index, or -1 when called after the first region was
// entered (existing nodes have no room for it).
int register_extra_metric(const ExtraMetric &m);
uint32_t extra_metric_count();
std::vector<ExtraMetric> extra_metrics_snapshot();

// Attributes a service adds to the profile (CUBE <attr>), e.g. which
// counters were measured and how; a later call with the same key replaces
// the value. The builder appends them after its own.
void set_profile_attr(const std::string &key, const std::string &value);
std::vector<std::pair<std::string, std::string>> profile_attrs_snapshot();

// Attributes only the profile this process writes as its own carries
// (finalize(): at exit, on a fatal signal, at MPI_Abort), not the one a
// service builds to merge: an MPI rank's "mpi rank" and "mpi ranks", which
// let hcc-report name the ranks of a job that wrote no profile. "" as value
// removes the key.
void set_own_file_attr(const std::string &key, const std::string &value);
std::vector<std::pair<std::string, std::string>> own_file_attrs_snapshot();

}  // namespace hcc::rt
