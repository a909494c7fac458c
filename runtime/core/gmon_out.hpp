// hcc runtime — HCC_GPROF=1: this process's profile also as gmon.out, the
// file GNU gprof reads (`gprof ./app DIR/gmon.out`): call-graph arcs with our
// visit counts per caller→callee function pair, and a histogram that gives
// each function exactly its exclusive time. See runtime/core/README.md, "gmon.out".
#pragma once

#include "cube/profile.hpp"

namespace hcc::rt {

// Writes gmon.out (gmon.out.rank-<r> for an MPI rank, gmon.out.fork-<pid> in
// a fork child) into the output directory when HCC_GPROF=1. `local` is this
// process's profile (all its threads), as build_local_profile() returns it;
// the recursive arcs come from the threads' fold links. Never throws: a
// failure is one line on stderr.
void write_gmon_if_requested(const profile::Profile &local) noexcept;

}  // namespace hcc::rt
