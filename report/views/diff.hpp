// hcc-report — `--diff A B`: two profiles of one program side by side, call
// paths matched by the region names along the path (ids differ between runs).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "profile.hpp"

namespace hcc::report {

struct DiffMetric {
  std::string name, unit;  // unit "s" for time (converted), else the uom
  bool integer = false;    // counts: printed without decimals
};

struct DiffRow {
  std::vector<std::string> path;  // region names, root first
  bool in_a = false, in_b = false;
  std::vector<double> a, b;       // per DiffMetric: exclusive, summed over locations
};

struct Diff {
  std::vector<DiffMetric> metrics;  // time, visits, then the others both profiles have
  std::vector<DiffRow> rows;        // largest |time change| first
};

// Matches the call paths of `a` and `b`; paths with the same names along
// them (overloads, other threads' roots) are summed. Rows whose values are
// all zero in both are left out.
Diff diff_profiles(const hcc::profile::Profile &a, const hcc::profile::Profile &b);

// A table: per metric before, after and the difference (time in msec with
// three decimals, counts as plain integers), then the call path
// ("main → solve → leaf"); `name_a`/`name_b` head the text.
std::string diff_text(const Diff &d, const std::string &name_a, const std::string &name_b);

// {"version": 1, "a": …, "b": …, "metrics": [{"name", "unit"}],
//  "callpaths": [{"path": [...], "in_a", "in_b",
//                 "values": {"time": {"a", "b", "diff"}, ...}}]}
nlohmann::ordered_json diff_json(const Diff &d, const std::string &name_a, const std::string &name_b);

}  // namespace hcc::report
