// hcc runtime — a timed function's time off the CPU, shown as a child.
//
// hcc's clock is the wall clock: a timed function's exclusive time holds
// what it computed and what it waited for (a blocking poll, a lock, a core
// on a busy machine). Its samples, taken on the thread's CPU clock, say how
// much of it was on the CPU. Where the rest is more than sampling noise, it
// becomes a child `<not on CPU>` of that call path: the inclusive time stays
// the wall time, the exclusive time is what the function itself computed,
// and "why is it slow" has its answer in the tree (CPU work, or waiting).
// Noise: k samples of period P measure the CPU time to about sqrt(k) P, so
// only a rest above 4 sqrt(k + 1) P is split off (a function with no sample
// needs four periods, 20 ms at 200 Hz); k counts the samples of its
// children timed by samples too, whose error is in its exclusive time.
// Samples a callee took beyond its own exclusive time (inside hcc's pairs)
// count for its caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hcc::rt {

struct OffCpuPart {
  size_t node;     // the timed node
  uint64_t ticks;  // its time off the CPU, in clock ticks
};

// One thread's nodes in creation order (`parent`: -1 for a root), their
// final inclusive ticks, and for each node whether it may be split (a timed
// function), the CPU ticks and number of the samples on it itself.
std::vector<OffCpuPart> off_cpu_parts(const std::vector<int> &parent, const std::vector<uint64_t> &incl,
                                      const std::vector<bool> &eligible, const std::vector<uint64_t> &own_cpu_ticks,
                                      const std::vector<uint64_t> &own_samples, double interval_ticks);

}  // namespace hcc::rt
