// hcc-report — the JSON view (`hcc-report --json`), consumed by tests and
// other tools; its shape is documented in report/README.md and is versioned
// by the top-level "version" field. Keys keep the documented order.
#pragma once

#include <nlohmann/json.hpp>

#include "profile.hpp"

namespace hcc::report {

// The whole profile, or only location `location` (>= 0): then "locations"
// holds that one location and every value array has one entry.
nlohmann::ordered_json profile_json(const hcc::profile::Profile &p, int location = -1);

}  // namespace hcc::report
