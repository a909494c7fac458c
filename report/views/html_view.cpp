// hcc-report — the HTML page (see html_view.hpp).
#include "html_view.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "html_assets.hpp"  // generated from report/views/html/ by report/views/html/embed.cmake
#include "json_view.hpp"
#include "summary.hpp"

namespace hcc::report {

using hcc::profile::Profile;

namespace {

std::string program_name(const Profile &p) {
  for (const char *key : {"program", "hcc.program", "executable"})
    for (const auto &kv : p.attrs)
      if (kv.first == key && !kv.second.empty()) return kv.second;
  const auto rs = hcc::profile::roots(p);
  if (!rs.empty()) return p.regions[static_cast<std::size_t>(p.cnodes[static_cast<std::size_t>(rs.front())].region)].name;
  return "(unknown)";
}

std::string html_escape(const std::string &s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// JSON inside <script type="application/json">: '<', '>' and '&' only occur
// in strings, where \u escapes mean the same, so "</script>" or "<!--" in a
// region name cannot end or confuse the element.
std::string script_safe(const std::string &json) {
  std::string out;
  out.reserve(json.size());
  for (char c : json) {
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else if (c == '&') out += "\\u0026";
    else out += c;
  }
  return out;
}

}  // namespace

nlohmann::ordered_json html_data(const Profile &p, const std::string &profile_path) {
  using json = nlohmann::ordered_json;
  json d = json::object();
  d["profile"] = profile_json(p);
  json attrs = json::array();
  for (const auto &kv : p.attrs) attrs.push_back(json::array({kv.first, kv.second}));
  d["attrs"] = std::move(attrs);
  d["program"] = program_name(p);
  d["file"] = profile_path;
  const int t = p.metric_index("time");
  if (t >= 0) {
    const auto in = hcc::profile::inclusive(p, static_cast<std::size_t>(t));
    const std::string &uom = p.metrics[static_cast<std::size_t>(t)].uom;
    const double scale = uom == "ms" || uom == "msec" ? 1e-3 : uom == "us" || uom == "usec" ? 1e-6
                         : uom == "ns" || uom == "nsec" ? 1e-9 : 1.0;
    double total = 0;
    for (int r : hcc::profile::roots(p))
      for (std::size_t l = 0; l < p.nloc(); ++l) total += in[static_cast<std::size_t>(r) * p.nloc() + l];
    d["total_time"] = total * scale;
  } else {
    d["total_time"] = nullptr;
  }
  d["openmp"] = hcc::profile::openmp_summary_text(p);
  d["mpi"] = hcc::profile::mpi_summary_text(p);
  return d;
}

std::string html_report(const Profile &p, const std::string &profile_path) {
  const std::string page = html_assets::kPage;
  // Each placeholder once, in the page's text (never searched for in what
  // replaces it: the data may hold any string).
  std::vector<std::pair<std::string, std::string>> fill = {
      {"HCC_TITLE", html_escape(program_name(p))},
      {"/*HCC_CSS*/", html_assets::kStyle},
      {"HCC_DATA", script_safe(html_data(p, profile_path).dump())},
      {"/*HCC_JS*/", html_assets::kScript},
  };
  std::vector<std::pair<std::size_t, std::size_t>> at;  // position in page, index in fill
  for (std::size_t i = 0; i < fill.size(); ++i) {
    const std::size_t pos = page.find(fill[i].first);
    if (pos == std::string::npos) throw std::logic_error("report/views/html/page.html lacks " + fill[i].first);
    at.push_back({pos, i});
  }
  std::sort(at.begin(), at.end());
  std::string out;
  std::size_t from = 0;
  for (const auto &[pos, i] : at) {
    out.append(page, from, pos - from);
    out += fill[i].second;
    from = pos + fill[i].first.size();
  }
  out.append(page, from, std::string::npos);
  return out;
}

}  // namespace hcc::report
