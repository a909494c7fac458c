// hcc findings — what every kind of finding reads from a profile, computed
// once: inclusive times in seconds, children, call paths as text, which
// location belongs to which process. Internal to findings/.
#pragma once

#include <string>
#include <vector>

#include "findings.hpp"

namespace hcc::findings {

struct Model {
  explicit Model(const hcc::profile::Profile &profile);

  const hcc::profile::Profile &p;
  int time = -1, visits = -1;
  double sec = 1;                // seconds per unit of the time metric
  std::vector<double> incl;      // inclusive time, seconds, [c * nl + l]
  std::vector<std::vector<int>> kids;
  std::size_t nl = 0, nc = 0;
  double total = 0;              // run_thread_time, seconds
  std::vector<int> ranks;        // the processes, ascending
  std::vector<int> rank_index;   // per location: its index in `ranks`

  const hcc::profile::Region &region(int c) const { return p.regions[std::size_t(p.cnodes[std::size_t(c)].region)]; }
  double t(int c, std::size_t l) const { return incl[std::size_t(c) * nl + l]; }
  double excl_t(int c, std::size_t l) const { return p.at(std::size_t(time), std::size_t(c), l) * sec; }
  double v(int c, std::size_t l) const { return visits < 0 ? 0 : p.at(std::size_t(visits), std::size_t(c), l); }
  double t_sum(int c) const;
  double excl_sum(int c) const;
  // "main → solve → MPI_Allreduce", at most 12 frames (the first 4, "…", the last 7).
  std::string path(int c) const;
  // "file.c:27" or the region's name when it has no file.
  std::string where(int c) const;
  // "thread 3", or "rank 2" / "rank 2 thread 1" when the run had several processes.
  std::string location_name(std::size_t l) const;
  // Per call path: it or an ancestor is an MPI call / an OpenMP construct.
  std::vector<char> in_mpi, in_openmp;
};

// The kinds, one file each; each appends what it finds to `out`.
void openmp_findings(const Model &m, std::vector<Finding> &out);
void mpi_findings(const Model &m, std::vector<Finding> &out);
void call_findings(const Model &m, std::vector<Finding> &out);
void measurement_findings(const Model &m, std::vector<Finding> &out);
void counter_findings(const Model &m, std::vector<Finding> &out);

// A per-location evidence row of `f(l)` over the locations where `keep(l)`.
template <class F, class K>
Evidence per_location(const Model &m, std::string what, std::string unit, F f, K keep) {
  Evidence e{std::move(what), std::move(unit), {}, {}};
  for (std::size_t l = 0; l < m.nl; ++l)
    if (keep(l)) e.keys.push_back(m.location_name(l)), e.values.push_back(f(l));
  return e;
}

}  // namespace hcc::findings
