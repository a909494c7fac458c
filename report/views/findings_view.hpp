// hcc-report — `--findings`: what cost the run the most (findings/), as text
// or, with --json, as the stable JSON form scripts and CI read
// (docs/reports.md, "Findings": the schema and --fail-above's exit status).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "findings.hpp"

namespace hcc::report {

// {"schema":"hcc-findings/1","profile":…,"run_thread_time_s":…,"findings":[…]}:
// every finding, most costly first, with its evidence.
nlohmann::ordered_json findings_json(const std::vector<hcc::findings::Finding> &all, double run_thread_time_s,
                                     const std::string &profile_path);

// "5%", "5", "0.5 %" -> 5.0 (percent); false when it is not a number from 0 to 100.
bool parse_share(const std::string &text, double &percent);

}  // namespace hcc::report
