// hcc runtime — a timed function's time off the CPU (off_cpu.hpp).
#include "off_cpu.hpp"

#include <cmath>

namespace hcc::rt {

std::vector<OffCpuPart> off_cpu_parts(const std::vector<int> &parent, const std::vector<uint64_t> &incl,
                                      const std::vector<bool> &eligible, const std::vector<uint64_t> &own_cpu_ticks,
                                      const std::vector<uint64_t> &own_samples, double interval_ticks) {
  const size_t n = incl.size();
  std::vector<uint64_t> children(n, 0);
  for (size_t i = 0; i < n; ++i)
    if (parent[i] >= 0) children[size_t(parent[i])] += incl[i];
  // A child whose samples measured more CPU than its exclusive time gives
  // the rest to its parent: samples inside hcc's enter/exit count for the
  // innermost frame, the callee, but part of each pair's time is in the
  // caller's exclusive time (a loop calling a timed one-liner 20 M times
  // has 0.5 s of exclusive time that its own samples hardly see, and was
  // shown 0.38 s off the CPU while it never left it).
  std::vector<uint64_t> cpu = own_cpu_ticks;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t excl = incl[i] > children[i] ? incl[i] - children[i] : 0;
    if (parent[i] >= 0 && own_cpu_ticks[i] > excl) cpu[size_t(parent[i])] += own_cpu_ticks[i] - excl;
  }
  // The noise: a node's exclusive time is its wall time less its
  // children's, and a child that is not timed (a sampled frame, a counted
  // call) has the time of its samples, so their error is in it too. Count
  // their samples, down to the next timed frames (nodes come parents first).
  std::vector<double> noise_samples(own_samples.begin(), own_samples.end());
  for (size_t i = n; i-- > 0;)
    if (parent[i] >= 0 && !eligible[i]) noise_samples[size_t(parent[i])] += noise_samples[i];
  std::vector<OffCpuPart> out;
  if (interval_ticks <= 0) return out;
  for (size_t i = 0; i < n; ++i) {
    if (!eligible[i] || incl[i] <= children[i]) continue;
    const uint64_t excl = incl[i] - children[i];
    if (excl <= cpu[i]) continue;
    const uint64_t off = excl - cpu[i];
    if (double(off) > 4 * std::sqrt(noise_samples[i] + 1) * interval_ticks) out.push_back({i, off});
  }
  return out;
}

}  // namespace hcc::rt
