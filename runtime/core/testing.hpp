// hcc runtime — what the unit tests may use, and nothing else.
//
// Exported from libhcc.so (namespace hcc::rt::testing) so tests link the
// library exactly as users get it instead of reaching into its internals.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cube/profile.hpp"

#define HCC_TESTING_API __attribute__((visibility("default")))

namespace hcc::rt::testing {

// The profile as finalize would build it now (open frames count up to now),
// without finalizing and without changing any thread's state.
HCC_TESTING_API profile::Profile build_profile_now();

// Builds and writes the profile now, like finalize (but can be repeated);
// returns the .cubex path or "".
HCC_TESTING_API std::string write_profile_now();

// Later writes go to `dir` (HCC_OUTPUT_DIR semantics).
HCC_TESTING_API void set_output_dir(const std::string &dir);

// HCC_MAX_DEPTH for threads whose first event comes after this call.
HCC_TESTING_API void set_max_depth_for_new_threads(uint32_t n);

// The calling thread's shadow stack: recorded open frames (the depth-cut
// node included) and open enters below the cut.
HCC_TESTING_API uint32_t open_frames();
HCC_TESTING_API uint32_t open_below_cut();
// Is the calling thread in recursion mode (a folded frame open, fold.hpp)?
HCC_TESTING_API bool recursion_mode();
// Enters of the calling thread that left the fast path of hcc_enter and
// recursion mode's lane (a child-lookup miss, a first use, a per-event
// service, ...), and whether the
// fast path can run at all here (the TSC is the clock, no per-event service).
HCC_TESTING_API uint64_t general_enters();
HCC_TESTING_API bool fast_path_available();

// "tsc" or "CLOCK_MONOTONIC".
HCC_TESTING_API std::string clock_name();

// What pomp/team.cpp does once per thread in its first outermost parallel
// region (thread_state.hpp): the calling thread claims OpenMP thread number
// `k` for the location order.
HCC_TESTING_API void claim_team_thread(int k);

// HCC_* parsing of an arbitrary environment, as the runtime does at start.
struct EnvCheck {
  std::vector<std::string> messages;
  std::string output_dir;
  int verbose = 0;
  uint32_t max_depth = 0;
  bool signals = false;
  std::string clock;  // "auto", "tsc", "monotonic"
};
HCC_TESTING_API EnvCheck parse_environment(const std::vector<std::string> &env);

// Adds `v` to extra counter `k` of the calling thread's top node (stands in
// for a metric service). Returns false when the node has no such counter.
HCC_TESTING_API bool add_to_extra_counter(uint32_t k, uint64_t v);

// register_extra_metric() with an UINT64 exclusive metric named `name`;
// returns its counter index or -1 (too late: a region was already entered).
HCC_TESTING_API int register_extra_metric(const std::string &name, bool inclusive_counts);

// HCC_SAMPLING (runtime/sampling): takes one sample of the calling thread from
// `ucontext` (a ucontext_t the caller filled with getcontext and whose frame
// is still live), as the signal handler does; `caches` false bypasses the
// function-start cache. Returns false when sampling is off here.
HCC_TESTING_API bool take_sample_from(void *ucontext, bool caches);

}  // namespace hcc::rt::testing
