// hcc — queries and invariants of the in-memory profile model.
#include "profile.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

namespace hcc::profile {

int Profile::metric_index(const std::string &uniq_name) const {
  for (std::size_t m = 0; m < metrics.size(); ++m)
    if (metrics[m].uniq_name == uniq_name) return static_cast<int>(m);
  return -1;
}

std::vector<std::vector<int>> children_of(const Profile &p) {
  std::vector<std::vector<int>> children(p.cnodes.size());
  for (std::size_t c = 0; c < p.cnodes.size(); ++c) {
    const int parent = p.cnodes[c].parent;
    // Out-of-range parents are validate()'s business; skipping them here keeps
    // this usable on half-built profiles (e.g. in error messages).
    if (parent >= 0 && static_cast<std::size_t>(parent) < p.cnodes.size())
      children[static_cast<std::size_t>(parent)].push_back(static_cast<int>(c));
  }
  return children;
}

std::vector<int> roots(const Profile &p) {
  std::vector<int> r;
  for (std::size_t c = 0; c < p.cnodes.size(); ++c)
    if (p.cnodes[c].parent < 0) r.push_back(static_cast<int>(c));
  return r;
}

std::vector<double> inclusive(const Profile &p, std::size_t m) {
  if (m >= p.metrics.size() || m >= p.excl.size())
    throw std::out_of_range("inclusive(): no metric with id " + std::to_string(m));
  std::vector<double> incl = p.excl[m];
  const std::size_t nl = p.nloc();
  if (incl.size() != p.cnodes.size() * nl)
    throw std::runtime_error("inclusive(): value matrix of metric '" + p.metrics[m].uniq_name +
                             "' has " + std::to_string(incl.size()) + " values, expected " +
                             std::to_string(p.cnodes.size() * nl));
  const DType t = p.metrics[m].dtype;
  // Parents have smaller ids than their children, so one backward sweep folds
  // every finished subtree into its parent.
  for (std::size_t c = p.cnodes.size(); c-- > 0;) {
    const int parent = p.cnodes[c].parent;
    if (parent < 0) continue;
    double *dst = &incl[static_cast<std::size_t>(parent) * nl];
    const double *src = &incl[c * nl];
    for (std::size_t l = 0; l < nl; ++l) {
      if (t == DType::MinDouble)
        dst[l] = std::min(dst[l], src[l]);
      else if (t == DType::MaxDouble)
        dst[l] = std::max(dst[l], src[l]);
      else
        dst[l] += src[l];
    }
  }
  return incl;
}

namespace {
[[noreturn]] void invalid(const std::string &what) {
  throw std::runtime_error("invalid profile: " + what);
}
}  // namespace

void validate_definitions(const Profile &p) {
  const std::size_t nm = p.metrics.size(), nr = p.regions.size(), nc = p.cnodes.size();
  if (p.metrics.empty()) invalid("no metrics");
  if (p.locations.empty()) invalid("no locations");
  // Names through a hash map and the tree through one memoized walk: a
  // file may hold 10^5 metrics or a metric chain as deep, and both checks
  // must stay linear.
  std::unordered_map<std::string_view, std::size_t> first_use;
  first_use.reserve(nm);
  for (std::size_t m = 0; m < nm; ++m) {
    const Metric &met = p.metrics[m];
    if (met.uniq_name.empty()) invalid("metric " + std::to_string(m) + " has no uniq_name");
    const auto [it, fresh] = first_use.emplace(met.uniq_name, m);
    if (!fresh)
      invalid("metric uniq_name '" + met.uniq_name + "' used twice (ids " + std::to_string(it->second) +
              " and " + std::to_string(m) + ")");
    if (met.parent < -1 || met.parent >= static_cast<int>(nm) || met.parent == static_cast<int>(m))
      invalid("metric '" + met.uniq_name + "' has bad parent " + std::to_string(met.parent));
  }
  // A cycle in the metric tree would make the writer recurse forever. Walk
  // up from each metric until a root or a metric already known to reach
  // one; meeting the current walk again is a cycle.
  enum : char { kUnseen, kOnWalk, kReachesRoot };
  std::vector<char> state(nm, kUnseen);
  std::vector<std::size_t> walk;
  for (std::size_t m = 0; m < nm; ++m) {
    walk.clear();
    for (int up = static_cast<int>(m); up >= 0 && state[static_cast<std::size_t>(up)] != kReachesRoot;
         up = p.metrics[static_cast<std::size_t>(up)].parent) {
      const auto u = static_cast<std::size_t>(up);
      if (state[u] == kOnWalk) invalid("metric tree has a cycle through '" + p.metrics[u].uniq_name + "'");
      state[u] = kOnWalk;
      walk.push_back(u);
    }
    for (std::size_t u : walk) state[u] = kReachesRoot;
  }
  for (std::size_t c = 0; c < nc; ++c) {
    const CallNode &cn = p.cnodes[c];
    if (cn.region < 0 || cn.region >= static_cast<int>(nr))
      invalid("call path " + std::to_string(c) + " names region " + std::to_string(cn.region) +
              " but there are " + std::to_string(nr) + " regions");
    if (cn.parent < -1 || cn.parent >= static_cast<int>(c))
      invalid("call path " + std::to_string(c) + " has parent " + std::to_string(cn.parent) +
              " (parents must come before their children)");
  }
  for (std::size_t l = 0; l < p.locations.size(); ++l)
    if (p.locations[l].rank < 0 || p.locations[l].thread < 0)
      invalid("location " + std::to_string(l) + " has a negative rank or thread");
}

void validate(const Profile &p) {
  validate_definitions(p);
  const std::size_t nm = p.metrics.size(), nc = p.cnodes.size();
  if (p.excl.size() != nm)
    invalid("value matrices for " + std::to_string(p.excl.size()) + " metrics, but " +
            std::to_string(nm) + " metrics defined");
  for (std::size_t m = 0; m < nm; ++m)
    if (p.excl[m].size() != nc * p.nloc())
      invalid("metric '" + p.metrics[m].uniq_name + "' has " + std::to_string(p.excl[m].size()) +
              " values, expected " + std::to_string(nc) + " call paths x " +
              std::to_string(p.nloc()) + " locations");
  if (!p.preds.empty()) {
    if (p.preds.size() != nc)
      invalid("predecessor lists for " + std::to_string(p.preds.size()) + " call paths, but " +
              std::to_string(nc) + " call paths defined");
    for (std::size_t c = 0; c < nc; ++c)
      for (const Predecessor &pr : p.preds[c]) {
        if (pr.callpath < 0 || pr.callpath >= static_cast<int>(nc))
          invalid("call path " + std::to_string(c) + " has predecessor " + std::to_string(pr.callpath) +
                  " but there are " + std::to_string(nc) + " call paths");
        if (pr.count.size() != p.nloc())
          invalid("call path " + std::to_string(c) + ": predecessor " + std::to_string(pr.callpath) + " has " +
                  std::to_string(pr.count.size()) + " counts for " + std::to_string(p.nloc()) + " locations");
      }
  }
}

void walk_preorder(const Profile &p, const std::function<void(int)> &enter,
                   const std::function<void(int)> &leave) {
  const auto children = children_of(p);
  std::vector<int> stack;  // a negative entry ~c means "leave c"
  for (int r : roots(p)) {
    stack.push_back(r);
    while (!stack.empty()) {
      const int e = stack.back();
      stack.pop_back();
      if (e < 0) {
        if (leave) leave(~e);
        continue;
      }
      enter(e);
      if (leave) stack.push_back(~e);
      const auto &ch = children[static_cast<std::size_t>(e)];
      stack.insert(stack.end(), ch.rbegin(), ch.rend());  // first child on top
    }
  }
}

double seconds_per_unit(const std::string &uom) {
  if (uom == "ms" || uom == "msec") return 1e-3;
  if (uom == "us" || uom == "usec") return 1e-6;
  if (uom == "ns" || uom == "nsec") return 1e-9;
  return 1.0;
}

}  // namespace hcc::profile
