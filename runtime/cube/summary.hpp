// hcc — the readable summary (summary.txt and `hcc-report` text views).
#pragma once

#include <string>

#include "profile.hpp"

namespace hcc::profile {

// Flat profile in pprof's columns, summed over all locations and sorted by
// exclusive time, followed by the hottest call paths.
std::string flat_profile_text(const Profile &p);

// The call tree with inclusive/exclusive time and visits per node, summed over
// locations (or for one location when `location >= 0`).
std::string call_tree_text(const Profile &p, int location = -1);

// Everything that goes into summary.txt.
std::string summary_text(const Profile &p);

}  // namespace hcc::profile
