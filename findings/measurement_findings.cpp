// hcc findings — the measurement itself: regions whose enter/exit cost the
// run more than they told, priced as the plan prices them (plans/judge.hpp:
// the pair the run timed, or what its samples inside hcc's code say it paid,
// whichever is more), with the plan line that leaves each out.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "model.hpp"
#include "plans/filter_lines.hpp"
#include "plans/judge.hpp"

namespace hcc::findings {

void measurement_findings(const Model &m, std::vector<Finding> &out) {
  if (m.time < 0) return;
  // Only profiles that say what a pair cost: a foreign file's measurement is unknown.
  bool ours = false;
  for (const auto &[k, v] : m.p.attrs) ours = ours || k == "hcc.pair_cost_ns";
  if (!ours) return;
  const auto j = hcc::report::judge_regions({{&m.p, ""}}, hcc::report::SuggestRule{});
  std::unordered_map<std::string, int> costliest;  // region name -> its call path with the most time
  for (std::size_t c = 0; c < m.nc; ++c) {
    auto [it, fresh] = costliest.emplace(m.region(int(c)).name, int(c));
    if (!fresh && m.t_sum(int(c)) > m.t_sum(it->second)) it->second = int(c);
  }
  auto add = [&](const hcc::report::Verdict &v, bool count) {
    const double per_visit = std::max(v.paid_ns, v.in_run_ns);
    Finding f;
    f.kind = "measurement";
    f.title = fmt::format("measuring {} ({} calls)", v.name, hcc::report::count_text(v.calls));
    f.cost_s = v.calls * per_visit * 1e-9;
    if (auto it = costliest.find(v.name); it != costliest.end()) f.callpath = it->second, f.path = m.path(it->second);
    f.evidence.push_back({"calls", "calls", {}, {v.calls}});
    f.evidence.push_back({"measurement per call", "ns", {}, {per_visit}});
    f.evidence.push_back({"own work per call", "ns", {}, {v.own_ns}});
    if (v.in_run_ns > 0) f.evidence.push_back({"measurement_cpu per call (samples in hcc's code)", "ns", {}, {v.in_run_ns}});
    const auto line = hcc::report::region_line(hcc::report::FilterSyntax::ScoreP, v.name, v.mangled, count);
    f.fix = line.text.empty() ? "" : line.text.substr(0, line.text.find('\n'));
    f.meaning = fmt::format("its enter/exit cost {:.0f} ns a call against {:.0f} ns of its own work: {} "
                            "(`hcc-report --plan -o hcc.plan`; the next build beside hcc.plan applies it)",
                            per_visit, v.own_ns, count ? "count it instead of timing it" : "leave it out");
    out.push_back(std::move(f));
  };
  for (const auto &v : j.picks) add(v, false);
  for (const auto &v : j.over) add(v, false);
  for (const auto &v : j.counted) add(v, true);
}

}  // namespace hcc::findings
