// hcc-report --suggest-filter (see suggest.hpp and report/README.md).
#include "suggest.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "filter/filter.hpp"

namespace hcc::report {

namespace {

std::string fmt(const char *f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Escapes the shell wildcards of hcc and Score-P patterns so a name matches
// only itself (`f(int *)` must not become `f(int <anything>)`).
std::string escape_glob(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '*' || c == '?' || c == '[' || c == '\\' || c == '#') out += '\\';
    out += c;
  }
  return out;
}

struct Candidate {
  int region;
  double calls, usec_per_call, own_ns, overhead_s;
};

}  // namespace

std::string parse_suggest_rule(const std::string &text, SuggestRule &rule) {
  std::string t;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) t += c;
  if (t.empty()) return "is empty";
  bool have_calls = false, have_usec = false;
  size_t b = 0;
  while (b <= t.size()) {
    size_t e = t.find_first_of(",&", b);
    if (e == std::string::npos) e = t.size();
    std::string cond = t.substr(b, e - b);
    b = e + 1;
    if (cond.empty()) {
      if (e == t.size()) break;
      continue;
    }
    size_t op = cond.find_first_of("<>");
    if (op == std::string::npos || op == 0) return "condition '" + cond + "' has no < or >";
    std::string key = cond.substr(0, op);
    bool le = op + 1 < cond.size() && cond[op + 1] == '=';
    std::string num = cond.substr(op + (le ? 2 : 1));
    char *end = nullptr;
    double v = std::strtod(num.c_str(), &end);
    if (num.empty() || *end != '\0' || v < 0) return "condition '" + cond + "' has no number after the operator";
    if (key == "calls" || key == "numcalls") {
      if (cond[op] != '>') return "'" + cond + "': calls takes > or >=";
      rule.calls_above = v, rule.calls_inclusive = le, have_calls = true;
    } else if (key == "usec" || key == "usecs/call" || key == "usec/call") {
      if (cond[op] != '<') return "'" + cond + "': usec takes < or <=";
      rule.usec_below = v, rule.usec_inclusive = le, have_usec = true;
    } else {
      return "unknown quantity '" + key + "' (known: calls, usec)";
    }
    if (e == t.size()) break;
  }
  // A condition left out does not restrict.
  if (!have_calls) rule.calls_above = 0, rule.calls_inclusive = true;
  if (!have_usec) rule.usec_below = 1e300, rule.usec_inclusive = true;
  return "";
}

std::string suggest_filter(const hcc::profile::Profile &p, const SuggestRule &rule, FilterSyntax syntax,
                           const std::string &profile_path) {
  using hcc::profile::inclusive;
  const int mv = p.metric_index("visits"), mt = p.metric_index("time");
  const size_t nloc = p.nloc(), nreg = p.regions.size();
  std::vector<double> calls(nreg, 0), incl_time(nreg, 0), excl_time(nreg, 0), child_calls(nreg, 0);
  std::vector<double> time_incl = mt >= 0 ? inclusive(p, size_t(mt)) : std::vector<double>();
  double total = 0;
  for (size_t c = 0; c < p.cnodes.size(); ++c) {
    int r = p.cnodes[c].region;
    // A recursive region's time is counted at its outermost call path only.
    bool nested = false;
    for (int a = p.cnodes[c].parent; a >= 0 && !nested; a = p.cnodes[size_t(a)].parent)
      nested = p.cnodes[size_t(a)].region == r;
    for (size_t l = 0; l < nloc; ++l) {
      if (mv >= 0) calls[size_t(r)] += p.at(size_t(mv), c, l);
      if (mt >= 0 && !nested) incl_time[size_t(r)] += time_incl[c * nloc + l];
      if (mt >= 0) excl_time[size_t(r)] += p.at(size_t(mt), c, l);
      if (mv >= 0 && p.cnodes[c].parent >= 0)
        child_calls[size_t(p.cnodes[size_t(p.cnodes[c].parent)].region)] += p.at(size_t(mv), c, l);
      if (mt >= 0 && p.cnodes[c].parent < 0) total += time_incl[c * nloc + l];
    }
  }
  double pair_ns = kDefaultPairCostNs, inside_ns = -1, cpu_s = 0;
  std::string pair_from = "default (no hcc.pair_cost_ns in the profile)";
  for (const auto &kv : p.attrs) {
    if (kv.first == "hcc.pair_cost_ns" && std::atof(kv.second.c_str()) > 0) {
      pair_ns = std::atof(kv.second.c_str());
      pair_from = "measured at the end of the run";
    }
    if (kv.first == "hcc.pair_inside_ns" && std::atof(kv.second.c_str()) >= 0) inside_ns = std::atof(kv.second.c_str());
    if (kv.first == "hcc.process_cpu_s") cpu_s = std::atof(kv.second.c_str());
  }
  // Measured times are wall-clock: on a busy machine they include the time
  // threads waited for a CPU, which would make every small function look
  // like work. Scaled by the process's CPU time over the measured time when
  // that is below 1 (it also is when threads block: then the own times come
  // out smaller, and more regions look small).
  const double scale = cpu_s > 0 && total > 0 && cpu_s < total ? cpu_s / total : 1.0;
  // Profiles written before hcc.pair_inside_ns: about half a pair lies
  // between a region's own timestamps.
  if (inside_ns < 0) inside_ns = pair_ns / 2;
  // Part of the pair, so never more (a profile written before the runtime
  // took the best round could hold a preempted average: 50 ns of a 20 ns pair).
  inside_ns = std::min(inside_ns, pair_ns);
  // A measured leaf's exclusive time per visit is the part of its pair inside
  // it plus its own work, so the cheapest leaf bounds that part from above.
  // When the end-of-run timing came out above that bound (it ran while the
  // core was shared, or at a lower clock), the pair cost is scaled down with
  // it: taking off more than the run's real pairs would leave the regions
  // with many callees no own work at all.
  std::string capped_by;
  {
    double cheapest = inside_ns;
    for (size_t r = 0; r < nreg; ++r) {
      const auto &reg = p.regions[r];
      if (reg.paradigm != "compiler" && reg.paradigm != "user") continue;
      if (child_calls[r] > 0 || calls[r] < kLeafMinVisits) continue;
      const double per_visit = excl_time[r] * scale * 1e9 / calls[r];
      if (per_visit < cheapest) cheapest = per_visit, capped_by = reg.name;
    }
    if (!capped_by.empty() && cheapest > 0) {
      pair_ns *= cheapest / inside_ns;
      inside_ns = cheapest;
    } else {
      capped_by.clear();
    }
  }

  std::vector<Candidate> picks, work;
  for (size_t r = 0; r < nreg; ++r) {
    const auto &reg = p.regions[r];
    // Only what an instrumentor put there; never main (the root of everything).
    if (reg.paradigm != "compiler" && reg.paradigm != "user") continue;
    if (reg.name == "main" || calls[r] <= 0) continue;
    double usec = incl_time[r] / calls[r] * 1e6;
    // The region's own work per visit: its exclusive time per visit less the
    // part of the measurement that falls inside it.
    // Each measured callee leaves the rest of its pair in the caller's time.
    auto own_work = [&](double less) {
      return std::max(0.0, (excl_time[r] * scale * 1e9 - child_calls[r] * less * (pair_ns - inside_ns)) / calls[r] -
                               less * inside_ns);
    };
    const double own_ns = own_work(1.0);
    // What the region's own work would be were the pair's parts overstated by
    // the margin: the region is work unless that, too, is small.
    const double own_upper_ns = own_work(1.0 - kPairCostMargin);
    bool calls_ok = rule.calls_inclusive ? calls[r] >= rule.calls_above : calls[r] > rule.calls_above;
    bool usec_ok = rule.usec_inclusive ? usec <= rule.usec_below : usec < rule.usec_below;
    if (!calls_ok || !usec_ok) continue;
    // Saving per visit: the pair, and the function's own time, which an
    // inlined accessor mostly loses too (kInlinedShare of it).
    Candidate c{int(r), calls[r], usec, own_ns, calls[r] * (pair_ns + kInlinedShare * own_ns) * 1e-9};
    if (own_upper_ns > kWorkRatio * pair_ns)
      work.push_back(c);  // the work itself: removing it would hide what the program does
    else
      picks.push_back(c);
  }
  auto by_overhead = [](const Candidate &a, const Candidate &b) { return a.overhead_s > b.overhead_s; };
  std::sort(picks.begin(), picks.end(), by_overhead);
  std::sort(work.begin(), work.end(), by_overhead);
  double saved = 0;
  for (const Candidate &c : picks) saved += c.overhead_s;
  const double total_cpu = total * scale;
  saved = std::min(saved, total_cpu);

  std::string out = "# Filter suggested by hcc-report --suggest-filter from " + profile_path + "\n";
  out += "# rule: calls " + std::string(rule.calls_inclusive ? ">= " : "> ") + fmt("%.0f", rule.calls_above) +
         ", usec/call " + (rule.usec_inclusive ? "<= " : "< ") +
         (rule.usec_below > 1e299 ? std::string("any") : fmt("%g", rule.usec_below)) +
         ", own work per visit <= " + fmt("%g", kWorkRatio) + " x the pair cost, also with the pair's parts " +
         fmt("%g", 100 * kPairCostMargin) + "% lower\n";
  out += "# cost of one enter/exit pair: " + fmt("%.1f", pair_ns) + " ns, " + pair_from + "; " +
         fmt("%.1f", inside_ns) + " ns of it inside the region\n";
  if (!capped_by.empty())
    out += "# (scaled down to the cheapest measured leaf's exclusive time per visit, " + capped_by +
           ": the run's pairs cost less than the end-of-run timing)\n";
  if (scale < 1)
    out += "# measured times scaled by " + fmt("%.3f", scale) + " (process CPU time " + fmt("%.3f", cpu_s) +
           " s / measured " + fmt("%.3f", total) + " s: a busy machine, or threads that waited)\n";
  out += "# " + std::to_string(picks.size()) + " region(s); estimated saving (pair + " + fmt("%g", kInlinedShare) +
         " x own work, per visit) " + fmt("%.4f", saved) + " s of " + fmt("%.4f", total_cpu) +
         " s measured (summed over locations)";
  if (total_cpu > 0 && saved < total_cpu)
    out += ": about " + fmt("%.1f", 100.0 * saved / total_cpu) + "% less time, speed-up x" +
           fmt("%.2f", total_cpu / (total_cpu - saved));
  out += "\n#   calls        usec/call  own ns     saving s    region\n";
  for (const Candidate &c : picks)
    out += "#   " + fmt("%-12.0f", c.calls) + " " + fmt("%-10.3f", c.usec_per_call) + " " + fmt("%-10.1f", c.own_ns) +
           " " + fmt("%-11.4f", c.overhead_s) + " " + p.regions[size_t(c.region)].name + "\n";
  if (!work.empty()) {
    out += "# kept, their own work per visit is above " + fmt("%g", kWorkRatio) + " x the pair cost, or may be within the margin (they are the work):\n";
    for (const Candidate &c : work)
      out += "#   " + fmt("%-12.0f", c.calls) + " " + fmt("%-10.3f", c.usec_per_call) + " " +
             fmt("%-10.1f", c.own_ns) + " -           " + p.regions[size_t(c.region)].name + "\n";
  }

  switch (syntax) {
    case FilterSyntax::Tau:
      out += "BEGIN_EXCLUDE_LIST\n";
      for (const Candidate &c : picks) {
        std::string n = hcc::filter::substitute_template_bindings(p.regions[size_t(c.region)].name);
        if (!n.empty() && n[0] == '#') n = "\"" + n + "\"";
        out += n + "\n";
      }
      out += "END_EXCLUDE_LIST\n";
      break;
    case FilterSyntax::ScoreP:
      out += "SCOREP_REGION_NAMES_BEGIN\n";
      for (const Candidate &c : picks) {
        const auto &reg = p.regions[size_t(c.region)];
        // Score-P patterns are blank-separated words: the linker name when
        // there is one, else the qualified name (all its overloads).
        if (!reg.mangled.empty() && reg.mangled != reg.name) {
          out += "  EXCLUDE MANGLED " + escape_glob(reg.mangled) + "\n";
        } else {
          std::string q = hcc::filter::name_forms(reg.name).qual;
          std::string w;
          for (char ch : escape_glob(q)) w += std::isspace(static_cast<unsigned char>(ch)) ? '?' : ch;
          out += "  EXCLUDE " + w + "\n";
        }
      }
      out += "SCOREP_REGION_NAMES_END\n";
      break;
    case FilterSyntax::Hcc:
      for (const Candidate &c : picks)
        out += "exclude " + escape_glob(hcc::filter::substitute_template_bindings(p.regions[size_t(c.region)].name)) + "\n";
      if (picks.empty()) out += "# (nothing to exclude)\n";
      break;
  }
  return out;
}

}  // namespace hcc::report
