// hcc — findings: the few things that cost a run the most, ranked by what
// they cost, each with its call path, the numbers it was computed from and
// one line on what it means (findings/README.md; docs/reports.md, "Findings").
// Computed from the profile alone, so `hcc-report --findings`, the top of
// summary.txt and the HTML page show the same list, for ours and for any
// CUBE file with the same regions.
#pragma once

#include <string>
#include <vector>

#include "profile.hpp"

namespace hcc::findings {

// The numbers a finding was computed from: one value, or one per thread or
// rank (`keys` then names each: "thread 2", "rank 0").
struct Evidence {
  std::string what;  // "waiting at the implicit barrier"
  std::string unit;  // "s", "calls", "bytes", an event's name
  std::vector<std::string> keys;
  std::vector<double> values;
};

struct Finding {
  std::string kind;   // "openmp.imbalance", "mpi.collective_wait", ... (README.md lists them)
  std::string title;  // "load imbalance in the loop at imbalance.c:27"
  double cost_s = 0;  // seconds, summed over threads and ranks
  double share = 0;   // of the run's thread time (run_thread_time)
  int callpath = -1;  // where it is, -1 for the whole run
  std::string path;   // "main → parallel → loop"
  std::vector<Evidence> evidence;
  std::string meaning;  // one line: what it means, what to do
  std::string fix;      // a line that removes it where there is one (a filter line), else ""
};

// Findings whose share is below this are not listed (the rest is noise
// on any real run: a barrier's exit, a team's start).
constexpr double kMinShare = 0.005;
// At most this many in summary.txt and the HTML page (hcc-report --top N).
constexpr std::size_t kShown = 10;

// The run's thread time: per process, its longest thread's time (the
// inclusive time of its roots) times its number of threads, summed over the
// processes. A thread idle in a serial part counts: that is what a serial
// part costs a threaded run.
double run_thread_time(const hcc::profile::Profile &p);

// Every finding of at least kMinShare, most costly first; `thread_time`,
// when given, receives run_thread_time (computed once for both).
std::vector<Finding> find_all(const hcc::profile::Profile &p, double *thread_time = nullptr);

// The list as text: "FINDINGS" and up to `top` findings, each its rank,
// cost, share, title, path, evidence and meaning; "" without a time metric;
// a line saying so when nothing is above kMinShare.
std::string findings_text(const std::vector<Finding> &all, std::size_t top = kShown);

}  // namespace hcc::findings
