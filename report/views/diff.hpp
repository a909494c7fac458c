// hcc-report — `--diff A B`: two profiles of one program side by side, call
// paths matched by the region names along the path (ids differ between runs).
#pragma once

#include <ostream>
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
  int node = -1;                  // in Diff::parent/name: the path's last frame
  bool in_a = false, in_b = false;
  // Its time came from samples there (text_views/marks.hpp): a sampled,
  // counted or throttled region; marked `~` in the text.
  bool sampled_a = false, sampled_b = false;
  std::vector<double> a, b;       // per DiffMetric: exclusive, summed over locations
};

struct Diff {
  std::vector<DiffMetric> metrics;  // time, visits, then the others both profiles have
  std::vector<DiffRow> rows;        // largest |time change| first
  // The merged call tree: parent node (-1 for roots) and region name per
  // node. Paths are spelled out only while printing, one row at a time: a
  // deep recursion has as many rows as frames, so keeping every row's path
  // would cost depth x rows.
  std::vector<int> parent;
  std::vector<std::string> name;
  std::vector<std::size_t> depth;  // frames from the root (1 = root)
  std::vector<int> head_end;       // ancestor at depth 32, where a long path's first half ends
};

// Matches the call paths of `a` and `b`; paths with the same names along
// them (overloads, other threads' roots) are summed. Rows whose values are
// all zero in both are left out.
Diff diff_profiles(const hcc::profile::Profile &a, const hcc::profile::Profile &b);

// The region names along a row's path, root first. Paths deeper than 64
// frames keep their first and last 32 around one "... N frames ..." entry.
std::vector<std::string> diff_path(const Diff &d, const DiffRow &row);

// A table: per metric before, after and the difference (time in msec with
// three decimals, counts as plain integers), then the call path
// ("main → solve → leaf"); `name_a`/`name_b` head the text.
void write_diff_text(std::ostream &os, const Diff &d, const std::string &name_a, const std::string &name_b);

// {"version": 1, "a": …, "b": …, "metrics": [{"name", "unit"}],
//  "callpaths": [{"path": [...], "in_a", "in_b",
//                 "time_from": {"a": "clock"|"samples", "b": …} (the runs it is in),
//                 "values": {"time": {"a", "b", "diff"}, ...}}]}
// Streamed row by row; names that are not UTF-8 get U+FFFD.
void write_diff_json(std::ostream &os, const Diff &d, const std::string &name_a, const std::string &name_b);

}  // namespace hcc::report
