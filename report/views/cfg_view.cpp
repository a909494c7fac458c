// hcc-report — control-flow views (see cfg_view.hpp).
//
// Edges of the graph: a sibling predecessor S of N is a solid edge S -> N
// ("N ran after S"); the parent P as predecessor is a dotted edge P -> N
// ("N was called from P"). Every edge carries who took it: locations with a
// nonzero count grouped into ranges, then the total, e.g. `0-3|5` (locations
// 0 to 3 took it 5 times in all) or `0|3` (only location 0).
#include "cfg_view.hpp"
#include "graphviz.hpp"
#include "marks.hpp"


#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace hcc::report {

using profile::Predecessor;
using profile::Profile;

namespace {

// The region's name, with a directory in an OpenMP construct's name
// ("!$omp for @/src/app.c:15") left out: "!$omp for @app.c:15".
std::string short_name(const std::string &name) {
  const std::size_t at = name.find(" @");
  if (at == std::string::npos) return name;
  const std::size_t slash = name.rfind('/');
  if (slash == std::string::npos || slash < at) return name;
  return name.substr(0, at + 2) + name.substr(slash + 1);
}

std::string region_name(const Profile &p, int c) {
  return short_name(p.regions[static_cast<std::size_t>(p.cnodes[static_cast<std::size_t>(c)].region)].name);
}

double count_of(const Predecessor &pr, int location) {
  if (location >= 0) return pr.count[static_cast<std::size_t>(location)];
  double s = 0;
  for (double v : pr.count) s += v;
  return s;
}

std::string whole(double v) { return std::to_string(static_cast<unsigned long long>(std::llround(v))); }

}  // namespace

std::string cfg_text(const Profile &p, int location) {
  if (p.preds.empty())
    return "no control-flow data in this profile (written with HCC_CFG=off, or not by hcc)\n";
  std::string out =
      "Control flow: each call path with its predecessors (region:count; the parent first, then what ran "
      "just before it in order of first occurrence)\n";
  std::vector<int> depth(p.cnodes.size(), 0);
  profile::walk_preorder(p, [&](int c) {
    const int parent = p.cnodes[static_cast<std::size_t>(c)].parent;
    const int d = parent < 0 ? 0 : depth[static_cast<std::size_t>(parent)] + 1;
    depth[static_cast<std::size_t>(c)] = d;
    // Indentation capped as in the call tree, so a deep tree stays linear.
    if (d <= 40) out.append(static_cast<std::size_t>(2 * d), ' ');
    else out += "[depth " + std::to_string(d) + "] ";
    out += region_name(p, c);
    std::string list;
    for (const Predecessor &pr : p.preds[static_cast<std::size_t>(c)]) {
      const double n = count_of(pr, location);
      if (n <= 0) continue;
      list += (list.empty() ? "" : ",") + region_name(p, pr.callpath) + ":" + whole(n);
    }
    if (!list.empty()) out += " (" + list + ")";
    out += "\n";
  });
  return out;
}

namespace {

// `0-3,5|12`: locations with a nonzero count, consecutive ones as ranges,
// then the total.
std::string threads_label(const Predecessor &pr) {
  std::string out;
  double total = 0;
  const int n = static_cast<int>(pr.count.size());
  for (int l = 0; l < n;) {
    if (pr.count[static_cast<std::size_t>(l)] <= 0) {
      ++l;
      continue;
    }
    int e = l;
    while (e + 1 < n && pr.count[static_cast<std::size_t>(e + 1)] > 0) ++e;
    for (int k = l; k <= e; ++k) total += pr.count[static_cast<std::size_t>(k)];
    out += (out.empty() ? "" : ",") + std::to_string(l) + (e > l ? "-" + std::to_string(e) : "");
    l = e + 1;
  }
  return out + "|" + whole(total);
}

std::string kind_word(const profile::Region &r) {
  std::string k = r.role.empty() ? "function" : r.role;
  for (char &ch : k) ch = ch == ' ' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return k;
}

std::string seconds_text(double s) {
  char buf[64];
  if (s >= 1) std::snprintf(buf, sizeof buf, "%.3f s", s);
  else if (s >= 1e-3) std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.3f us", s * 1e6);
  return buf;
}

// White (no time) to red (the most exclusive time shown), in 9 steps.
std::string heat_colour(double frac) {
  static const char *const kScale[] = {"#ffffff", "#fff5eb", "#fee6ce", "#fdd0a2", "#fdae6b",
                                       "#fd8d3c", "#f16913", "#d94801", "#a63603"};
  // NaN or infinite times from a file: no colour rather than an undefined cast.
  if (!std::isfinite(frac)) return kScale[0];
  const double step = std::clamp(std::floor(frac * 8 + 0.5), 0.0, 8.0);
  return kScale[static_cast<int>(step)];
}

}  // namespace

std::string cfg_dot(const Profile &p, const std::string &root_region) {
  const std::size_t nc = p.cnodes.size(), nl = p.nloc();
  const auto kids = profile::children_of(p);
  std::vector<char> shown(nc, 0);
  int root = -1;
  if (root_region.empty()) {
    std::fill(shown.begin(), shown.end(), 1);
  } else {
    for (std::size_t c = 0; c < nc && root < 0; ++c)
      if (region_name(p, static_cast<int>(c)) == root_region ||
          p.regions[static_cast<std::size_t>(p.cnodes[c].region)].name == root_region)
        root = static_cast<int>(c);
    if (root < 0) throw std::runtime_error("no call path of region '" + root_region + "' in this profile");
    shown[static_cast<std::size_t>(root)] = 1;
    for (int k : kids[static_cast<std::size_t>(root)]) shown[static_cast<std::size_t>(k)] = 1;
  }
  // Exclusive time per call path, summed over locations.
  std::vector<double> excl(nc, 0.0);
  const int tm = p.metric_index("time");
  double max_excl = 0;
  for (std::size_t c = 0; c < nc; ++c) {
    if (tm >= 0)
      for (std::size_t l = 0; l < nl; ++l) excl[c] += p.at(static_cast<std::size_t>(tm), c, l);
    if (shown[c]) max_excl = std::max(max_excl, excl[c]);
  }

  std::string out = "digraph hcc_cfg {\n";
  out += "  graph [rankdir=TB, fontname=\"Helvetica\", label=\"hcc control flow";
  if (root >= 0) out += ": " + dot_escape(root_region) + " and its children";
  out += "\\nsolid: ran after (sibling), dotted: called from (parent); edge labels: locations|count";
  bool any_sampled = false;
  for (std::size_t c = 0; c < nc; ++c) any_sampled |= shown[c] && profile::path_time_from_samples(p, c);
  if (any_sampled) out += "\\n" + dot_escape(profile::kSampledLegend);
  out += "\"];\n";
  out += "  node [shape=box, style=filled, fontname=\"Helvetica\", fontsize=10];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (std::size_t c = 0; c < nc; ++c) {
    if (!shown[c]) continue;
    const profile::Region &r = p.regions[static_cast<std::size_t>(p.cnodes[c].region)];
    std::string label = kind_word(r) + "\n" + short_name(r.name);
    if (!kids[c].empty()) label += " +";
    if (!r.file.empty()) {
      label += "\n" + r.file;
      if (r.begin_line >= 0) label += ":" + std::to_string(r.begin_line);
      if (r.end_line >= 0 && r.end_line != r.begin_line) label += "-" + std::to_string(r.end_line);
    }
    label += "\nexcl " + profile::marked(seconds_text(excl[c]), profile::path_time_from_samples(p, c));  // marks.hpp
    const double frac = max_excl > 0 ? excl[c] / max_excl : 0;
    out += "  c" + std::to_string(c) + " [label=\"" + dot_escape(label) + "\", fillcolor=\"" + heat_colour(frac) +
           "\"" + (frac > 0.8 ? ", fontcolor=\"white\"" : "") + "];\n";  // readable on the darkest shades
  }
  for (std::size_t c = 0; c < nc; ++c) {
    if (!shown[c] || c >= p.preds.size()) continue;
    for (const Predecessor &pr : p.preds[c]) {
      if (!shown[static_cast<std::size_t>(pr.callpath)]) continue;
      const bool parent = pr.callpath == p.cnodes[c].parent;
      out += "  c" + std::to_string(pr.callpath) + " -> c" + std::to_string(c) + " [label=\"" +
             threads_label(pr) + "\"" + (parent ? ", style=dotted" : "") + "];\n";
    }
  }
  // The colour scale: what the shades mean in exclusive time.
  out += "  subgraph cluster_scale {\n    label=\"exclusive time\"; fontsize=9;\n";
  for (int i = 0; i <= 8; i += 2) {
    out += "    scale" + std::to_string(i) + " [label=\"" + seconds_text(max_excl * i / 8.0) +
           "\", fillcolor=\"" + heat_colour(i / 8.0) + "\", fontsize=8];\n";
  }
  out += "    scale0 -> scale2 -> scale4 -> scale6 -> scale8 [style=invis];\n  }\n";
  out += "}\n";
  return out;
}

}  // namespace hcc::report
