// hcc-report — `--html`: one self-contained HTML page of a profile (run
// facts, an interactive icicle of the call tree for every metric, the flat
// profile, the spread over locations, the OpenMP and MPI sections, control
// flow when the data has it). The page's markup, style and script are
// report/views/html/page.{html,css,js}, compiled in; the profile goes in as the
// `--json` object. The page loads nothing from anywhere.
#pragma once

#include <ostream>
#include <string>

#include "profile.hpp"

namespace hcc::report {

// The object the page's script reads, as JSON text: {"profile": <--json
// view>, "attrs": [[key, value]...], "program", "file", "total_time" (s or
// null), "openmp": text, "mpi": text}.
void write_html_data(std::ostream &os, const hcc::profile::Profile &p, const std::string &profile_path);

// The whole page, written as it is made (the data may be large).
void write_html_report(std::ostream &os, const hcc::profile::Profile &p, const std::string &profile_path);

}  // namespace hcc::report
