// hcc-report — `--folded`: the profile as folded stacks (one line per call
// path, "main;solve;MPI_Allreduce 1234"), the input of flamegraph.pl,
// speedscope and inferno.
#pragma once

#include <string>

#include "profile.hpp"

namespace hcc::report {

// One line per call path with a nonzero value: the region names from the
// root down, joined by ';', a space, and the path's EXCLUSIVE value of
// `metric` as an integer — microseconds for time (any time unit), the plain
// value otherwise — summed over locations, or for `location` >= 0 only.
// Throws std::runtime_error naming the metric when the profile lacks it.
std::string folded_text(const hcc::profile::Profile &p, const std::string &metric = "time", int location = -1);

// A region name as one frame of a folded stack: ';' (the frame separator)
// becomes ',', and line breaks become spaces (one stack per line).
std::string folded_frame(const std::string &name);

}  // namespace hcc::report
