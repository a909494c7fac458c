#include "call_graph_model.hpp"

namespace hcc::report {

CallGraph build_call_graph(const profile::Profile &p, int location) {
  CallGraph g;
  const int tm = p.metric_index("time"), vm = p.metric_index("visits"), rm = p.metric_index("recursive_visits");
  const int cm = p.metric_index("recursive_calls");
  const size_t nloc = p.nloc();
  auto sum = [&](int m, const std::vector<double> &v, size_t c) {
    double s = 0;
    if (m < 0) return s;
    for (size_t l = 0; l < nloc; ++l)
      if (location < 0 || size_t(location) == l) s += v[c * nloc + l];
    return s;
  };
  const std::vector<double> none;
  const std::vector<double> incl_t = tm >= 0 ? profile::inclusive(p, size_t(tm)) : none;
  auto excl = [&](size_t c) { return tm >= 0 ? sum(tm, p.excl[size_t(tm)], c) : 0.0; };
  auto incl = [&](size_t c) { return tm >= 0 ? sum(tm, incl_t, c) : 0.0; };
  auto visits = [&](size_t c) { return vm >= 0 ? sum(vm, p.excl[size_t(vm)], c) : 0.0; };
  auto rec = [&](size_t c) { return rm >= 0 ? sum(rm, p.excl[size_t(rm)], c) : 0.0; };
  auto rec_calls = [&](size_t c) { return cm >= 0 ? sum(cm, p.excl[size_t(cm)], c) : 0.0; };

  auto fn = [&](int region) -> CgFunction & {
    auto [it, added] = g.by_region.emplace(region, int(g.functions.size()));
    if (added) g.functions.push_back(CgFunction{region});
    return g.functions[size_t(it->second)];
  };
  // A region nested in itself (possible in foreign profiles, never in
  // hcc's): only its outermost call paths count for its inclusive time.
  std::vector<int> open(p.regions.size(), 0);
  profile::walk_preorder(
      p,
      [&](int ci) {
        const size_t c = size_t(ci);
        const int r = p.cnodes[c].region;
        const double v = visits(c), x = excl(c), in = incl(c), rv = rec(c);
        const int parent = p.cnodes[c].parent;
        if (v == 0 && in == 0) {
          ++open[size_t(r)];
          return;
        }
        CgFunction &f = fn(r);
        f.self += x;
        if (open[size_t(r)] == 0) f.total += in;
        f.calls += v - rv;
        f.recursive += rv;
        if (parent < 0) {
          f.spontaneous = true;
          g.total_time += in;
        } else {
          CgArc &a = g.arcs[{p.cnodes[size_t(parent)].region, r}];
          a.self += x;
          a.children += in - x;
          a.calls += v - rv;
        }
        ++open[size_t(r)];
      },
      [&](int ci) { --open[size_t(p.cnodes[size_t(ci)].region)]; });

  // Recursive arcs: pair each call path's recursive calls with the one call
  // path on its chain (itself included) that received recursive visits.
  // Per call path, how many call paths on its chain (itself included) have
  // recursive visits and the one nearest the root: parents come before their
  // children, so one forward pass computes both from the parent's, and a
  // chain 10^5 deep costs linear time, not a walk per call path.
  std::map<int, double> paired;  // callee region -> recursive calls paired
  std::vector<int> on_chain(p.cnodes.size(), 0), top(p.cnodes.size(), -1);
  for (size_t c = 0; c < p.cnodes.size(); ++c) {
    const int parent = p.cnodes[c].parent;
    if (parent >= 0) {
      on_chain[c] = on_chain[size_t(parent)];
      top[c] = top[size_t(parent)];
    }
    if (rec(c) > 0) {
      ++on_chain[c];
      if (top[c] < 0) top[c] = int(c);
    }
    const double n = rec_calls(c);
    if (n <= 0 || on_chain[c] != 1) continue;
    const int callee = p.cnodes[size_t(top[c])].region;
    g.recursive_arcs[{p.cnodes[c].region, callee}] += n;
    paired[callee] += n;
  }
  for (const CgFunction &f : g.functions) {
    const double rest = f.recursive - paired[f.region];
    if (rest > 0.5) g.recursive_arcs[{f.region, f.region}] += rest;
  }
  return g;
}

}  // namespace hcc::report
