// hcc-report — the HTML page (see html_view.hpp).
#include "html_view.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <ostream>
#include <streambuf>
#include <stdexcept>
#include <utility>
#include <vector>

#include "html_assets.hpp"  // generated from report/views/html/ by report/views/html/embed.cmake
#include "findings_view.hpp"
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
// region name cannot end or confuse the element. A stream buffer, so the
// profile's JSON (which may be large) goes to the page as it is written.
class ScriptSafe : public std::streambuf {
 public:
  explicit ScriptSafe(std::ostream &to) : to_(to) {}

 protected:
  int overflow(int c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    const char ch = static_cast<char>(c);
    xsputn(&ch, 1);
    return c;
  }
  std::streamsize xsputn(const char *s, std::streamsize n) override {
    std::streamsize from = 0;
    for (std::streamsize i = 0; i < n; ++i) {
      const char *esc = s[i] == '<' ? "\\u003c" : s[i] == '>' ? "\\u003e" : s[i] == '&' ? "\\u0026" : nullptr;
      if (!esc) continue;
      to_.write(s + from, i - from);
      to_ << esc;
      from = i + 1;
    }
    to_.write(s + from, n - from);
    return n;
  }

 private:
  std::ostream &to_;
};

}  // namespace

void write_html_data(std::ostream &os, const Profile &p, const std::string &profile_path) {
  using json = nlohmann::ordered_json;
  json d = json::object();
  json attrs = json::array();
  for (const auto &kv : p.attrs) attrs.push_back(json::array({kv.first, kv.second}));
  d["attrs"] = std::move(attrs);
  d["program"] = program_name(p);
  d["file"] = profile_path;
  const int t = p.metric_index("time");
  if (t >= 0) {
    const auto in = hcc::profile::inclusive(p, static_cast<std::size_t>(t));
    const double scale = hcc::profile::seconds_per_unit(p.metrics[static_cast<std::size_t>(t)].uom);
    double total = 0;
    for (int r : hcc::profile::roots(p))
      for (std::size_t l = 0; l < p.nloc(); ++l) total += in[static_cast<std::size_t>(r) * p.nloc() + l];
    d["total_time"] = total * scale;
  } else {
    d["total_time"] = nullptr;
  }
  double thread_time = 0;
  const auto findings = hcc::findings::find_all(p, &thread_time);
  d["findings"] = findings_json(findings, thread_time, profile_path)["findings"];
  d["openmp"] = hcc::profile::openmp_summary_text(p);
  d["mpi"] = hcc::profile::mpi_summary_text(p);
  // The profile's JSON is streamed (json_view.hpp), so it goes in front as
  // text rather than as a node of this object.
  os << "{\"profile\":";
  write_profile_json(os, p);
  os << "," << json_text(d).substr(1);
}

void write_html_report(std::ostream &os, const Profile &p, const std::string &profile_path) {
  const std::string page = html_assets::kPage;
  // Each placeholder once, in the page's text (never searched for in what
  // replaces it: the data may hold any string).
  const char *const holes[] = {"HCC_TITLE", "/*HCC_CSS*/", "HCC_DATA", "/*HCC_JS*/"};
  std::vector<std::pair<std::size_t, std::size_t>> at;  // position in page, index in holes
  for (std::size_t i = 0; i < std::size(holes); ++i) {
    const std::size_t pos = page.find(holes[i]);
    if (pos == std::string::npos) throw std::logic_error(std::string("report/views/html/page.html lacks ") + holes[i]);
    at.push_back({pos, i});
  }
  std::sort(at.begin(), at.end());
  std::size_t from = 0;
  for (const auto &[pos, i] : at) {
    os.write(page.data() + from, static_cast<std::streamsize>(pos - from));
    switch (i) {
      case 0: os << html_escape(program_name(p)); break;
      case 1: os << html_assets::kStyle; break;
      case 2: {
        ScriptSafe safe(os);
        std::ostream data(&safe);
        write_html_data(data, p, profile_path);
        break;
      }
      default: os << html_assets::kScript;
    }
    from = pos + std::strlen(holes[i]);
  }
  os.write(page.data() + from, static_cast<std::streamsize>(page.size() - from));
}

}  // namespace hcc::report
