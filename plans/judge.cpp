// The rule and cost model of plans and suggested filters (see judge.hpp and
// report/README.md, "--suggest-filter").
#include "judge.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#include "filter/filter.hpp"
#include "filter_lines.hpp"

namespace hcc::report {

namespace {

std::string fmt(const char *f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// One region's figures in one run, before the runs are summed.
struct Measured {
  double calls = 0, incl_s = 0, own_total_ns = 0, own_upper_total_ns = 0, pair_total_ns = 0, saving_s = 0;
  double count_total_ns = 0;
  double paid_total_ns = 0;  // what measuring it cost the run: less than the pairs when it was throttled
  double in_run_total_ns = 0;  // measurement_cpu on its call paths, where enough samples held it
  bool has_children = false, recursive = false;
  bool count_stopped = false;  // its count stopped in a run (HCC_COUNT_STOP): visits a lower bound
};

// The key regions are summed by across profiles: name and linker name.
std::string region_key(const hcc::profile::Region &reg) { return reg.name + '\0' + reg.mangled; }

}  // namespace

std::string parse_suggest_rule(const std::string &text, SuggestRule &rule) {
  std::string t;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) t += c;
  if (t.empty()) return "is empty";
  bool have_calls = false, have_usec = false, have_budget = false;
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
    const bool percent = key == "budget" && end && *end == '%' && end[1] == '\0';
    if (num.empty() || (*end != '\0' && !percent) || v < 0)
      return "condition '" + cond + "' has no number after the operator";
    if (key == "calls" || key == "numcalls") {
      if (cond[op] != '>') return "'" + cond + "': calls takes > or >=";
      rule.calls_above = v, rule.calls_inclusive = le, have_calls = true;
    } else if (key == "budget") {
      // Percent of the run (the trailing % is allowed above).
      if (cond[op] != '<') return "'" + cond + "': budget takes < or <=";
      if (!(v > 0) || v > 100) return "'" + cond + "': budget takes a percentage above 0, at most 100";
      rule.budget = v / 100, have_budget = true;
    } else if (key == "usec" || key == "usecs/call" || key == "usec/call") {
      if (cond[op] != '<') return "'" + cond + "': usec takes < or <=";
      rule.usec_below = v, rule.usec_inclusive = le, have_usec = true;
    } else {
      return "unknown quantity '" + key + "' (known: calls, usec, budget)";
    }
    if (e == t.size()) break;
  }
  // A condition left out does not restrict.
  if (!have_calls) rule.calls_above = 0, rule.calls_inclusive = true;
  if (!have_usec) rule.usec_below = 1e300, rule.usec_inclusive = true;
  if (!have_budget) rule.budget = kDefaultBudget;
  return "";
}

std::string count_text(double calls) {
  if (calls >= 1e9) return fmt("%.3g G", calls / 1e9);
  if (calls >= 1e6) return fmt("%.3g M", calls / 1e6);
  return fmt("%.0f", calls);
}

namespace {

// Measurement CPU per region (seconds, summed over locations): samples that
// landed in hcc's code, charged by the runtime to the innermost open frame,
// which is the caller's before an enter's push and after an exit's pop. So a
// call path's measurement is split between its own visits and its
// children's, in proportion to their visits (one pair each), as libhcc's
// throttling splits it (runtime/core/auto_throttle.cpp). Empty of values
// (zeros) when the profile has no measurement_cpu or no visits.
std::vector<double> in_run_measurement(const hcc::profile::Profile &p, int mv) {
  const size_t nloc = p.nloc(), nreg = p.regions.size(), ncn = p.cnodes.size();
  std::vector<double> out(nreg, 0);
  const int mm = p.metric_index("measurement_cpu");
  if (mm < 0 || mv < 0) return out;
  std::vector<double> visits(ncn, 0), meas(ncn, 0), all(ncn, 0);
  for (size_t c = 0; c < ncn; ++c)
    for (size_t l = 0; l < nloc; ++l) {
      visits[c] += p.at(size_t(mv), c, l);
      meas[c] += p.at(size_t(mm), c, l);
    }
  for (size_t c = 0; c < ncn; ++c) {
    all[c] += visits[c];
    if (p.cnodes[c].parent >= 0) all[size_t(p.cnodes[c].parent)] += visits[c];
  }
  for (size_t c = 0; c < ncn; ++c) {
    const size_t r = size_t(p.cnodes[c].region);
    if (meas[c] > 0 && all[c] > 0) out[r] += meas[c] * visits[c] / all[c];
    const int up = p.cnodes[c].parent;
    if (up >= 0 && meas[size_t(up)] > 0 && all[size_t(up)] > 0)
      out[r] += meas[size_t(up)] * visits[c] / all[size_t(up)];
  }
  return out;
}

// One run's regions, measured with that run's pair cost (judge.hpp).
RunCost measure_run(const ProfileInput &in, std::map<std::string, Measured> &sums,
                    std::map<std::string, Verdict> &names) {
  using hcc::profile::inclusive;
  const hcc::profile::Profile &p = *in.p;
  RunCost run;
  run.path = in.path;
  const int mv = p.metric_index("visits"), mt = p.metric_index("time"), mrec = p.metric_index("recursive_visits");
  const size_t nloc = p.nloc(), nreg = p.regions.size();
  std::vector<double> calls(nreg, 0), incl_time(nreg, 0), excl_time(nreg, 0), child_calls(nreg, 0);
  std::vector<char> recursive(nreg, 0);
  std::vector<double> time_incl = mt >= 0 ? inclusive(p, size_t(mt)) : std::vector<double>();
  double total = 0;
  for (size_t c = 0; c < p.cnodes.size(); ++c) {
    int r = p.cnodes[c].region;
    // A recursive region's time is counted at its outermost call path only.
    bool nested = false;
    for (int a = p.cnodes[c].parent; a >= 0 && !nested; a = p.cnodes[size_t(a)].parent)
      nested = p.cnodes[size_t(a)].region == r;
    // Recursion libhcc folded (recursion mode) leaves no nested path: a call
    // path with recursive visits, or below one, ran inside it, where count
    // mode takes the timed paths.
    bool folded = false;
    for (int a = int(c); a >= 0 && !folded && mrec >= 0; a = p.cnodes[size_t(a)].parent)
      for (size_t l = 0; l < nloc && !folded; ++l) folded = p.at(size_t(mrec), size_t(a), l) > 0;
    if (nested || folded) recursive[size_t(r)] = 1;
    for (size_t l = 0; l < nloc; ++l) {
      if (mv >= 0) calls[size_t(r)] += p.at(size_t(mv), c, l);
      if (mt >= 0 && !nested) incl_time[size_t(r)] += time_incl[c * nloc + l];
      if (mt >= 0) excl_time[size_t(r)] += p.at(size_t(mt), c, l);
      if (mv >= 0 && p.cnodes[c].parent >= 0)
        child_calls[size_t(p.cnodes[size_t(p.cnodes[c].parent)].region)] += p.at(size_t(mv), c, l);
      if (mt >= 0 && p.cnodes[c].parent < 0) total += time_incl[c * nloc + l];
    }
  }
  const std::vector<double> in_run_s = in_run_measurement(p, mv);
  double pair_ns = kDefaultPairCostNs, inside_ns = -1, cpu_s = 0, count_timed = 0, throttled_ns = -1;
  double sample_ns = 0;  // the CPU time one sample stands for (hcc.sampling: "N Hz ...")
  // Throttled regions (libhcc's default throttling): timed for their first
  // calls only, every visit counted; "N name; N name".
  std::map<std::string, double> timed_calls;
  run.pair_from = "default (no hcc.pair_cost_ns in the profile)";
  for (const auto &kv : p.attrs) {
    if (kv.first == "hcc.pair_cost_ns" && std::atof(kv.second.c_str()) > 0) {
      pair_ns = std::atof(kv.second.c_str());
      run.pair_from = "measured at the end of the run";
    }
    if (kv.first == "hcc.pair_inside_ns" && std::atof(kv.second.c_str()) >= 0) inside_ns = std::atof(kv.second.c_str());
    if (kv.first == "hcc.process_cpu_s") cpu_s = std::atof(kv.second.c_str());
    if (kv.first == "hcc.sampling" && std::atof(kv.second.c_str()) > 0) sample_ns = 1e9 / std::atof(kv.second.c_str());
    if (kv.first == "hcc.count_pair_ns" && std::atof(kv.second.c_str()) > 0) count_timed = std::atof(kv.second.c_str());
    if (kv.first == "hcc.throttled_pair_ns" && std::atof(kv.second.c_str()) > 0)
      throttled_ns = std::atof(kv.second.c_str());
    if (kv.first == "hcc.throttled_calls") {
      size_t b = 0;
      while (b < kv.second.size()) {
        size_t e = kv.second.find("; ", b);
        if (e == std::string::npos) e = kv.second.size();
        const std::string entry = kv.second.substr(b, e - b);
        const size_t sp = entry.find(' ');
        if (sp != std::string::npos && std::atof(entry.c_str()) > 0)
          timed_calls[entry.substr(sp + 1)] = std::atof(entry.c_str());
        b = e + 2;
      }
    }
  }
  // The calls of region r that were timed: all, or a throttled region's first.
  auto timed_of = [&](size_t r) {
    auto it = timed_calls.find(p.regions[r].name);
    return it == timed_calls.end() ? calls[r] : std::min(calls[r], it->second);
  };
  // Never below kCountPairNs (judge.hpp says why).
  const double count_ns = std::max(count_timed, kCountPairNs);
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
  {
    double cheapest = inside_ns;
    std::string capped_by;
    for (size_t r = 0; r < nreg; ++r) {
      const auto &reg = p.regions[r];
      if (reg.paradigm != "compiler" && reg.paradigm != "user") continue;
      if (child_calls[r] > 0 || calls[r] < kLeafMinVisits || timed_of(r) < calls[r]) continue;
      if (hcc::profile::time_from_samples(reg)) continue;  // no pair inside its time
      const double per_visit = excl_time[r] * scale * 1e9 / calls[r];
      if (per_visit < cheapest) cheapest = per_visit, capped_by = reg.name;
    }
    if (!capped_by.empty() && cheapest > 0) {
      pair_ns *= cheapest / inside_ns;
      inside_ns = cheapest;
      run.capped_by = capped_by;
    }
  }
  run.pair_ns = pair_ns, run.inside_ns = inside_ns, run.scale = scale, run.cpu_s = cpu_s, run.total = total;
  run.count_ns = count_timed;

  for (size_t r = 0; r < nreg; ++r) {
    const auto &reg = p.regions[r];
    // Only what an instrumentor put there; never main (the root of everything).
    if (reg.paradigm != "compiler" && reg.paradigm != "user") continue;
    if (reg.name == "main" || calls[r] <= 0) continue;
    // The region's own work: its exclusive time less the part of the
    // measurement that falls inside it; each measured callee leaves the rest
    // of its pair in the caller's time.
    // A throttled region's times cover its timed calls: per visit they are
    // taken as the same for the rest, whose measurement cost a throttled
    // visit (hcc.throttled_pair_ns), not a pair.
    // A counted or throttled region of a sampled run (time_from_samples):
    // its time is the CPU time of its samples over all its visits, and holds
    // no part of any pair (samples in hcc's code are measurement_cpu), so
    // it is its own work as it stands: CPU time, neither extrapolated nor
    // scaled.
    const bool sampled = hcc::profile::time_from_samples(reg);
    const double timed = timed_of(r), extrapolate = timed > 0 && !sampled ? calls[r] / timed : 1.0;
    const double rest_ns = (calls[r] - timed) * (throttled_ns >= 0 ? std::min(throttled_ns, pair_ns) : pair_ns);
    auto own_total = [&](double less) {
      if (sampled) return excl_time[r] * 1e9;
      return extrapolate * std::max(0.0, excl_time[r] * scale * 1e9 - child_calls[r] * less * (pair_ns - inside_ns) -
                                             timed * less * inside_ns);
    };
    Measured &m = sums[region_key(reg)];
    m.calls += calls[r];
    m.incl_s += incl_time[r] * extrapolate;  // measured (or sampled), as the rule's usec/call is (TAU's)
    m.own_total_ns += own_total(1.0);
    // What the region's own work would be were the pair's parts overstated by
    // the margin: the region is work unless that, too, is small.
    m.own_upper_total_ns += own_total(1.0 - kPairCostMargin);
    // The budget prices every visit at a timed pair, throttled or not: the
    // runtime throttled it because a pair costs more than a tenth of its
    // visit, and a throttled visit, timed at exit on a warm cache, cost ten
    // times that among cache misses (memlookup: ~34 ns against 3.5), which
    // the end-of-run timing cannot see. What the run paid (the savings) is
    // its own. Where the run sampled enough of its call paths in hcc's code
    // (measurement_cpu), that is the price of its visits when dearer.
    const double in_run_ns = in_run_s[r] * 1e9;  // over all its visits
    const bool in_run = in_run_price_trusted(in_run_ns, sample_ns);
    const double paid_ns = in_run ? std::max(timed * pair_ns + rest_ns, in_run_ns) : timed * pair_ns + rest_ns;
    m.pair_total_ns += calls[r] * (in_run ? std::max(pair_ns, in_run_ns / calls[r]) : pair_ns);
    m.paid_total_ns += paid_ns;
    m.in_run_total_ns += in_run ? in_run_ns : 0;
    m.count_total_ns += calls[r] * std::min(count_ns, pair_ns);
    // Saving: the pair, and the function's own time, which an inlined
    // accessor mostly loses too (kInlinedShare of it).
    m.saving_s += (paid_ns + kInlinedShare * own_total(1.0)) * 1e-9;
    m.has_children = m.has_children || child_calls[r] > 0;
    m.recursive = m.recursive || recursive[r];
    m.count_stopped = m.count_stopped || hcc::profile::visits_lower_bound(reg);
    Verdict &v = names[region_key(reg)];
    v.name = reg.name, v.mangled = reg.mangled;
    // The evidence says so (cube/profile.hpp's rule, as every view marks it).
    v.from_samples = v.from_samples || hcc::profile::time_from_samples(reg);
    if (std::find(v.from.begin(), v.from.end(), in.path) == v.from.end()) v.from.push_back(in.path);
  }
  return run;
}

// The budget (judge.hpp): until the regions still timed cost at most
// `budget` of `base` (the run's time without any pair), counts the regions
// kept timed (`order`: work, trunk and the regions the rule did not match),
// least own work per visit first, the trunk last; a recursive one that is
// not the trunk is left out instead (count mode would take the timed paths
// there), a recursive trunk stays timed. When counting every one of them is
// not enough, the counted regions that are not the trunk are left out,
// in the same order. A counted region still costs a counted pair a visit;
// its saving is the rest of its pair, its own work stays (it is still
// called the same way). The budget is kept in timed pairs (pair_ns); the
// savings are against what the runs paid (paid_ns: less for a throttled
// region, whose later visits were only counted).
// A kernel (kKernelPairs): the budget keeps it timed.
bool is_kernel(const Verdict &v) { return v.own_ns >= kKernelPairs * v.pair_ns; }

void apply_budget(Judgement &j, double budget, double kept_pairs_s, double base_s, std::vector<Verdict> order) {
  if (base_s <= 0) return;
  j.overhead_before = j.overhead_after = kept_pairs_s / base_s;
  if (budget >= 1 || j.overhead_before <= budget) return;  // 100 %: the budget is off
  // Kernels (kKernelPairs) stay timed and their pairs are not the budget's
  // to spend: what it may change must fit in the budget on its own.
  double kernel_pairs_s = 0;
  for (auto *list : {&j.work, &j.trunk, &order})
    for (const Verdict &v : *list)
      if (is_kernel(v)) kernel_pairs_s += v.calls * v.pair_ns * 1e-9;
  j.kernels_over = kernel_pairs_s > 0;
  if (kept_pairs_s - kernel_pairs_s <= budget * base_s) return;
  for (auto *list : {&j.work, &j.trunk}) {
    order.insert(order.end(), list->begin(), list->end());
    list->clear();
  }
  std::sort(order.begin(), order.end(), [](const Verdict &a, const Verdict &b) {
    if (a.trunk != b.trunk) return !a.trunk;
    return a.own_ns != b.own_ns ? a.own_ns < b.own_ns : a.name < b.name;
  });
  auto within = [&] { return kept_pairs_s - kernel_pairs_s <= budget * base_s; };
  // What counting a region takes off the budget: the clock's part of its pairs.
  auto counting_frees = [](const Verdict &v) { return v.calls * std::max(0.0, v.pair_ns - v.count_ns) * 1e-9; };
  std::vector<Verdict> stay;
  for (Verdict &v : order) {
    if (within() || (v.recursive && v.trunk)) {
      stay.push_back(v);
    } else if (is_kernel(v)) {
      stay.push_back(v);  // a kernel: timed, whatever the budget says
    } else if (v.recursive) {
      kept_pairs_s -= v.calls * v.pair_ns * 1e-9;
      v.saving_s = v.calls * v.paid_ns * 1e-9;  // its own work stays: it is work
      j.over.push_back(v);
    } else {
      kept_pairs_s -= counting_frees(v);
      v.saving_s = v.calls * std::max(0.0, v.paid_ns - v.count_ns) * 1e-9;
      j.counted.push_back(v);
    }
  }
  // Counting alone was not enough: leave out counted regions, not the trunk.
  for (size_t i = 0; i < j.counted.size() && !within();) {
    Verdict &v = j.counted[i];
    if (v.trunk) {
      ++i;
      continue;
    }
    kept_pairs_s -= v.calls * v.count_ns * 1e-9;
    v.saving_s = v.calls * v.paid_ns * 1e-9;
    j.over.push_back(v);
    j.counted.erase(j.counted.begin() + long(i));
  }
  // Counted regions the budget no longer needs (the ones left out made the
  // room) are timed again, most own work first.
  for (size_t i = j.counted.size(); i-- > 0;) {
    const double back = counting_frees(j.counted[i]);
    if (kept_pairs_s + back - kernel_pairs_s > budget * base_s) continue;
    kept_pairs_s += back;
    j.counted[i].saving_s = 0;
    stay.push_back(j.counted[i]);
    j.counted.erase(j.counted.begin() + long(i));
  }
  // Those that stay timed are listed as before (a region the rule did not
  // match is not listed).
  for (const Verdict &v : stay)
    if (v.rule_matched) (v.kept_as_work ? j.work : j.trunk).push_back(v);
  j.overhead_after = std::max(0.0, kept_pairs_s) / base_s;
}

}  // namespace

Judgement judge_regions(const std::vector<ProfileInput> &profiles, const SuggestRule &rule) {
  Judgement j;
  std::map<std::string, Measured> sums;
  std::map<std::string, Verdict> names;
  double total_measured = 0, all_pairs_s = 0, kept_pairs_s = 0;
  std::vector<Verdict> unmatched;  // judged, but not matched by the rule
  for (const ProfileInput &in : profiles) {
    j.runs.push_back(measure_run(in, sums, names));
    j.total_cpu += j.runs.back().total * j.runs.back().scale;
    total_measured += j.runs.back().total;
  }
  for (auto &[key, m] : sums) {
    Verdict v = names[key];
    v.calls = m.calls;
    v.usec_per_call = m.incl_s / m.calls * 1e6;
    v.own_ns = m.own_total_ns / m.calls;
    v.pair_ns = m.pair_total_ns / m.calls;
    v.count_ns = m.count_total_ns / m.calls;
    v.paid_ns = m.paid_total_ns / m.calls;
    v.in_run_ns = m.in_run_total_ns / m.calls;
    v.saving_s = m.saving_s;
    v.incl_share = total_measured > 0 ? m.incl_s / total_measured : 0;
    v.recursive = m.recursive;
    v.trunk = m.has_children && v.incl_share >= kTrunkShare;
    all_pairs_s += m.paid_total_ns * 1e-9;  // what the run paid: its time without them
    // A count the run stopped: counting it cost more than 2% of the run,
    // with no clock, so measuring it at all costs more than it tells. Left
    // out whatever the rule says (its visits, a lower bound, and the time
    // per call over them, an upper bound, cannot be judged by it); a leaf,
    // or the run would not have stopped it.
    // Its saving is what its visits cost the runs (the timed ones' pairs, the
    // counted ones' lane): its own work, which the samples measured over
    // visits that were not all counted, is not known per visit.
    if (m.count_stopped && !m.has_children && !m.recursive) {
      v.rule_matched = v.count_stopped = true;
      v.saving_s = m.paid_total_ns * 1e-9;
      j.picks.push_back(v);
      continue;
    }
    bool calls_ok = rule.calls_inclusive ? v.calls >= rule.calls_above : v.calls > rule.calls_above;
    bool usec_ok = rule.usec_inclusive ? v.usec_per_call <= rule.usec_below : v.usec_per_call < rule.usec_below;
    if (!calls_ok || !usec_ok) {
      unmatched.push_back(v);  // not a candidate: stays timed, unless the budget counts it
      continue;
    }
    v.rule_matched = true;
    if (m.own_upper_total_ns / m.calls > kWorkRatio * v.pair_ns) {
      v.kept_as_work = true;
      j.work.push_back(v);  // the work itself: removing it would hide what the program does
    } else if (v.trunk) {
      j.trunk.push_back(v);  // leaving it out would flatten the tree under it
    } else {
      j.picks.push_back(v);
    }
  }
  for (const auto *list : {&unmatched, &j.work, &j.trunk})
    for (const Verdict &v : *list) kept_pairs_s += v.calls * v.pair_ns * 1e-9;
  apply_budget(j, rule.budget, kept_pairs_s, j.total_cpu - all_pairs_s, std::move(unmatched));
  auto by_saving = [](const Verdict &a, const Verdict &b) {
    return a.saving_s != b.saving_s ? a.saving_s > b.saving_s : a.name < b.name;
  };
  for (auto *list : {&j.picks, &j.counted, &j.over, &j.work, &j.trunk})
    std::sort(list->begin(), list->end(), by_saving);
  for (auto *list : {&j.picks, &j.counted, &j.over})
    for (const Verdict &v : *list) j.saved += v.saving_s;
  j.saved = std::min(j.saved, j.total_cpu);
  return j;
}

namespace {

// The evidence of a verdict whose times came from samples says so (the
// region was counted or throttled in a run it was judged on).
std::string from_samples(const Verdict &v) { return v.from_samples ? " (time from samples)" : ""; }

// What the run's samples in hcc's code on its call paths said a visit cost
// (measurement_cpu), where there were enough of them to price it.
std::string in_run_text(const Verdict &v) {
  return v.in_run_ns > 0 ? " (" + fmt("%.3g", v.in_run_ns) + " ns a call in the run's measurement_cpu)" : "";
}

// A name or path on one comment line (filter_lines.hpp: a line break would
// end the comment, another control character make the file unreadable).
std::string one_line(std::string s) { return comment_text(std::move(s)); }

// The lines a filter's leading comment shares between both views: the cost
// model of each run and the estimated saving.
std::string cost_lines(const Judgement &j, double budget, bool name_runs) {
  std::string out;
  for (const RunCost &r : j.runs) {
    out += "# cost of one enter/exit pair" + (name_runs ? " in " + r.path : std::string()) + ": " +
           fmt("%.1f", r.pair_ns) + " ns, " + r.pair_from + "; " + fmt("%.1f", r.inside_ns) +
           " ns of it inside the region" +
           (r.count_ns > 0 ? "; a counted pair " + fmt("%.1f", r.count_ns) + " ns (priced at " +
                                 fmt("%g", std::max(r.count_ns, kCountPairNs)) + ")"
                           : std::string()) +
           "\n";
    if (!r.capped_by.empty())
      out += "# (scaled down to the cheapest measured leaf's exclusive time per visit, " + one_line(r.capped_by) +
             ": the run's pairs cost less than the end-of-run timing)\n";
    if (r.scale < 1)
      out += "# measured times scaled by " + fmt("%.3f", r.scale) + " (process CPU time " + fmt("%.3f", r.cpu_s) +
             " s / measured " + fmt("%.3f", r.total) + " s: a busy machine, or threads that waited)\n";
  }
  if (!j.counted.empty() || !j.over.empty())
    out += "# budget: the regions kept timed cost " + fmt("%.1f", 100 * j.overhead_before) + "% of the run, over the " +
           fmt("%g", 100 * budget) + "% budget: " + std::to_string(j.counted.size()) + " counted instead of timed, " +
           std::to_string(j.over.size()) + " left out; now " + fmt("%.1f", 100 * j.overhead_after) + "%\n";
  else
    out += "# budget: the regions kept timed cost " + fmt("%.1f", 100 * j.overhead_after) + "% of the run (budget " +
           fmt("%g", 100 * budget) + "%)\n";
  if (j.kernels_over)
    out += "# over the budget, kept timed: regions whose own work per visit is at least " + fmt("%g", kKernelPairs) +
           " pairs (kernels: their pair is under a tenth of their time)\n";
  out += "# " + std::to_string(j.picks.size() + j.over.size()) + " region(s) left out, " + std::to_string(j.counted.size()) +
         " counted; estimated saving (pair + " + fmt("%g", kInlinedShare) +
         " x own work for those left out, the clock's part of the pair for those counted, per visit) " +
         fmt("%.4f", j.saved) +
         " s of " + fmt("%.4f", j.total_cpu) + " s measured (summed over locations)";
  if (j.total_cpu > 0 && j.saved < j.total_cpu)
    out += ": about " + fmt("%.1f", 100.0 * j.saved / j.total_cpu) + "% less time, speed-up x" +
           fmt("%.2f", j.total_cpu / (j.total_cpu - j.saved));
  return out + "\n";
}

std::string rule_line(const SuggestRule &rule) {
  return "# rule: calls " + std::string(rule.calls_inclusive ? ">= " : "> ") + fmt("%.0f", rule.calls_above) +
         ", usec/call " + (rule.usec_inclusive ? "<= " : "< ") +
         (rule.usec_below > 1e299 ? std::string("any") : fmt("%g", rule.usec_below)) +
         ", own work per visit <= " + fmt("%g", kWorkRatio) + " x the pair cost, also with the pair's parts " +
         fmt("%g", 100 * kPairCostMargin) + "% lower; budget " + fmt("%g", 100 * rule.budget) + "% of the run\n";
}

// The rule lines of the regions a filter leaves out or counts, in the
// judgement's order, and the regions whose names no line can hold
// (filter_lines.hpp), with why.
struct RuleLines {
  std::string exclude, count;
  std::vector<std::pair<Verdict, std::string>> unwritten;
};

// Builds the lines and takes the regions that cannot have one out of the
// judgement: they stay measured, so their saving is not counted. (TAU's
// format cannot count: its counted regions stay timed, see suggest_filter.)
RuleLines rule_lines(Judgement &j, FilterSyntax syntax) {
  RuleLines out;
  auto take = [&](std::vector<Verdict> &list, bool count, std::string &lines) {
    std::vector<Verdict> kept;
    for (Verdict &v : list) {
      const FilterLine line = region_line(syntax, v.name, v.mangled, count);
      if (line.text.empty()) {
        j.saved = std::max(0.0, j.saved - v.saving_s);
        out.unwritten.push_back({std::move(v), line.why});
        continue;
      }
      lines += line.text;
      kept.push_back(std::move(v));
    }
    list = std::move(kept);
  };
  take(j.picks, false, out.exclude);
  take(j.over, false, out.exclude);
  if (syntax != FilterSyntax::Tau) take(j.counted, true, out.count);
  return out;
}

// The comment naming the regions left without a line, how many and why.
std::string unwritten_comment(const RuleLines &lines) {
  if (lines.unwritten.empty()) return "";
  std::string out = "# " + std::to_string(lines.unwritten.size()) +
                    " region(s) not written: their names cannot be one filter line (a profile's names are written "
                    "only when the filter parser reads the line back as that region alone); they stay measured\n";
  for (const auto &[v, why] : lines.unwritten) out += "# not written " + one_line(v.name) + ": " + why + "\n";
  return out;
}

// The region block of a Score-P filter: EXCLUDE lines, then COUNT lines.
std::string scorep_block(const RuleLines &lines) {
  return "SCOREP_REGION_NAMES_BEGIN\n" + lines.exclude + lines.count + "SCOREP_REGION_NAMES_END\n";
}

// "run.cubex", "a.cubex + b.cubex".
std::string joined(const std::vector<std::string> &paths) {
  std::string s;
  for (const std::string &p : paths) s += (s.empty() ? "" : " + ") + p;
  return s;
}


}  // namespace

std::string suggest_filter(const hcc::profile::Profile &p, const SuggestRule &rule, FilterSyntax syntax,
                           const std::string &profile_path) {
  Judgement j = judge_regions({{&p, profile_path}}, rule);
  const RuleLines lines = rule_lines(j, syntax);
  std::string out = "# Filter suggested by hcc-report --suggest-filter from " + one_line(profile_path) + "\n";
  out += rule_line(rule) + cost_lines(j, rule.budget, false);
  out += "#   calls        usec/call  own ns     saving s    region\n";
  for (const Verdict &c : j.picks)
    out += "#   " + fmt("%-12.0f", c.calls) + " " + fmt("%-10.3f", c.usec_per_call) + " " + fmt("%-10.1f", c.own_ns) +
           " " + fmt("%-11.4f", c.saving_s) + " " + one_line(c.name) + from_samples(c) + "\n";
  if (!j.counted.empty() || !j.over.empty()) {
    out += "# counted (or, recursive or counting not enough, left out) to keep the timed regions within the budget:\n";
    for (const auto *list : {&j.counted, &j.over})
      for (const Verdict &c : *list)
        out += "#   " + fmt("%-12.0f", c.calls) + " " + fmt("%-10.3f", c.usec_per_call) + " " + fmt("%-10.1f", c.own_ns) +
               " " + fmt("%-11.4f", c.saving_s) + " " + one_line(c.name) + (list == &j.over ? " (left out)" : "") +
               from_samples(c) + "\n";
  }
  if (!j.work.empty()) {
    out += "# kept, their own work per visit is above " + fmt("%g", kWorkRatio) + " x the pair cost, or may be within the margin (they are the work):\n";
    for (const Verdict &c : j.work)
      out += "#   " + fmt("%-12.0f", c.calls) + " " + fmt("%-10.3f", c.usec_per_call) + " " +
             fmt("%-10.1f", c.own_ns) + " -           " + one_line(c.name) + from_samples(c) + "\n";
  }
  if (!j.trunk.empty()) {
    out += "# kept, they hold the call-path trunk (>= " + fmt("%g", 100 * kTrunkShare) +
           "% of the time, with measured children):\n";
    for (const Verdict &c : j.trunk)
      out += "#   " + fmt("%-12.0f", c.calls) + " " + fmt("%-10.3f", c.usec_per_call) + " " +
             fmt("%-10.1f", c.own_ns) + " -           " + one_line(c.name) + from_samples(c) + "\n";
  }

  out += unwritten_comment(lines);

  switch (syntax) {
    case FilterSyntax::Tau:
      // TAU's lists cannot count: the budget's counted regions stay timed.
      if (!j.counted.empty()) out += "# (TAU's format has no count mode: the counted regions above stay timed)\n";
      out += "BEGIN_EXCLUDE_LIST\n" + lines.exclude + "END_EXCLUDE_LIST\n";
      break;
    case FilterSyntax::ScoreP:
      out += scorep_block(lines);
      break;
    case FilterSyntax::Hcc:
      out += lines.exclude + lines.count;
      if (j.picks.empty() && j.over.empty() && j.counted.empty()) out += "# (nothing to exclude)\n";
      break;
  }
  return out;
}

std::string plan_text(const std::vector<ProfileInput> &given, const SuggestRule &rule) {
  // Every path and name lands on a comment line.
  std::vector<ProfileInput> profiles = given;
  std::vector<std::string> paths;
  for (ProfileInput &in : profiles) paths.push_back(in.path = one_line(in.path));
  Judgement j = judge_regions(profiles, rule);
  const RuleLines lines = rule_lines(j, FilterSyntax::ScoreP);
  std::string out = "# hcc plan written by hcc-report --plan from " + one_line(joined(paths)) + "\n";
  out += "# A Score-P filter file: the next build through hcc leaves the EXCLUDE'd functions out and counts\n"
         "# the COUNT'ed ones (visits, no clock) at compile time (a file named hcc.plan beside the sources, or\n"
         "# HCC_PLAN=FILE; HCC_PLAN=off ignores it). Edit it freely; hcc --hcc-verbose prints the '# left out',\n"
         "# '# counted' and '# kept' lines when it applies it.\n";
  out += rule_line(rule) + cost_lines(j, rule.budget, true);
  // One line per decision, its evidence: calls, inclusive time per call, what
  // measuring it costs per call and in all, the profiles it came from.
  for (const Verdict &v : j.picks) {
    if (v.count_stopped) {  // its visits a lower bound, its time per call an upper one
      out += "# left out " + one_line(v.name) + ": its count stopped (counting cost more than 2% of the run) after " +
             count_text(v.calls) + " calls in " + joined(v.from) + ", at most " + fmt("%.3g", v.usec_per_call * 1e3) +
             " ns per call" + from_samples(v) + "; measuring those cost about " + fmt("%.3g", v.saving_s) + " s\n";
      continue;
    }
    out += "# left out " + one_line(v.name) + ": " + fmt("%.3g", v.usec_per_call * 1e3) + " ns per call" +
           from_samples(v) + " over " + count_text(v.calls) + " calls in " + joined(v.from) + "; measuring it costs " +
           fmt("%.3g", v.pair_ns) + " ns per call" + in_run_text(v) + ", own work " + fmt("%.3g", v.own_ns) +
           " ns; saves about " + fmt("%.3g", v.saving_s) + " s\n";
  }
  for (const Verdict &v : j.work)
    out += "# kept " + one_line(v.name) + ": its own work, " + fmt("%.3g", v.own_ns) + " ns per call" +
           from_samples(v) + " over " + count_text(v.calls) + " calls in " + joined(v.from) + ", is above " +
           fmt("%g", kWorkRatio) +
           " x the " + fmt("%.3g", v.pair_ns) + " ns pair" + in_run_text(v) +
           " (or within the margin): it is the work\n";
  for (const Verdict &v : j.trunk)
    out += "# kept " + one_line(v.name) + ": it holds the call-path trunk (" + fmt("%.0f", 100 * v.incl_share) +
           "% of the time in " + joined(v.from) + ", with measured children)" + from_samples(v) + "\n";
  // The budget's decisions: the same evidence, and why counting was not the answer.
  auto budget_evidence = [&](const Verdict &v) {
    return fmt("%.3g", v.usec_per_call * 1e3) + " ns per call" + from_samples(v) + " over " + count_text(v.calls) +
           " calls in " + joined(v.from) + ", own work " + fmt("%.3g", v.own_ns) + " ns; the timed regions cost " +
           fmt("%.1f", 100 * j.overhead_before) + "% of the run (budget " + fmt("%g", 100 * rule.budget) + "%)";
  };
  for (const Verdict &v : j.counted)
    out += "# counted " + one_line(v.name) + ": " + budget_evidence(v) +
           ": counted, not timed (exact visits, its time the CPU time of its samples); saves about " +
           fmt("%.3g", v.saving_s) + " s\n";
  for (const Verdict &v : j.over)
    out += "# left out " + one_line(v.name) + ": " + budget_evidence(v) +
           (v.recursive ? " and it is recursive (counting it would cost a timed pair)"
                        : " and counting every such region would still cost more") +
           "; saves about " + fmt("%.3g", v.saving_s) + " s\n";
  return out + unwritten_comment(lines) + scorep_block(lines);
}

}  // namespace hcc::report
