// hcc runtime — the time of untimed call paths (see untimed_time.hpp).
#include "untimed_time.hpp"

#include <cstddef>

namespace hcc::rt {

void give_untimed_their_time(const std::vector<int> &parent, const std::vector<bool> &untimed,
                             const std::vector<uint64_t> &own_ticks, std::vector<uint64_t> &incl) {
  const std::size_t n = parent.size();
  // The nearest timed node at or above each node (-1: none, a root's
  // untimed chain, whose samples are not scaled).
  std::vector<int> timed_above(n, -1);
  for (std::size_t i = 0; i < n; ++i)
    timed_above[i] = !untimed[i] ? int(i) : parent[i] >= 0 ? timed_above[std::size_t(parent[i])] : -1;
  // Per timed node: its room (its inclusive time less that of the timed
  // nodes whose nearest timed node above is it) and what its untimed part
  // would take.
  std::vector<int64_t> room(n, 0);
  std::vector<uint64_t> wanted(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int up = parent[i] >= 0 ? timed_above[std::size_t(parent[i])] : -1;
    if (!untimed[i]) {
      room[i] += int64_t(incl[i]);
      if (up >= 0) room[std::size_t(up)] -= int64_t(incl[i]);
    } else if (up >= 0) {
      wanted[std::size_t(up)] += own_ticks[i];
    }
  }
  // Children after parents: one backward pass finishes every child first.
  std::vector<uint64_t> children(n, 0);
  for (std::size_t i = n; i-- > 0;) {
    if (untimed[i]) {
      uint64_t own = own_ticks[i];
      const int up = timed_above[i];
      if (up >= 0 && wanted[std::size_t(up)] > 0 && int64_t(wanted[std::size_t(up)]) > room[std::size_t(up)]) {
        const double fit = room[std::size_t(up)] > 0 ? double(room[std::size_t(up)]) / double(wanted[std::size_t(up)]) : 0.0;
        own = uint64_t(double(own) * fit);
      }
      incl[i] = own + children[i];
    }
    if (parent[i] >= 0) children[std::size_t(parent[i])] += incl[i];
  }
}

}  // namespace hcc::rt
