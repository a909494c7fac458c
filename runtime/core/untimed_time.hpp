// hcc runtime — the time of call paths hcc did not time, from their samples.
//
// Every run is hybrid (DESIGN.md, "Results must be right"): what is timed is
// exact; what is not — a counted or throttled function's node, a sampled
// path below an instrumented one — gets the CPU time of the samples that
// landed on it, and the nearest timed node above it loses as much of its
// exclusive time. Where those samples stand for more than that exclusive
// time (the CPU clock and the wall clock disagree by a tick), they are all
// scaled down to fit it. So inclusive = exclusive + children holds for
// every node (integer ticks rounded down: no exclusive time is negative),
// measured time is never moved between timed nodes, and an untimed node
// without samples has its children's time only (its own time stays its
// caller's, as count mode always had it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hcc::rt {

// One thread's nodes in creation order (a parent before its children),
// `parent` the index of each one's parent (-1: a root). For untimed nodes
// `own_ticks` is the CPU time of their own samples, in clock ticks, and
// their `incl` is replaced; timed nodes keep their measured `incl`.
void give_untimed_their_time(const std::vector<int> &parent, const std::vector<bool> &untimed,
                             const std::vector<uint64_t> &own_ticks, std::vector<uint64_t> &incl);

}  // namespace hcc::rt
