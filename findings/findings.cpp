// hcc findings — every kind's findings together, ranked by cost, and their text.
#include "findings.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "model.hpp"

namespace hcc::findings {

std::vector<Finding> find_all(const hcc::profile::Profile &p, double *thread_time) {
  const Model m(p);
  if (thread_time) *thread_time = m.total;
  if (m.time < 0 || m.total <= 0) return {};
  std::vector<Finding> all;
  openmp_findings(m, all);
  mpi_findings(m, all);
  call_findings(m, all);
  measurement_findings(m, all);
  counter_findings(m, all);
  std::vector<Finding> kept;
  for (auto &f : all) {
    f.share = f.cost_s / m.total;
    if (f.share >= kMinShare) kept.push_back(std::move(f));
  }
  std::stable_sort(kept.begin(), kept.end(), [](const Finding &a, const Finding &b) { return a.cost_s > b.cost_s; });
  return kept;
}

namespace {

// "thread 0 0.412, thread 1 0.205, ..." with at most 8 values, then the
// range of the rest, so a 100 000-rank row stays one line.
std::string values_text(const Evidence &e) {
  constexpr std::size_t kMax = 8;
  auto num = [](double x) {
    // The range first: casting a value beyond long long is undefined (a fuzzed file holds any).
    return x < 1e15 && x > -1e15 && x == double((long long)x) ? fmt::format("{:.0f}", x) : fmt::format("{:.4g}", x);
  };
  if (e.keys.empty()) return e.values.empty() ? "" : num(e.values.front());
  std::string out;
  for (std::size_t i = 0; i < e.values.size() && i < kMax; ++i)
    out += fmt::format("{}{} {}", i ? ", " : "", e.keys[i], num(e.values[i]));
  if (e.values.size() > kMax) {
    const auto [lo, hi] = std::minmax_element(e.values.begin() + kMax, e.values.end());
    out += fmt::format(", and {} more from {} to {}", e.values.size() - kMax, num(*lo), num(*hi));
  }
  return out;
}

}  // namespace

std::string findings_text(const std::vector<Finding> &all, std::size_t top) {
  std::string out =
      "FINDINGS (what cost this run the most, in seconds summed over threads and ranks and as a share of the "
      "run's thread time; docs/reports.md, \"Findings\")\n";
  if (all.empty()) return out + fmt::format("  nothing above {:.1f}% of the run\n", 100 * kMinShare);
  for (std::size_t i = 0; i < all.size() && i < top; ++i) {
    const Finding &f = all[i];
    out += fmt::format("#{:<2} {:>10.4f} s {:>6.1f}%  {}  [{}]\n", i + 1, f.cost_s, 100 * f.share, f.title, f.kind);
    if (!f.path.empty()) out += fmt::format("    path:     {}\n", f.path);
    for (std::size_t k = 0; k < f.evidence.size(); ++k) {
      const Evidence &e = f.evidence[k];
      const std::string unit = e.unit.empty() || e.unit == e.what ? "" : " (" + e.unit + ")";
      out += fmt::format("    {:<10}{}{}: {}\n", k == 0 ? "evidence:" : "", e.what, unit, values_text(e));
    }
    out += fmt::format("    meaning:  {}\n", f.meaning);
    if (!f.fix.empty()) out += fmt::format("    fix:      {}\n", f.fix);
  }
  if (all.size() > top) out += fmt::format("  ({} more findings: hcc-report --findings --top {})\n", all.size() - top, all.size());
  return out;
}

}  // namespace hcc::findings
