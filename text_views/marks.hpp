// hcc — the mark every view puts on a time that came from samples.
//
// Every run is hybrid (DESIGN.md, "Results must be right"): what hcc timed
// is exact; a call path of a region hcc did not time (a sampled function or
// inlined call, a counted or a throttled region: time_from_samples() in
// profile.hpp) has the CPU time of its samples, an estimate. A reader must
// tell the two apart wherever a time is printed, so every view marks the
// second kind the same way: `~` before the number (`~12.345`), and one
// legend line under a table that has such a number. Time is marked so;
// visits stay exact for counted and throttled regions, except a stopped
// count, marked as a lower bound (below); other metrics are not estimated
// from samples.
#pragma once

#include <cstddef>
#include <string>

#include "profile.hpp"

namespace hcc::profile {

inline constexpr const char *kSampledMark = "~";
inline constexpr const char *kSampledLegend = "~ time from samples (not timed by hcc: sampled, counted or throttled)";

// Whether the time of region `r`'s call paths came from samples
// (cube/profile.hpp's rule: a counted region of a profile written before
// sampling was the default is not marked, its time is its caller's).
inline bool region_time_from_samples(const Region &r) {
  return time_from_samples(r);
}

// Whether call path `c`'s time came from samples.
inline bool path_time_from_samples(const Profile &p, std::size_t c) {
  return region_time_from_samples(p.regions[static_cast<std::size_t>(p.cnodes[c].region)]);
}

// A count that stopped (HCC_COUNT_STOP: a throttled region whose counting
// cost more than it told) is the visits up to the stop: a lower bound, never
// shown as exact. `≥` before the number, with its own legend line.
inline constexpr const char *kLowerBoundMark = "\u2265";
inline constexpr const char *kLowerBoundLegend =
    "\u2265 visits a lower bound (count stopped: counting cost more than it told)";

// A time per visit over such visits is an upper bound: `≤` before it.
inline constexpr const char *kUpperBoundMark = "\u2264";

inline bool path_visits_lower_bound(const Profile &p, std::size_t c) {
  return visits_lower_bound(p.regions[static_cast<std::size_t>(p.cnodes[c].region)]);
}

// A visit count, marked when it is a lower bound.
inline std::string visits_marked(const std::string &number, bool lower_bound) {
  return lower_bound ? kLowerBoundMark + number : number;
}

// `number`, marked when it came from samples.
inline std::string marked(const std::string &number, bool from_samples) {
  return from_samples ? kSampledMark + number : number;
}

}  // namespace hcc::profile
