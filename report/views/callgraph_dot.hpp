// hcc-report --callgraph=dot|svg: the function-level call graph as Graphviz
// DOT (svg: rendered by Graphviz's `dot`). One node per function, coloured
// and sized by its time, edges labelled with call counts, nodes clustered by
// source file (MPI, OpenMP and hcc's own regions by paradigm).
#pragma once

#include <string>

#include "profile.hpp"

namespace hcc::report {

struct CallgraphOptions {
  int location = -1;   // -1: all locations summed
  std::string focus;   // non-empty: only this function and its callers, transitively
};

// Throws std::runtime_error when `focus` names no function of the profile.
std::string callgraph_dot(const profile::Profile &p, const CallgraphOptions &opt);

}  // namespace hcc::report
