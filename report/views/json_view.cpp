// hcc-report — builds the JSON view of a profile.
#include "json_view.hpp"

#include <cmath>
#include <cstdint>

namespace hcc::report {

using hcc::profile::DType;
using hcc::profile::Profile;

namespace {

// "sec" is CUBE's (Score-P's) spelling; JSON consumers get SI "s".
std::string unit_of(const std::string &uom) { return uom == "sec" ? "s" : uom; }

// Counts are integers in JSON (the model keeps them as exact doubles).
nlohmann::ordered_json value(double v, DType t) {
  if (t == DType::UInt64 && v >= 0 && v < 18446744073709551616.0) return static_cast<std::uint64_t>(std::nearbyint(v));
  if (t == DType::Int64 && std::fabs(v) < 9223372036854775808.0) return static_cast<std::int64_t>(std::nearbyint(v));
  if (!std::isfinite(v)) return nullptr;  // JSON has no inf/nan
  return v;
}

}  // namespace

nlohmann::ordered_json profile_json(const Profile &p, int location) {
  using json = nlohmann::ordered_json;
  const std::size_t nl = p.nloc();
  auto selected = [&](std::size_t l) { return location < 0 || static_cast<int>(l) == location; };

  json out = json::object();
  out["version"] = 1;
  json metrics = json::array();
  for (const auto &m : p.metrics) metrics.push_back({{"name", m.uniq_name}, {"unit", unit_of(m.uom)}});
  out["metrics"] = std::move(metrics);

  json locations = json::array();
  for (std::size_t l = 0; l < nl; ++l) {
    if (!selected(l)) continue;
    const auto &loc = p.locations[l];
    locations.push_back({{"id", l}, {"rank", loc.rank}, {"thread", loc.thread}, {"name", loc.name}});
  }
  out["locations"] = std::move(locations);

  json regions = json::array();
  for (std::size_t r = 0; r < p.regions.size(); ++r) {
    const auto &reg = p.regions[r];
    regions.push_back({{"id", r},
                       {"name", reg.name},
                       {"file", reg.file},
                       {"line", reg.begin_line},
                       {"end_line", reg.end_line},
                       // "sampled": found by HCC_SAMPLING's unwinding, not instrumented
                       {"kind", reg.paradigm == "sampling" ? std::string("sampled") : reg.role}});
  }
  out["regions"] = std::move(regions);

  std::vector<std::vector<double>> incl(p.metrics.size());
  for (std::size_t m = 0; m < p.metrics.size(); ++m) incl[m] = hcc::profile::inclusive(p, m);

  json callpaths = json::array();
  for (std::size_t c = 0; c < p.cnodes.size(); ++c) {
    json values = json::object();
    for (std::size_t m = 0; m < p.metrics.size(); ++m) {
      const DType t = p.metrics[m].dtype;
      json in = json::array(), ex = json::array();
      for (std::size_t l = 0; l < nl; ++l) {
        if (!selected(l)) continue;
        in.push_back(value(incl[m][c * nl + l], t));
        ex.push_back(value(p.excl[m][c * nl + l], t));
      }
      values[p.metrics[m].uniq_name] = {{"incl", std::move(in)}, {"excl", std::move(ex)}};
    }
    // Control flow: empty when the profile has none (HCC_CFG=off, foreign files).
    json preds = json::array();
    if (c < p.preds.size())
      for (const auto &pr : p.preds[c]) {
        json count = json::array();
        for (std::size_t l = 0; l < nl; ++l)
          if (selected(l)) count.push_back(static_cast<std::uint64_t>(pr.count[l]));
        preds.push_back({{"callpath", pr.callpath}, {"count", std::move(count)}});
      }
    callpaths.push_back({{"id", c},
                         {"parent", p.cnodes[c].parent},
                         {"region", p.cnodes[c].region},
                         {"values", std::move(values)},
                         {"predecessors", std::move(preds)}});
  }
  out["callpaths"] = std::move(callpaths);
  return out;
}

}  // namespace hcc::report
