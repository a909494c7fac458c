// hcc-report — the diff of two profiles (see diff.hpp).
#include "diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

#include "json_view.hpp"
#include "marks.hpp"

namespace hcc::report {

using hcc::profile::DType;
using hcc::profile::Profile;

namespace {

// Frames of a path shown in full; deeper paths are cut in the middle.
constexpr std::size_t kMaxNames = 64;

// Rows keyed by (parent row, region name): the key of a call path is its
// parent's row plus its own name, so matching costs no path strings (a deep
// recursion that was not folded would make those quadratic).
struct Rows {
  std::map<std::pair<int, std::string>, int> index;
  std::vector<DiffRow> rows;
  std::vector<int> parent;         // parent row per row, -1 for roots
  std::vector<std::string> name;   // region name per row
};

// Exclusive values of each metric per call path, summed over locations,
// scaled (time to seconds), into `first` ? a : b of the matching rows.
void add_profile(const Profile &p, const std::vector<DiffMetric> &metrics, bool first, Rows &out) {
  const std::size_t nl = p.nloc();
  std::vector<int> row_of(p.cnodes.size(), -1);
  std::vector<int> idx;
  std::vector<double> scale;
  for (const auto &dm : metrics) {
    const int m = p.metric_index(dm.name);
    idx.push_back(m);
    scale.push_back(dm.name == "time" ? hcc::profile::seconds_per_unit(p.metrics[static_cast<std::size_t>(m)].uom) : 1.0);
  }
  for (std::size_t c = 0; c < p.cnodes.size(); ++c) {  // parents have smaller ids
    const int parent = p.cnodes[c].parent;
    const int prow = parent < 0 ? -1 : row_of[static_cast<std::size_t>(parent)];
    const std::string &name = p.regions[static_cast<std::size_t>(p.cnodes[c].region)].name;
    auto [it, added] = out.index.try_emplace({prow, name}, static_cast<int>(out.rows.size()));
    if (added) {
      DiffRow row;
      row.a.assign(metrics.size(), 0.0);
      row.b.assign(metrics.size(), 0.0);
      out.rows.push_back(std::move(row));
      out.parent.push_back(prow);
      out.name.push_back(name);
    }
    row_of[c] = it->second;
    DiffRow &row = out.rows[static_cast<std::size_t>(it->second)];
    (first ? row.in_a : row.in_b) = true;
    if (hcc::profile::path_time_from_samples(p, c)) (first ? row.sampled_a : row.sampled_b) = true;
    for (std::size_t k = 0; k < metrics.size(); ++k)
      for (std::size_t l = 0; l < nl; ++l) {
        const double x = p.excl[static_cast<std::size_t>(idx[k])][c * nl + l];
        if (std::isfinite(x)) (first ? row.a : row.b)[k] += x * scale[k];
      }
  }
}

std::string show(double v, const DiffMetric &m, bool sign) {
  if (m.name == "time") return fmt::format(sign ? "{:+.3f}" : "{:.3f}", v * 1e3);
  if (m.integer) return fmt::format(sign ? "{:+.0f}" : "{:.0f}", v);
  return fmt::format(sign ? "{:+.6g}" : "{:.6g}", v);
}

nlohmann::ordered_json json_value(double v, const DiffMetric &m) {
  if (m.integer && std::fabs(v) < 9e18) return static_cast<std::int64_t>(std::llround(v));
  if (!std::isfinite(v)) return nullptr;
  return v;
}

}  // namespace

Diff diff_profiles(const Profile &a, const Profile &b) {
  Diff d;
  std::vector<std::string> order = {"time", "visits"};
  for (const auto &m : a.metrics)
    if (m.uniq_name != "time" && m.uniq_name != "visits") order.push_back(m.uniq_name);
  for (const std::string &name : order) {
    const int ma = a.metric_index(name), mb = b.metric_index(name);
    if (ma < 0 || mb < 0) continue;
    const auto &m = a.metrics[static_cast<std::size_t>(ma)];
    // Only metrics that add up over locations and call paths make sense as
    // a difference of sums; min/max metrics (recursion_depth) do not.
    if (m.dtype == DType::MinDouble || m.dtype == DType::MaxDouble) continue;
    d.metrics.push_back({name, name == "time" ? "s" : m.uom, m.dtype == DType::UInt64 || m.dtype == DType::Int64});
  }
  Rows all;
  add_profile(a, d.metrics, true, all);
  add_profile(b, d.metrics, false, all);
  const int time = d.metrics.empty() || d.metrics[0].name != "time" ? -1 : 0;
  d.depth.assign(all.rows.size(), 0);
  d.head_end.assign(all.rows.size(), -1);
  for (std::size_t r = 0; r < all.rows.size(); ++r) {  // parents' rows come before their children's
    const int pr = all.parent[r];
    d.depth[r] = pr < 0 ? 1 : d.depth[static_cast<std::size_t>(pr)] + 1;
    d.head_end[r] = d.depth[r] == kMaxNames / 2 ? static_cast<int>(r)
                    : pr < 0                    ? -1
                                                : d.head_end[static_cast<std::size_t>(pr)];
  }
  for (std::size_t r = 0; r < all.rows.size(); ++r) {
    DiffRow &row = all.rows[r];
    bool any = false;
    for (std::size_t k = 0; k < d.metrics.size(); ++k) any |= row.a[k] != 0 || row.b[k] != 0;
    if (!any) continue;
    row.node = static_cast<int>(r);
    d.rows.push_back(std::move(row));
  }
  d.parent = std::move(all.parent);
  d.name = std::move(all.name);
  // Largest absolute change of time first; then of the next metrics, so a
  // profile without time still sorts by visits.
  std::stable_sort(d.rows.begin(), d.rows.end(), [&](const DiffRow &x, const DiffRow &y) {
    for (std::size_t k = time < 0 ? 0 : static_cast<std::size_t>(time); k < d.metrics.size(); ++k) {
      const double cx = std::fabs(x.b[k] - x.a[k]), cy = std::fabs(y.b[k] - y.a[k]);
      if (cx != cy) return cx > cy;
    }
    return false;
  });
  return d;
}

namespace {

// The nodes along a row's path, leaf first; for a path deeper than
// kMaxNames the first kMaxNames/2 from the leaf, then -1 where "... N frames
// ..." stands, then the first kMaxNames/2 from the root. Linear in what is
// shown: a deep recursion that was not folded costs linear time and output
// (depth and the row at the end of the first half are kept per row).
std::vector<int> path_nodes(const Diff &d, const DiffRow &row) {
  const std::size_t dep = d.depth[static_cast<std::size_t>(row.node)];
  std::vector<int> nodes;
  int q = row.node;
  for (std::size_t n = 0; q >= 0 && (dep <= kMaxNames || n < kMaxNames / 2); ++n) {
    nodes.push_back(q);
    q = d.parent[static_cast<std::size_t>(q)];
  }
  if (q >= 0) {
    nodes.push_back(-1);
    for (q = d.head_end[static_cast<std::size_t>(row.node)]; q >= 0; q = d.parent[static_cast<std::size_t>(q)])
      nodes.push_back(q);
  }
  return nodes;
}

std::string skipped_frames(const Diff &d, const DiffRow &row) {
  return "... " + std::to_string(d.depth[static_cast<std::size_t>(row.node)] - kMaxNames) + " frames ...";
}

}  // namespace

std::vector<std::string> diff_path(const Diff &d, const DiffRow &row) {
  const std::vector<int> nodes = path_nodes(d, row);
  std::vector<std::string> names;
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
    names.push_back(*it < 0 ? skipped_frames(d, row) : d.name[static_cast<std::size_t>(*it)]);
  return names;
}

void write_diff_text(std::ostream &os, const Diff &d, const std::string &name_a, const std::string &name_b) {
  std::vector<std::string> header;
  for (const auto &m : d.metrics) {
    const std::string unit = m.name == "time" ? " msec" : "";
    header.push_back(m.name + unit + " A");
    header.push_back(m.name + unit + " B");
    header.push_back(m.name + " B-A");
  }
  header.push_back("Call path");
  // The number cells first (their widths align the columns); the path, the
  // last and unpadded column, is spelled out line by line while writing.
  std::vector<std::vector<std::string>> rows;
  bool any_marked = false;
  for (const auto &r : d.rows) {
    std::vector<std::string> cells;
    for (std::size_t k = 0; k < d.metrics.size(); ++k) {
      // Time from samples is marked (marks.hpp); the change when either is.
      const bool time = d.metrics[k].name == "time";
      const bool ma = time && r.sampled_a && r.in_a, mb = time && r.sampled_b && r.in_b;
      any_marked |= ma || mb;
      cells.push_back(r.in_a ? hcc::profile::marked(show(r.a[k], d.metrics[k], false), ma) : "-");
      cells.push_back(r.in_b ? hcc::profile::marked(show(r.b[k], d.metrics[k], false), mb) : "-");
      cells.push_back(hcc::profile::marked(show(r.b[k] - r.a[k], d.metrics[k], true), ma || mb));
    }
    rows.push_back(std::move(cells));
  }
  std::vector<std::size_t> w(header.size());
  for (std::size_t i = 0; i < header.size(); ++i) w[i] = header[i].size();
  for (const auto &r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
  auto line = [&](const std::vector<std::string> &cells, const std::string &last) {
    std::string out;
    for (std::size_t i = 0; i < cells.size(); ++i) out += fmt::format("{:>{}}  ", cells[i], w[i]);
    return out + last + "\n";
  };
  os << fmt::format("DIFF (exclusive values per call path, summed over locations; sorted by the largest "
                    "change of time)\nA: {}\nB: {}\n",
                    name_a, name_b);
  os << line({header.begin(), header.end() - 1}, header.back());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const DiffRow &r = d.rows[i];
    std::string path;
    for (const auto &n : diff_path(d, r)) path += (path.empty() ? "" : " \u2192 ") + n;
    if (!r.in_a) path += "  (only in B)";
    if (!r.in_b) path += "  (only in A)";
    os << line(rows[i], path);
  }
  if (any_marked) os << hcc::profile::kSampledLegend << "\n";
}

void write_diff_json(std::ostream &os, const Diff &d, const std::string &name_a, const std::string &name_b) {
  using json = nlohmann::ordered_json;
  json head = json::object();
  head["version"] = 1;
  head["a"] = name_a;
  head["b"] = name_b;
  json metrics = json::array();
  for (const auto &m : d.metrics) metrics.push_back({{"name", m.name}, {"unit", m.unit}});
  head["metrics"] = std::move(metrics);
  std::string text = json_text(head);
  text.pop_back();  // the closing '}': "callpaths" follows
  os << text << ",\"callpaths\":[";
  // Rows are written as text, the same bytes json_text gives: a JSON object
  // per row (a path of up to 64 names, the values) cost more in malloc than
  // the writing (the 10^6 rows of a 10^6-deep recursion took 23 s). Each
  // node's name is escaped once, when a path first shows it.
  std::vector<std::string> quoted(d.name.size());
  auto name_text = [&](int node) -> const std::string & {
    std::string &q = quoted[static_cast<std::size_t>(node)];
    if (q.empty()) q = json_text(d.name[static_cast<std::size_t>(node)]);
    return q;
  };
  std::vector<std::string> metric_keys;
  for (const auto &m : d.metrics) metric_keys.push_back(json_text(m.name) + ":{\"a\":");
  std::string row_text;
  bool first = true;
  for (const auto &r : d.rows) {
    row_text.assign(first ? "{\"path\":[" : ",{\"path\":[");
    const std::vector<int> nodes = path_nodes(d, r);
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      if (it != nodes.rbegin()) row_text += ',';
      row_text += *it < 0 ? json_text(skipped_frames(d, r)) : name_text(*it);
    }
    row_text += std::string("],\"in_a\":") + (r.in_a ? "true" : "false") + ",\"in_b\":" + (r.in_b ? "true" : "false");
    row_text += ",\"time_from\":{";
    if (r.in_a) row_text += std::string("\"a\":") + (r.sampled_a ? "\"samples\"" : "\"clock\"");
    if (r.in_b) row_text += std::string(r.in_a ? "," : "") + "\"b\":" + (r.sampled_b ? "\"samples\"" : "\"clock\"");
    row_text += "},\"values\":{";
    for (std::size_t k = 0; k < d.metrics.size(); ++k) {
      const DiffMetric &m = d.metrics[k];
      row_text += (k ? "," : "") + metric_keys[k] + json_value(r.a[k], m).dump() + ",\"b\":" +
                  json_value(r.b[k], m).dump() + ",\"diff\":" + json_value(r.b[k] - r.a[k], m).dump() + "}";
    }
    row_text += "}}";
    os << row_text;
    first = false;
  }
  os << "]}";
}

}  // namespace hcc::report
