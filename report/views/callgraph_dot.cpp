#include "callgraph_dot.hpp"


#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include "call_graph_model.hpp"
#include "graphviz.hpp"
#include "marks.hpp"

namespace hcc::report {

namespace {

std::string num(double v, const char *f = "%.3g") {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

// "foo" for "foo(int) const": what --callgraph-focus matches besides the full name.
std::string short_name(const std::string &n) {
  size_t paren = n.find('(');
  return paren == std::string::npos ? n : n.substr(0, paren);
}

// The cluster a function is drawn in.
std::string cluster_of(const profile::Region &r) {
  if (r.paradigm == "mpi") return "MPI";
  if (r.paradigm == "openmp") return "OpenMP";
  if (r.paradigm == "measurement") return "hcc";
  if (r.file.empty()) return "";
  return r.file;
}

// White (no time) to red (all of it), through yellow: the share of the
// run's time spent in the function itself.
std::string colour(double share) {
  share = std::clamp(share, 0.0, 1.0);
  // HSV: hue 1/6 (yellow) down to 0 (red), saturation up with the share.
  char b[64];
  std::snprintf(b, sizeof b, "%.3f %.3f 1.000", (1.0 - share) / 6.0, 0.1 + 0.9 * std::sqrt(share));
  return b;
}

}  // namespace

std::string callgraph_dot(const profile::Profile &p, const CallgraphOptions &opt) {
  const CallGraph g = build_call_graph(p, opt.location);
  const double total = g.total_time > 0 ? g.total_time : 1.0;
  std::set<int> keep;  // regions drawn
  if (opt.focus.empty()) {
    for (const CgFunction &f : g.functions) keep.insert(f.region);
  } else {
    std::vector<int> todo;
    for (const CgFunction &f : g.functions) {
      const std::string &n = p.regions[size_t(f.region)].name;
      if (n == opt.focus || short_name(n) == opt.focus) todo.push_back(f.region);
    }
    if (todo.empty()) throw std::runtime_error("--callgraph-focus: no function named '" + opt.focus + "' in the profile");
    // Callers per callee, once: scanning every arc per function reached
    // would be quadratic on a long chain.
    std::map<int, std::vector<int>> callers;
    for (const auto &[key, arc] : g.arcs) callers[key.second].push_back(key.first);
    for (const auto &[key, n] : g.recursive_arcs) callers[key.second].push_back(key.first);
    while (!todo.empty()) {
      int r = todo.back();
      todo.pop_back();
      if (!keep.insert(r).second) continue;
      for (int c : callers[r])
        if (!keep.count(c)) todo.push_back(c);
    }
  }

  std::map<std::string, std::vector<int>> clusters;  // cluster -> functions
  for (const CgFunction &f : g.functions)
    if (keep.count(f.region)) clusters[cluster_of(p.regions[size_t(f.region)])].push_back(f.region);

  bool any_sampled = false;
  for (int r : keep) any_sampled |= profile::region_time_from_samples(p.regions[size_t(r)]);
  std::string o = "digraph callgraph {\n";
  o += "  graph [rankdir=TB, fontname=\"Helvetica\", label=" +
       dot_quoted("hcc call graph: " + num(g.total_time, "%.6g") + " s" +
             (opt.location >= 0 ? ", location " + std::to_string(opt.location) : std::string(", all locations")) +
             (opt.focus.empty() ? "" : ", callers of " + opt.focus) +
             (any_sampled ? std::string("\n") + profile::kSampledLegend : std::string())) +
       "];\n";
  o += "  node [shape=box, style=filled, fontname=\"Helvetica\"];\n";
  o += "  edge [fontname=\"Helvetica\"];\n";
  int k = 0;
  for (const auto &[cluster, regions] : clusters) {
    const bool boxed = !cluster.empty();
    std::string indent = boxed ? "    " : "  ";
    if (boxed) o += "  subgraph cluster_" + std::to_string(k++) + " {\n    label=" + dot_quoted(cluster) + "; style=rounded;\n";
    for (int r : regions) {
      const CgFunction &f = g.functions[size_t(g.by_region.at(r))];
      const double share_self = f.self / total, share_total = f.total / total;
      // `~`: its time came from samples (marks.hpp).
      const bool s = profile::region_time_from_samples(p.regions[size_t(r)]);
      std::string label = p.regions[size_t(r)].name + "\nself " + profile::marked(num(f.self, "%.3g"), s) + " s (" +
                          num(100 * share_self, "%.1f") + "%)\ntotal " + profile::marked(num(f.total, "%.3g"), s) +
                          " s (" + num(100 * share_total, "%.1f") + "%)\n" + num(f.calls + f.recursive, "%.0f") +
                          " calls";
      o += indent + "r" + std::to_string(r) + " [label=" + dot_quoted(label) + ", fillcolor=" + dot_quoted(colour(share_self)) +
           ", fontsize=" + num(10 + 14 * share_total, "%.1f") + "];\n";
    }
    if (boxed) o += "  }\n";
  }
  for (const auto &[key, arc] : g.arcs) {
    if (!keep.count(key.first) || !keep.count(key.second)) continue;
    const double share = (arc.self + arc.children) / total;
    o += "  r" + std::to_string(key.first) + " -> r" + std::to_string(key.second) +
         " [label=" + dot_quoted(num(arc.calls, "%.0f")) + ", penwidth=" + num(1 + 4 * share, "%.2f") + "];\n";
  }
  for (const auto &[key, n] : g.recursive_arcs)
    if (keep.count(key.first) && keep.count(key.second))
      o += "  r" + std::to_string(key.first) + " -> r" + std::to_string(key.second) + " [label=" +
           dot_quoted(num(n, "%.0f") + " recursive") + ", style=dashed];\n";
  o += "}\n";
  return o;
}

}  // namespace hcc::report
