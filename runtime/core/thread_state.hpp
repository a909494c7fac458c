// hcc runtime — per-thread measurement state and the global list of threads.
//
// Every event reaches its thread's state through ONE initial-exec TLS pointer
// (no __tls_get_addr call). The state is created on the thread's first event,
// registered once as a new location, and never freed.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cct.hpp"

namespace hcc::rt {

struct Frame {
  Node *node;
  uint64_t start;  // clock_now() at enter
};

struct JmpMark {
  const void *env;
  uint32_t depth;     // logical depth (frames + overflow) at setjmp
  const Node *node;   // the frame open at that depth then, and its start:
  uint64_t start;     // a mark whose frame has since closed is stale
};
constexpr uint32_t kJmpMarks = 16;

// Allocated on a cache line (thread_state_alloc): everything the fast paths
// and recursion mode's lane read or write of the thread is in its first 64
// bytes, one line that a program streaming through the cache evicts as one.
struct alignas(64) ThreadState {
  // --- hot: every enter/exit (the first cache line) ---
  Frame *stack;         // stack[0] is the root sentinel; stack[depth] the top frame
  uint32_t depth;       // open frames (0 = none)
  uint32_t capacity;    // frames the stack array holds
  // fast_limit and fold_limit are one 64-bit word (lanes_off() below).
  uint32_t fast_limit;  // enter stays on the fast path while depth < fast_limit
  uint32_t fold_limit;  // recursion mode's lane (hooks.cpp) while depth < fold_limit
  Succ *succ;           // control flow (cfg.hpp): the successor slot of the last enter or
                        // exit (its node is the previous node, prev_node()); the enter fast
                        // path's child lookup
  uint32_t overflow;    // open enters below the depth cut, not recorded
  // --- recursion mode (fold.hpp): its lane and the general paths ---
  uint32_t fold_base;   // depth of the frame that began recursion mode; 0 = not in it
  uint64_t fold_last;   // time of the last event in recursion mode
  uint64_t fold_t0;     // when recursion mode began
  Cct cct;
  // --- cold ---
  uint32_t max_depth;   // HCC_MAX_DEPTH when the thread started
  uint32_t depth_region;  // id of the depth-cut region; kNoRegion until first hit
  uint32_t location;    // start number: order of first event (the profile's order is team_thread's)
  int32_t team_thread;  // OpenMP thread number in the outermost team, claimed once (claim_team_thread); -1 none
  bool team_asked;      // claim_team_thread ran for this thread (first outermost region only)
  uint64_t dropped;     // enters below the depth cut, in total
  uint64_t general_enters;  // enters that reached enter_slow (testing::general_enters)
  bool ended;           // the thread has exited (its frames were closed then)
  pid_t tid;
  JmpMark marks[kJmpMarks];
  uint32_t next_mark;
  // Selective measurement (selection.hpp); touched only on the general paths.
  uint32_t sel_skipped;     // enters skipped (HCC_SELECT/HCC_PRUNE) still open above the top frame
  uint32_t sel_inside;      // open frames of HCC_SELECT regions
  uint32_t prune_depth;     // depth of the open HCC_PRUNE frame; 0 = none
  uint32_t sel_saved_cap;
  uint32_t *sel_saved;      // per depth: sel_skipped when that frame was pushed
  uint32_t pause_count;     // hcc_pause nesting
  uint32_t pause_skipped;   // enters skipped while paused, still open
  Node *pause_node;         // the marker frame's node (not in the CCT)
  uint64_t *throttle_stats; // HCC_THROTTLE: calls, ticks per region id
  uint32_t throttle_cap;
  // A stopped region with no frame open on this thread (hooks.cpp,
  // stopped_exit): none can open again, so its exits skip the stack walk.
  uint32_t stopped_clear;
};

static_assert(offsetof(ThreadState, fold_t0) + sizeof(uint64_t) <= 64, "the hot fields share one cache line");
static_assert(offsetof(ThreadState, fold_limit) == offsetof(ThreadState, fast_limit) + 4 &&
                  offsetof(ThreadState, fast_limit) % 8 == 0,
              "lanes_off() reads both limits as one word");

// Neither the fast path nor recursion mode's lane is open to this thread:
// no TSC, a per-event service, or paused (compute_fast_limit). hcc_exit's
// one test before its fast path, in the thread's hot line (no global read).
inline bool lanes_off(const ThreadState *ts) {
  uint64_t both;
  __builtin_memcpy(&both, &ts->fast_limit, sizeof both);
  return both == 0;
}

// A zeroed ThreadState on a cache line (never freed, like every thread's state).
ThreadState *thread_state_alloc();

extern __thread ThreadState *t_state __attribute__((tls_model("initial-exec")));

// Slow path of the first event of a thread: initialises the runtime if this
// is the process's first event, then creates and registers the thread.
ThreadState *thread_state_create() __attribute__((noinline, cold));

// Makes room for at least one more frame above stack[depth + 1] and
// recomputes fast_limit. The old array is kept (a finalizer may read it).
void thread_state_grow(ThreadState *ts) __attribute__((noinline, cold));

// Closes frames stack[depth] .. stack[target + 1] at time `t` (their time is
// attributed up to `t`) and clears the overflow counter. In recursion mode
// (fold.hpp) the time is charged as that mode charges it.
void close_frames(ThreadState *ts, uint32_t target, uint64_t t);

// Recomputes fast_limit from capacity, depth limit and mode (hcc_resume).
void compute_fast_limit(ThreadState *ts);

// All thread states in location order (a copy, taken under the lock): the
// threads that claimed an OpenMP thread number of the outermost team by that
// number, then all others by start number. Every view of the profile, the
// trace and gmon.out takes its locations from here, so they agree.
std::vector<ThreadState *> threads_snapshot();

// How many thread states were ever created (a stopped region's exit asks
// whether this thread is the only one that could hold a frame of it).
uint32_t thread_states_created();

// The OpenMP layer (pomp/team.cpp) calls this once per thread, in the first
// parallel region of the outermost team it joins, with omp_get_thread_num().
// The number is kept unless another thread holds it already (a pool that
// changed between regions): then the thread stays among the others.
// Cold: once per thread, under the thread-list lock.
void claim_team_thread(ThreadState *ts, int thread_num);
bool any_thread();  // has any region been entered in this process?

// fork(): lock held across the fork; the child keeps only its own thread.
void threads_lock();
void threads_unlock();
void threads_keep_only(ThreadState *self);  // child side, lock held

}  // namespace hcc::rt
