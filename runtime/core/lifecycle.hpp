// hcc runtime — start-up, the one finalize, fork, signals, uncaught exceptions.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>

namespace hcc::rt {

// Runs once, at the process's first event (not at load time: programs that
// never enter a region — configure tests linked with -lhcc — see no trace).
void runtime_init_once();

// Writes the profile once: from the library destructor (after the program's
// atexit handlers and static destructors), from the terminate handler, or
// from a fatal-signal handler (best effort). Does nothing when it already
// ran; when no region was ever entered it writes nothing and at most says
// so in one line (nothing_measured.hpp).
void finalize() noexcept;

// Takes the one finalize for a service that writes the profile itself (the
// MPI wrappers merge all ranks at MPI_Finalize): true for the first caller.
// Until the service calls finalize_claim_done(), finalize() (a fatal signal,
// std::terminate, the library destructor) still writes this process's own
// profile, under the file tag set when it claimed: a merge that waits for a
// rank that died is ended by the launcher's SIGTERM, and a merge that failed
// leaves no other profile. Afterwards finalize() does nothing.
bool claim_finalize() noexcept;
void finalize_claim_done() noexcept;

// After writing the profile on SIGTERM, wait up to `ms` (0: not at all) for
// the launcher's SIGKILL before dying of the SIGTERM (lifecycle.cpp says why).
void set_sigterm_linger(int ms) noexcept;

struct RunInfo {
  std::string program;       // base name of the executable
  std::string command_line;  // arguments joined by spaces
  std::string start_dir;     // working directory at the first event
  time_t start_time = 0;     // first event (names the default output directory)
  bool fork_child = false;   // set in the child of fork()
  int pid = 0;
};
const RunInfo &run_info();

uint32_t max_depth_for_new_threads();
void set_max_depth_for_new_threads(uint32_t n);  // testing

}  // namespace hcc::rt
