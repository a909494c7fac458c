// Which regions cost more to measure than they tell, what they cost, and a
// filter file or an instrumentation plan that leaves them out: the one rule
// and cost model behind hcc-report --suggest-filter and --plan and libhcc's
// HCC_PLAN_UPDATE (plans/README.md).
#pragma once

#include <string>
#include <vector>

#include "profile.hpp"

namespace hcc::report {

// The default measurement budget: 3 % of the run. Below the 5 % a user
// would tolerate because a pair costs more in some code than the end-of-run
// timing says (a memory-bound loop, a clock read that waits for the work
// before it: docs/performance.md, "The dilation table").
constexpr double kDefaultBudget = 0.03;

// A region is suggested when every condition holds. Default: TAU's
// tau_reduce rule, `numcalls > 1000000 & usecs/call < 2`.
struct SuggestRule {
  double calls_above = 1000000;  // calls > N (>= when calls_inclusive)
  bool calls_inclusive = false;
  double usec_below = 2;         // inclusive µs per call < X (<= when usec_inclusive)
  bool usec_inclusive = false;
  // The measurement budget (judge_regions): the pairs of the regions kept
  // timed may cost at most this share of the run's own time, else regions
  // are counted instead of timed (or left out). `budget<P` in the rule text,
  // P in percent; 100 turns it off.
  double budget = kDefaultBudget;
};

// "calls>N,usec<X" (also "numcalls > N & usecs/call < X", >=, <=); either
// condition may be left out. Returns "" or the reason the text is wrong.
std::string parse_suggest_rule(const std::string &text, SuggestRule &rule);

// Per-pair cost used when the profile has no hcc.pair_cost_ns attribute.
constexpr double kDefaultPairCostNs = 20.0;

// A region whose own work per visit (exclusive time per visit, scaled to CPU
// time, less the part of its own pair measured inside it,
// hcc.pair_inside_ns, and the rest of its callees' pairs) is above kWorkRatio
// times the pair cost is the program's work: never suggested, whatever the
// rule. 0.5: a region is suggested only when measuring it costs at least
// twice its own work (pathtracer.cpp: Ball::hit, 8 statements of
// ray-sphere arithmetic, stays).
constexpr double kWorkRatio = 0.5;
// Own work is a small difference of large numbers: a region with many
// measured callees per visit loses a whole callee pair's rest per callee, so
// a pair cost timed a little too high (the end-of-run timing on a scratch
// state, a busy core) takes its work to zero (pathtracer.cpp's radiance: 10
// callee visits per visit, 30 to 90 ns of own work). A region is suggested
// only when its own work stays at or below the line even with the pair's
// parts taken kPairCostMargin lower: leaving out a region that is work hides
// it, keeping a small one costs only its pair.
constexpr double kPairCostMargin = 0.25;
// Visits a leaf region needs before its exclusive time per visit bounds the
// part of a pair measured inside a region (judge.cpp).
constexpr double kLeafMinVisits = 1000;
// The price of a counted pair (count mode: two calls, no clock): the run's
// hcc.count_pair_ns (timed at exit, 3.4 ns on a Zen 5 guest) when that is
// higher, else this. A floor because the exit timing runs on a warm cache:
// in memory-bound code a counted call cost ~25 ns in the program
// (tests/bench/standins/memlookup.c: 1.54x plain counted, 1.00x left out),
// and priced at 3.4 ns it was counted though that cost more than the
// budget. BM_CountedGuardCall - BM_PlainCall: 2.3 to 5 ns on the machines
// measured.
constexpr double kCountPairNs = 5.0;

// Samples' worth of measurement CPU (measurement_cpu) a region's call paths
// need before its visits are priced at what they cost in the run: by the
// plan (judge.cpp) and by libhcc's throttling and count stops
// (runtime/core/auto_throttle.cpp), one rule for both.
constexpr double kMinInRunSamples = 4.0;
inline bool in_run_price_trusted(double measured_ns, double sample_ns) {
  return sample_ns > 0 && measured_ns >= kMinInRunSamples * sample_ns;
}

// The budget never counts or leaves out a region whose own work per visit is
// at least this many pairs: its pair costs under a tenth of its own time, so
// its figures are right within that, and it is a kernel the profile is for.
// (geometry's element_stiffness: 202 ns of own work, pair 18 ns; counted by
// the budget, the build ran 1.21x plain against 1.04x timed on this CPU,
// tests/bench/dilation_table.sh. pathtracer's diffuse_bounce, 2.2 pairs,
// and memlookup's lookup, 2.4, are what the budget is for.)
constexpr double kKernelPairs = 10.0;

// Share of a removed region's own work per visit counted as saved besides the
// pair: a function small enough to be suggested is inlined once its guard is
// gone, and its call, spills and the caller's lost optimisations go with it.
constexpr double kInlinedShare = 1.0;

// A region whose inclusive time is at least this share of the run and that
// has measured children holds the call-path trunk: leaving it out would
// flatten the tree under it, so it is never suggested (the rule would need
// > 1e6 calls under 2 us each for that: a solver's step function).
constexpr double kTrunkShare = 0.10;

enum class FilterSyntax { Hcc, Tau, ScoreP };

// One profile a suggestion or plan is computed from, and its file.
struct ProfileInput {
  const hcc::profile::Profile *p;
  std::string path;
};

// The decision on one region, on the sum of the profiles it appears in.
struct Verdict {
  std::string name, mangled;
  double calls = 0;
  double usec_per_call = 0;  // inclusive time per call, as measured
  double own_ns = 0;         // own work per visit, central estimate
  double pair_ns = 0;        // the pair cost of the runs it was measured in, weighted by calls
  double count_ns = 0;       // a counted pair's, likewise (never above the pair)
  double paid_ns = 0;        // what its measurement cost per visit in the runs (below pair_ns when throttled)
  double in_run_ns = 0;      // measurement_cpu per visit on its call paths (0: too few samples)
  double saving_s = 0;       // calls x (pair + kInlinedShare x own work)
  double incl_share = 0;     // inclusive time over the runs' measured time
  bool recursive = false;    // it recursed, or ran inside a recursion libhcc folded (count mode would take the timed paths)
  bool trunk = false;        // it holds the call-path trunk (kTrunkShare)
  bool rule_matched = false; // the rule's conditions hold
  bool kept_as_work = false; // matched, and its own work is above the line
  bool from_samples = false; // its time came from samples in some run (counted or throttled: no clock)
  bool count_stopped = false; // its count stopped in some run: left out, its visits a lower bound
  std::vector<std::string> from;  // the profiles it was measured in
};

// The per-run figures of the cost model (one per profile, in order).
struct RunCost {
  std::string path, pair_from, capped_by;
  double pair_ns = 0, inside_ns = 0, scale = 1, cpu_s = 0, total = 0;
  double count_ns = 0;  // a counted pair as the run timed it (hcc.count_pair_ns), else 0
};

struct Judgement {
  std::vector<Verdict> picks;    // left out, by saving
  std::vector<Verdict> counted;  // counted to keep within the budget (saving: their pairs' clock part)
  std::vector<Verdict> over;     // left out to keep within the budget: recursive, or counting was not enough
  std::vector<Verdict> work;     // kept: their own work is above the line (or within the margin)
  std::vector<Verdict> trunk;    // kept: they hold the call-path trunk (kTrunkShare)
  std::vector<RunCost> runs;
  double saved = 0, total_cpu = 0;  // seconds, summed over the runs and their locations
  // The kept regions' pairs as a share of the run without them, before and
  // after the budget's choices (judge_regions).
  double overhead_before = 0, overhead_after = 0;
  bool kernels_over = false;  // over the budget, kernels (kKernelPairs) were kept timed
};

// The one rule and cost model behind --suggest-filter and --plan: each
// region's own work and saving are computed with the pair cost of the run it
// was measured in, then summed by region name over the profiles; the rule
// and the guards judge the sums. Only compiler and user regions are judged
// (never OpenMP constructs, MPI calls), never `main`.
// Then the budget: while the pairs of the regions kept timed cost more than
// rule.budget of the run (its measured time less every pair), the regions
// kept timed (work, trunk, and those the rule did not match) are counted
// instead (exact visits and call paths, no clock), least own work per visit
// first, the trunk last; a recursive one, or one called inside a recursion
// libhcc folded, is left out instead (counting it would cost a timed pair),
// unless it holds the trunk (it stays timed). When counting them all is not
// enough, counted regions that are not the trunk are left out, in the same
// order.
Judgement judge_regions(const std::vector<ProfileInput> &profiles, const SuggestRule &rule);

// "37.5 M", "1200": a call count as plan comments and hcc --hcc-verbose print it.
std::string count_text(double calls);

// The filter file text; its leading comment lines explain the choice (each
// region's calls, µs per call, estimated overhead, and the expected saving).
std::string suggest_filter(const hcc::profile::Profile &p, const SuggestRule &rule, FilterSyntax syntax,
                           const std::string &profile_path);

// hcc-report --plan: a Score-P filter file whose EXCLUDE lines leave out the
// regions judge_regions picks, preceded by one comment line per decision
// ("# left out NAME: ..." / "# kept NAME: ...", the evidence `hcc
// --hcc-verbose` prints when it applies the plan).
std::string plan_text(const std::vector<ProfileInput> &profiles, const SuggestRule &rule);

}  // namespace hcc::report
