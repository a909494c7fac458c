// hcc — the readable summary (summary.txt and `hcc-report` text views).
#pragma once

#include <string>

#include "profile.hpp"

namespace hcc::profile {

// Flat profile in pprof's columns, summed over all locations (or for one
// location when `location >= 0`) and sorted by exclusive time, followed by
// the hottest call paths. Metrics other than time and visits become extra
// columns.
std::string flat_profile_text(const Profile &p, int location = -1);

// The `top` call paths with the most exclusive time, summed over locations
// (the second half of flat_profile_text; hcc-report --watch redraws it).
std::string hot_paths_text(const Profile &p, std::size_t top = 10);

// The call tree with inclusive/exclusive time and visits per node, summed over
// locations (or for one location when `location >= 0`).
std::string call_tree_text(const Profile &p, int location = -1);

// mpiP-style MPI section (mpi_summary.cpp): MPI time per rank, the top `top`
// MPI call paths by time and by bytes sent, and min/mean/max over ranks per
// MPI call. Keyed on regions of paradigm "mpi"; "" when there are none.
std::string mpi_summary_text(const Profile &p, std::size_t top = 10);

// ompP-style OpenMP section (openmp_summary.cpp): per construct and thread
// its times and counts with a SUM row, then the overhead analysis per
// parallel region and for the whole program. Keyed on regions of paradigm
// "openmp"; "" when there are none.
std::string openmp_summary_text(const Profile &p);

// Everything that goes into summary.txt.
std::string summary_text(const Profile &p);

}  // namespace hcc::profile
