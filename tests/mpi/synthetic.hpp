// hcc tests — synthetic per-rank profiles for the merge tests and benchmark.
#pragma once

#include "cube/profile.hpp"

namespace hcc::testing {

// A rank's profile as the runtime would build it: main → 20 solver
// functions → 5 kernels each, MPI calls under some of them, plus a branch
// that depends on rank % 16 (so ranks' trees differ). `threads` locations.
// Values are deterministic functions of (rank, thread, call path).
profile::Profile synthetic_rank(int rank, int threads);

}  // namespace hcc::testing

#include <cstddef>
#include <functional>

#include "merge/merge.hpp"
#include "merge/stream.hpp"

namespace hcc::testing {

struct JobStats {
  std::size_t max_defs_message = 0;  // largest definitions message up the tree
  std::size_t global_defs = 0;       // the broadcast definitions
  std::size_t max_packet = 0;        // largest value packet of one rank
  std::size_t matrix = 0;            // rank 0's final value matrix
};

// The merge exactly as src/mpi_finalize.cpp runs it over P ranks, in one
// process: definitions up the binary tree (serialised at every hop), the
// canonical definitions "broadcast", every rank's mapping and packet, and
// rank 0's assembly. rank_profile(r) is called twice per rank (definitions,
// then values) instead of keeping all P profiles alive.
profile::Profile simulate_job(int ranks, const std::function<profile::Profile(int)> &rank_profile,
                              JobStats *stats = nullptr);

// The merge of src/mpi_merge.cpp in a location mode (HCC_LOCATIONS), its
// .cubex written to `path`: all/process stream the packets into the file in
// column order (merge/stream.hpp), summary reduces statistics up the binary
// tree. Returns the profile summary.txt would be made of. `hosts(r)` is rank
// r's host name (default: the profile's own).
profile::Profile simulate_mode_job(int ranks, mpimerge::LocationMode mode,
                                   const std::function<profile::Profile(int)> &rank_profile, const std::string &path,
                                   mpimerge::StreamLimits limits = {}, JobStats *stats = nullptr);

}  // namespace hcc::testing
