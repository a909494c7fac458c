// hcc-report --suggest-filter: which regions cost more to measure than they
// tell, what they cost, and a filter file that leaves them out.
#pragma once

#include <string>

#include "profile.hpp"

namespace hcc::report {

// A region is suggested when every condition holds. Default: TAU's
// tau_reduce rule, `numcalls > 1000000 & usecs/call < 2`.
struct SuggestRule {
  double calls_above = 1000000;  // calls > N (>= when calls_inclusive)
  bool calls_inclusive = false;
  double usec_below = 2;         // inclusive µs per call < X (<= when usec_inclusive)
  bool usec_inclusive = false;
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
// part of a pair measured inside a region (suggest.cpp).
constexpr double kLeafMinVisits = 1000;
// Share of a removed region's own work per visit counted as saved besides the
// pair: a function small enough to be suggested is inlined once its guard is
// gone, and its call, spills and the caller's lost optimisations go with it.
constexpr double kInlinedShare = 1.0;

enum class FilterSyntax { Hcc, Tau, ScoreP };

// The filter file text; its leading comment lines explain the choice (each
// region's calls, µs per call, estimated overhead, and the expected saving).
std::string suggest_filter(const hcc::profile::Profile &p, const SuggestRule &rule, FilterSyntax syntax,
                           const std::string &profile_path);

}  // namespace hcc::report
