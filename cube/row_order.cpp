// hcc — the order in which CUBE4 stores call-path rows in N.data.
// CubeLib numbers rows by walking the call tree in document order (children
// in the order they appear in anchor.xml, which for our files is id order):
// depth-first for EXCLUSIVE metrics, "children first, then descend" for
// INCLUSIVE ones. Both walks use explicit stacks because real call trees can
// be deeper than a thread stack likes (deep recursion in the profiled code).
#include <algorithm>
#include <map>
#include <string>

#include "cubex.hpp"

namespace hcc::profile {

std::vector<int> exclusive_row_order(const Profile &p) {
  std::vector<int> order;
  order.reserve(p.cnodes.size());
  walk_preorder(p, [&](int n) { order.push_back(n); });
  return order;
}

std::vector<int> inclusive_row_order(const Profile &p) {
  const auto children = children_of(p);
  std::vector<int> order;
  order.reserve(p.cnodes.size());
  std::vector<int> stack;
  for (int r : roots(p)) {
    order.push_back(r);
    stack.push_back(r);
    // Popping a node emits all of its children at once, then schedules them
    // so the first child's whole subtree is emitted before the second's.
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      const auto &ch = children[static_cast<std::size_t>(n)];
      order.insert(order.end(), ch.begin(), ch.end());
      stack.insert(stack.end(), ch.rbegin(), ch.rend());
    }
  }
  return order;
}

std::vector<int> location_file_order(const Profile &p) {
  const std::size_t nl = p.locations.size();
  auto host_of = [&](int rank) -> std::string {
    const auto r = static_cast<std::size_t>(rank);
    return rank >= 0 && r < p.hosts.size() ? p.hosts[r] : std::string();
  };
  // Hosts are ordered by the lowest rank they run, so the usual layout
  // (ranks packed onto nodes) keeps rank order.
  std::map<std::string, int> lowest_rank;
  for (const Location &l : p.locations) {
    auto it = lowest_rank.emplace(host_of(l.rank), l.rank).first;
    it->second = std::min(it->second, l.rank);
  }
  std::vector<int> host_key(nl);
  for (std::size_t l = 0; l < nl; ++l) host_key[l] = lowest_rank[host_of(p.locations[l].rank)];
  std::vector<int> order(nl);
  for (std::size_t l = 0; l < nl; ++l) order[l] = static_cast<int>(l);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    const Location &x = p.locations[ua], &y = p.locations[ub];
    if (host_key[ua] != host_key[ub]) return host_key[ua] < host_key[ub];
    if (x.rank != y.rank) return x.rank < y.rank;
    return x.thread < y.thread;
  });
  return order;
}

}  // namespace hcc::profile
