// hcc-report — control flow (predecessor lists, runtime/core/cfg.hpp):
// `--cfg` as ompP prints it, `--cfg=dot` / `--cfg=svg` as a graph.
#pragma once

#include <string>

#include "profile.hpp"

namespace hcc::report {

// The call tree, each call path followed by its predecessors:
//   foo (main:1,bar:19)
// region names, counts summed over locations (or of `location` only), the
// parent first, then the others in order of first occurrence. A profile
// without control-flow data gives one line saying so.
std::string cfg_text(const profile::Profile &p, int location = -1);

// Graphviz DOT: the whole program, or (root_region not empty) one layer —
// the first call path of that region and its children. Throws
// std::runtime_error when no call path has that region.
std::string cfg_dot(const profile::Profile &p, const std::string &root_region = "");

}  // namespace hcc::report
