// hcc-report --watch — perfometer-style: the hottest call paths of a running
// program, redrawn each time its snapshot (HCC_SNAPSHOT) changes.
#pragma once

#include <ostream>
#include <string>

namespace hcc::report {

struct WatchOptions {
  std::string dir;          // the run's output directory; "" = the newest running hcc-* directory here
  std::size_t top = 10;     // call paths shown
  double poll_seconds = 0.2;
  double give_up_seconds = 0;  // stop waiting for a run after this long (0 = never; tests)
};

// Polls the directory's snapshot.cubex (snapshot.<tag>.cubex for MPI ranks)
// by modification time and redraws on every change: the whole screen on a
// terminal, else one block per snapshot separated by a rule. Returns 0 once
// the run's final profile (profile.cubex, written after the watch began)
// appears, after drawing it; 2 when no run was found in time. Messages about
// what it waits for go to `err`.
int watch(const WatchOptions &opt, std::ostream &out, std::ostream &err);

}  // namespace hcc::report
