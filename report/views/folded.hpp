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
// With metric time and `mark`, the frame of a region whose time came from
// samples (text_views/marks.hpp) ends in kFoldedSampledSuffix.
// Throws std::runtime_error naming the metric when the profile lacks it.
std::string folded_text(const hcc::profile::Profile &p, const std::string &metric = "time", int location = -1,
                        bool mark = true);

// The folded-stack mark of a time from samples, in the annotation form
// flame-graph tools know (`_[k]` kernel, `_[i]` inlined, `_[j]` jit, `_[w]`
// waker): flamegraph.pl and inferno strip and colour only those four and
// show any other suffix as part of the name, speedscope shows every name as
// it is, so `foo_[s]` renders everywhere and reads as its own frame.
inline constexpr const char *kFoldedSampledSuffix = "_[s]";

// A region name as one frame of a folded stack: ';' (the frame separator)
// becomes ',', and line breaks become spaces (one stack per line).
std::string folded_frame(const std::string &name);

}  // namespace hcc::report
