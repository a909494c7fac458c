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
  std::vector<OffCpuPart> out;
  if (interval_ticks <= 0) return out;
  for (size_t i = 0; i < n; ++i) {
    if (!eligible[i] || incl[i] <= children[i]) continue;
    const uint64_t excl = incl[i] - children[i];
    if (excl <= own_cpu_ticks[i]) continue;
    const uint64_t off = excl - own_cpu_ticks[i];
    if (double(off) > 4 * std::sqrt(double(own_samples[i]) + 1) * interval_ticks) out.push_back({i, off});
  }
  return out;
}

}  // namespace hcc::rt
