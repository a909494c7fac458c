#include "findings_view.hpp"

#include <cstdlib>

namespace hcc::report {

nlohmann::ordered_json findings_json(const std::vector<hcc::findings::Finding> &all, double run_thread_time_s,
                                     const std::string &profile_path) {
  using json = nlohmann::ordered_json;
  json out = json::object();
  out["schema"] = "hcc-findings/1";
  out["profile"] = profile_path;
  out["run_thread_time_s"] = run_thread_time_s;
  json list = json::array();
  int rank = 0;
  for (const auto &f : all) {
    json j = json::object();
    j["rank"] = ++rank;
    j["kind"] = f.kind;
    j["title"] = f.title;
    j["cost_s"] = f.cost_s;
    j["share"] = f.share;
    j["callpath"] = f.callpath;
    j["path"] = f.path;
    json ev = json::array();
    for (const auto &e : f.evidence) {
      json x = json::object();
      x["what"] = e.what;
      x["unit"] = e.unit;
      if (e.keys.empty()) {
        x["value"] = e.values.empty() ? json(nullptr) : json(e.values.front());
      } else {
        json per = json::array();
        for (std::size_t i = 0; i < e.keys.size(); ++i) per.push_back(json::array({e.keys[i], e.values[i]}));
        x["per"] = std::move(per);
      }
      ev.push_back(std::move(x));
    }
    j["evidence"] = std::move(ev);
    j["meaning"] = f.meaning;
    j["fix"] = f.fix;
    list.push_back(std::move(j));
  }
  out["findings"] = std::move(list);
  return out;
}

bool parse_share(const std::string &text, double &percent) {
  std::string s = text;
  while (!s.empty() && (s.back() == ' ' || s.back() == '%')) s.pop_back();
  if (s.empty()) return false;
  char *end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !(v >= 0 && v <= 100)) return false;
  percent = v;
  return true;
}

}  // namespace hcc::report
