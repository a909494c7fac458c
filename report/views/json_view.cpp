// hcc-report — writes the JSON view of a profile.
#include "json_view.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <vector>

#include "marks.hpp"

namespace hcc::report {

using hcc::profile::DType;
using hcc::profile::Profile;

std::string json_text(const nlohmann::ordered_json &j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

namespace {

// "sec" is CUBE's (Score-P's) spelling; JSON consumers get SI "s".
std::string unit_of(const std::string &uom) { return uom == "sec" ? "s" : uom; }

template <typename Int>
void append_int(std::string &out, Int v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// One value as nlohmann would print it: counts as integers (the model keeps
// them as exact doubles), no inf/nan (JSON has none). Written straight into
// the text: millions of values must not each become a json node.
void append_value(std::string &out, double v, DType t) {
  if (t == DType::UInt64 && v >= 0 && v < 18446744073709551616.0)
    return append_int(out, static_cast<std::uint64_t>(std::nearbyint(v)));
  if (t == DType::Int64 && std::fabs(v) < 9223372036854775808.0)
    return append_int(out, static_cast<std::int64_t>(std::nearbyint(v)));
  if (!std::isfinite(v)) {
    out += "null";
  } else if (v == 0 && !std::signbit(v)) {
    out += "0.0";  // the common case in sparse profiles, as nlohmann prints it
  } else {
    out += nlohmann::ordered_json(v).dump();
  }
}

}  // namespace

void write_profile_json(std::ostream &os, const Profile &p, int location) {
  using json = nlohmann::ordered_json;
  const std::size_t nl = p.nloc();
  auto selected = [&](std::size_t l) { return location < 0 || static_cast<int>(l) == location; };

  json head = json::object();
  head["version"] = 1;
  json metrics = json::array();
  for (const auto &m : p.metrics) metrics.push_back({{"name", m.uniq_name}, {"unit", unit_of(m.uom)}});
  head["metrics"] = std::move(metrics);

  json locations = json::array();
  for (std::size_t l = 0; l < nl; ++l) {
    if (!selected(l)) continue;
    const auto &loc = p.locations[l];
    locations.push_back({{"id", l}, {"rank", loc.rank}, {"thread", loc.thread}, {"name", loc.name}});
  }
  head["locations"] = std::move(locations);

  json regions = json::array();
  for (std::size_t r = 0; r < p.regions.size(); ++r) {
    const auto &reg = p.regions[r];
    json region = {{"id", r},
                   {"name", reg.name},
                   {"file", reg.file},
                   {"line", reg.begin_line},
                   {"end_line", reg.end_line},
                   // "sampled": found by HCC_SAMPLING's unwinding, not instrumented
                   {"kind", reg.paradigm == "sampling" ? std::string("sampled") : reg.role}};
    // Where its call paths' time came from (text_views/marks.hpp): hcc's
    // clock, or the CPU time of samples (sampled, counted, throttled).
    region["time_from"] = hcc::profile::region_time_from_samples(reg) ? "samples" : "clock";
    // Count mode and throttling: visits exact, no clock. Only on those
    // regions, so the other regions read as before.
    if (hcc::profile::is_counted(reg)) region["counted"] = true;
    if (hcc::profile::is_throttled(reg)) region["throttled"] = true;
    // A stopped count (HCC_COUNT_STOP): its visits are a lower bound.
    if (hcc::profile::visits_lower_bound(reg)) region["visits_lower_bound"] = true;
    regions.push_back(std::move(region));
  }
  head["regions"] = std::move(regions);
  std::string text = json_text(head);
  text.pop_back();  // the closing '}': "callpaths" follows
  os << text << ",\"callpaths\":[";

  std::vector<std::vector<double>> incl(p.metrics.size());
  for (std::size_t m = 0; m < p.metrics.size(); ++m) incl[m] = hcc::profile::inclusive(p, m);
  // "name": keys, escaped once. A name used twice is refused by validate().
  std::vector<std::string> keys;
  for (const auto &m : p.metrics) keys.push_back(json_text(m.uniq_name) + ":");

  for (std::size_t c = 0; c < p.cnodes.size(); ++c) {
    text.clear();
    if (c) text += ',';
    text += "{\"id\":";
    append_int(text, c);
    text += ",\"parent\":";
    append_int(text, p.cnodes[c].parent);
    text += ",\"region\":";
    append_int(text, p.cnodes[c].region);
    text += ",\"values\":{";
    for (std::size_t m = 0; m < p.metrics.size(); ++m) {
      const DType t = p.metrics[m].dtype;
      if (m) text += ',';
      text += keys[m];
      for (const char *part : {"{\"incl\":[", "],\"excl\":["}) {
        text += part;
        const std::vector<double> &v = part[2] == 'i' ? incl[m] : p.excl[m];
        bool first = true;
        for (std::size_t l = 0; l < nl; ++l) {
          if (!selected(l)) continue;
          if (!first) text += ',';
          first = false;
          append_value(text, v[c * nl + l], t);
        }
      }
      text += "]}";
    }
    // Control flow: empty when the profile has none (HCC_CFG=off, foreign files).
    text += "},\"predecessors\":[";
    if (c < p.preds.size())
      for (std::size_t k = 0; k < p.preds[c].size(); ++k) {
        const auto &pr = p.preds[c][k];
        if (k) text += ',';
        text += "{\"callpath\":";
        append_int(text, pr.callpath);
        text += ",\"count\":[";
        bool first = true;
        for (std::size_t l = 0; l < nl; ++l) {
          if (!selected(l)) continue;
          if (!first) text += ',';
          first = false;
          // Counts are read with strtoull, so 2^64 - 1 becomes the double
          // 2^64, which no cast may take.
          const double n = pr.count[l];
          append_int(text, n >= 18446744073709551615.0 ? UINT64_MAX : static_cast<std::uint64_t>(n));
        }
        text += "]}";
      }
    text += "]}";
    os << text;
  }
  os << "]}";
}

}  // namespace hcc::report
