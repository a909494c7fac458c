// hcc-report — the diff of two profiles (see diff.hpp).
#include "diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

namespace hcc::report {

using hcc::profile::DType;
using hcc::profile::Profile;

namespace {

double seconds_per_unit(const std::string &uom) {
  if (uom == "ms" || uom == "msec") return 1e-3;
  if (uom == "us" || uom == "usec") return 1e-6;
  if (uom == "ns" || uom == "nsec") return 1e-9;
  return 1.0;
}

// Exclusive values of metric `name` per call-path key, summed over
// locations, scaled (time to seconds).
void add_profile(const Profile &p, const std::vector<DiffMetric> &metrics, bool first,
                 std::map<std::string, DiffRow> &rows) {
  const std::size_t nl = p.nloc();
  std::vector<std::string> key(p.cnodes.size());
  std::vector<std::vector<std::string>> names(p.cnodes.size());
  std::vector<int> idx;
  std::vector<double> scale;
  for (const auto &dm : metrics) {
    const int m = p.metric_index(dm.name);
    idx.push_back(m);
    scale.push_back(dm.name == "time" ? seconds_per_unit(p.metrics[static_cast<std::size_t>(m)].uom) : 1.0);
  }
  for (std::size_t c = 0; c < p.cnodes.size(); ++c) {
    const int parent = p.cnodes[c].parent;
    const std::string &name = p.regions[static_cast<std::size_t>(p.cnodes[c].region)].name;
    // '\x1f' cannot appear in a region name that went through the CUBE
    // writer (control characters become spaces), so keys never collide.
    key[c] = parent < 0 ? name : key[static_cast<std::size_t>(parent)] + '\x1f' + name;
    DiffRow &row = rows[key[c]];
    if (row.path.empty()) {
      for (int n = static_cast<int>(c); n >= 0; n = p.cnodes[static_cast<std::size_t>(n)].parent)
        row.path.insert(row.path.begin(), p.regions[static_cast<std::size_t>(p.cnodes[static_cast<std::size_t>(n)].region)].name);
      row.a.assign(metrics.size(), 0.0);
      row.b.assign(metrics.size(), 0.0);
    }
    (first ? row.in_a : row.in_b) = true;
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
  std::map<std::string, DiffRow> rows;
  add_profile(a, d.metrics, true, rows);
  add_profile(b, d.metrics, false, rows);
  const int time = d.metrics.empty() || d.metrics[0].name != "time" ? -1 : 0;
  for (auto &kv : rows) {
    bool any = false;
    for (std::size_t k = 0; k < d.metrics.size(); ++k) any |= kv.second.a[k] != 0 || kv.second.b[k] != 0;
    if (any) d.rows.push_back(std::move(kv.second));
  }
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

std::string diff_text(const Diff &d, const std::string &name_a, const std::string &name_b) {
  std::vector<std::string> header;
  for (const auto &m : d.metrics) {
    const std::string unit = m.name == "time" ? " msec" : "";
    header.push_back(m.name + unit + " A");
    header.push_back(m.name + unit + " B");
    header.push_back(m.name + " B-A");
  }
  header.push_back("Call path");
  std::vector<std::vector<std::string>> rows;
  for (const auto &r : d.rows) {
    std::vector<std::string> cells;
    for (std::size_t k = 0; k < d.metrics.size(); ++k) {
      cells.push_back(r.in_a ? show(r.a[k], d.metrics[k], false) : "-");
      cells.push_back(r.in_b ? show(r.b[k], d.metrics[k], false) : "-");
      cells.push_back(show(r.b[k] - r.a[k], d.metrics[k], true));
    }
    std::string path;
    for (const auto &n : r.path) path += (path.empty() ? "" : " \u2192 ") + n;
    if (!r.in_a) path += "  (only in B)";
    if (!r.in_b) path += "  (only in A)";
    cells.push_back(path);
    rows.push_back(std::move(cells));
  }
  std::vector<std::size_t> w(header.size());
  for (std::size_t i = 0; i < header.size(); ++i) w[i] = header[i].size();
  for (const auto &r : rows)
    for (std::size_t i = 0; i + 1 < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
  auto line = [&](const std::vector<std::string> &cells) {
    std::string out;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i) out += "  ";
      out += i + 1 == cells.size() ? cells[i] : fmt::format("{:>{}}", cells[i], w[i]);
    }
    return out + "\n";
  };
  std::string out = fmt::format("DIFF (exclusive values per call path, summed over locations; sorted by the largest "
                                "change of time)\nA: {}\nB: {}\n",
                                name_a, name_b);
  out += line(header);
  for (const auto &r : rows) out += line(r);
  return out;
}

nlohmann::ordered_json diff_json(const Diff &d, const std::string &name_a, const std::string &name_b) {
  using json = nlohmann::ordered_json;
  json out = json::object();
  out["version"] = 1;
  out["a"] = name_a;
  out["b"] = name_b;
  json metrics = json::array();
  for (const auto &m : d.metrics) metrics.push_back({{"name", m.name}, {"unit", m.unit}});
  out["metrics"] = std::move(metrics);
  json rows = json::array();
  for (const auto &r : d.rows) {
    json values = json::object();
    for (std::size_t k = 0; k < d.metrics.size(); ++k)
      values[d.metrics[k].name] = {{"a", json_value(r.a[k], d.metrics[k])},
                                   {"b", json_value(r.b[k], d.metrics[k])},
                                   {"diff", json_value(r.b[k] - r.a[k], d.metrics[k])}};
    rows.push_back({{"path", r.path}, {"in_a", r.in_a}, {"in_b", r.in_b}, {"values", std::move(values)}});
  }
  out["callpaths"] = std::move(rows);
  return out;
}

}  // namespace hcc::report
