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

enum class FilterSyntax { Hcc, Tau, ScoreP };

// The filter file text; its leading comment lines explain the choice (each
// region's calls, µs per call, estimated overhead, and the expected saving).
std::string suggest_filter(const hcc::profile::Profile &p, const SuggestRule &rule, FilterSyntax syntax,
                           const std::string &profile_path);

}  // namespace hcc::report
