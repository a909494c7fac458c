// hcc runtime — turning the per-thread trees into one profile::Profile.
//
// Kept apart from writing on purpose: with MPI, every rank builds its local
// profile, rank 0 gathers and merges them, and only then writes.
#pragma once

#include "cube/profile.hpp"

namespace hcc::rt {

enum class BuildFor {
  Final,     // the end of the run (or of the rank): services bring their open frames up to date
  Snapshot,  // HCC_SNAPSHOT, from a thread that measures nothing while the others run on:
             // services are not asked (their before_build may write other threads' data)
};

// Merges every thread of this process into one call tree (a node is
// (parent, region), so threads' trees unify; roots may differ per thread),
// one location per thread. Frames still open count up to now; the threads'
// state is not changed. Call paths are numbered in pre-order.
profile::Profile build_local_profile(BuildFor what = BuildFor::Final);

// The CUBE paradigm ("compiler", "user", "openmp", "mpi", "measurement")
// and role ("function", "loop", "parallel", …) of a region kind
// (HCC_KIND_*), as the profile writes them; the tracer maps the same
// words onto OTF2's enums.
const char *region_paradigm(int kind);
const char *region_role(int kind);

}  // namespace hcc::rt
