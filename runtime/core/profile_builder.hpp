// hcc runtime — turning the per-thread trees into one profile::Profile.
//
// Kept apart from writing on purpose: with MPI, every rank builds its local
// profile, rank 0 gathers and merges them, and only then writes.
#pragma once

#include "cube/profile.hpp"

namespace hcc::rt {

// Merges every thread of this process into one call tree (a node is
// (parent, region), so threads' trees unify; roots may differ per thread),
// one location per thread. Frames still open count up to now; the threads'
// state is not changed. Call paths are numbered in pre-order.
profile::Profile build_local_profile();

}  // namespace hcc::rt
