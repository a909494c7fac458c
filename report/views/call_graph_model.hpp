// hcc-report — the function-level call graph both `--gprof` and
// `--callgraph` draw: one entry per region, arcs per caller→callee region
// pair, all computed from the call-context tree. Because recursion is folded
// (runtime/core/README.md), a region appears at most once on any call path,
// so a region's inclusive time is the sum over its call paths, and an arc's
// time is the real time spent below that caller, not a share by call counts.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "profile.hpp"

namespace hcc::report {

struct CgFunction {
  int region = -1;
  double self = 0;          // exclusive seconds
  double total = 0;         // inclusive seconds (outermost call paths)
  double calls = 0;         // visits that came from a caller (not recursive)
  double recursive = 0;     // recursive visits (gprof's "+N")
  bool spontaneous = false; // some call path of it is a root
};

struct CgArc {
  double self = 0;      // the callee's exclusive seconds under this caller
  double children = 0;  // the time below the callee under this caller
  double calls = 0;     // non-recursive calls
};

struct CallGraph {
  std::vector<CgFunction> functions;    // one per region that occurs
  std::map<int, int> by_region;         // region id -> index in functions
  std::map<std::pair<int, int>, CgArc> arcs;  // (caller region, callee region)
  // Recursive calls (caller region, callee region) -> count: A -> A for
  // direct recursion, B -> A for A -> B -> A'. Paired through the metric
  // `recursive_calls` (the call path that made them): its one ancestor (or
  // itself) with recursive visits is the callee. What cannot be paired so
  // (several candidates, or an older profile without the metric) is shown as
  // the callee's own self-recursion.
  std::map<std::pair<int, int>, double> recursive_arcs;
  double total_time = 0;                // the roots' inclusive time
};

// From the profile, for one location or all (location -1): time from metric
// `time`, calls from `visits`, recursive calls from `recursive_visits` when
// the profile has it (hcc writes it when some call path recursed).
CallGraph build_call_graph(const profile::Profile &p, int location);

}  // namespace hcc::report
