// hcc findings — counters (HCC_METRICS): per event, the call path whose
// rate is worst, as CATCH ranks call paths by a derived metric: its events
// per instruction where instructions were counted, else per second of its
// own time. A call path is a hot spot when it holds at least kMinEventShare
// of the run's events and at least kRateRatio times its share of the time
// (or of the instructions); its cost is its own time, the time spent at
// that rate.
#include <fmt/format.h>

#include <algorithm>

#include "model.hpp"

namespace hcc::findings {
namespace {

constexpr double kMinEventShare = 0.2;
constexpr double kRateRatio = 2.0;

bool is_counter(const hcc::profile::Metric &mt) {
  return mt.uniq_name.rfind("PAPI_", 0) == 0 || mt.uniq_name.rfind("perf::", 0) == 0 ||
         mt.descr.find("[counted by") != std::string::npos;
}

bool is_instructions(const std::string &n) { return n == "PAPI_TOT_INS" || n == "perf::INSTRUCTIONS"; }

// Per call path, the metric's exclusive value summed over locations.
std::vector<double> sums(const Model &m, std::size_t metric) {
  std::vector<double> out(m.nc, 0);
  for (std::size_t c = 0; c < m.nc; ++c)
    for (std::size_t l = 0; l < m.nl; ++l) out[c] += m.p.at(metric, c, l);
  return out;
}

}  // namespace

void counter_findings(const Model &m, std::vector<Finding> &out) {
  if (m.time < 0) return;
  int ins = -1;
  for (std::size_t i = 0; i < m.p.metrics.size(); ++i)
    if (is_instructions(m.p.metrics[i].uniq_name)) ins = int(i);
  std::vector<double> time(m.nc, 0), base;
  for (std::size_t c = 0; c < m.nc; ++c) time[c] = m.excl_sum(int(c));
  base = ins >= 0 ? sums(m, std::size_t(ins)) : time;
  double base_total = 0, time_total = 0;
  for (std::size_t c = 0; c < m.nc; ++c) base_total += base[c], time_total += time[c];
  if (base_total <= 0 || time_total <= 0) return;
  const std::string per = ins >= 0 ? "per instruction" : "per second";
  for (std::size_t e = 0; e < m.p.metrics.size(); ++e) {
    const auto &mt = m.p.metrics[e];
    if (!is_counter(mt) || int(e) == ins || mt.uniq_name.find("CLOCK") != std::string::npos) continue;
    const std::vector<double> ev = sums(m, e);
    double total = 0;
    for (double x : ev) total += x;
    if (total <= 0) continue;
    int worst = -1;
    double worst_rate = 0;
    for (std::size_t c = 0; c < m.nc; ++c) {
      if (base[c] <= 0 || ev[c] < kMinEventShare * total) continue;
      if (ev[c] / total < kRateRatio * base[c] / base_total) continue;
      const double rate = ev[c] / base[c];
      if (rate > worst_rate) worst_rate = rate, worst = int(c);
    }
    if (worst < 0) continue;
    const double rest_events = total - ev[std::size_t(worst)], rest_base = base_total - base[std::size_t(worst)];
    Finding f;
    f.kind = "counter";
    f.title = fmt::format("{} hot spot in {}: {:.0f}% of the events in {:.0f}% of the {}", mt.uniq_name,
                          m.region(worst).name, 100 * ev[std::size_t(worst)] / total,
                          100 * base[std::size_t(worst)] / base_total, ins >= 0 ? "instructions" : "time");
    f.cost_s = time[std::size_t(worst)];
    f.callpath = worst;
    f.path = m.path(worst);
    f.evidence.push_back({mt.uniq_name + " here", mt.uniq_name, {}, {ev[std::size_t(worst)]}});
    f.evidence.push_back({mt.uniq_name + " in the whole run", mt.uniq_name, {}, {total}});
    f.evidence.push_back({mt.uniq_name + " " + per + " here", "", {}, {worst_rate}});
    f.evidence.push_back({mt.uniq_name + " " + per + " elsewhere", "", {}, {rest_base > 0 ? rest_events / rest_base : 0}});
    f.evidence.push_back({"own time here", "s", {}, {time[std::size_t(worst)]}});
    f.meaning = fmt::format("this call path's {} rate is {} the rest of the run's: its time goes to what the "
                            "event counts ({})",
                            mt.uniq_name,
                            rest_base > 0 && rest_events > 0
                                ? fmt::format("{:.1f}x", worst_rate / (rest_events / rest_base))
                                : "far above",
                            mt.descr.empty() ? mt.disp_name : mt.descr.substr(0, mt.descr.find(" [counted")));
    out.push_back(std::move(f));
  }
}

}  // namespace hcc::findings
