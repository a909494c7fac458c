// hcc runtime — hcc_enter / hcc_exit, the hot path.
//
// The fast path of each hook is a leaf function: one TLS load, one descriptor
// load, one compare against a limit, the cached child (enter) or one region
// compare (exit), and an rdtsc. Every unusual case — first event of a thread,
// first use of a region, a child-cache miss, a full stack array, the depth
// cut, unbalanced exits, the CLOCK_MONOTONIC fallback — leaves through a tail
// call to an out-of-line function, so the fast path saves no registers and
// sets up no frame. When the TSC is not used, fast_limit is 0 for every
// thread, which sends every enter down the general path without an extra
// test on the fast path.
// This file is compiled with -O3, initial-exec TLS, no exceptions, no RTTI.
#include "hooks.hpp"

#include "hcc/region.h"
#include "registry.hpp"

#define HCC_API extern "C" __attribute__((visibility("default")))
#define HCC_UNLIKELY(x) __builtin_expect(!!(x), 0)

namespace hcc::rt {

namespace {

// The fast path's clock: only reached when g_clock_is_tsc (see above).
__attribute__((always_inline)) inline uint64_t fast_clock() {
#if defined(__x86_64__)
  return __builtin_ia32_rdtsc();
#else
  return monotonic_ns();
#endif
}

// Everything hcc_enter's fast path does not handle.
__attribute__((noinline)) void enter_general(hcc_region_desc *d) {
  ThreadState *ts = t_state;
  if (!ts) ts = thread_state_create();
  uint32_t region = __atomic_load_n(&d->id, __ATOMIC_ACQUIRE);
  if (region == 0) region = register_region(d);
  uint32_t depth = ts->depth;
  if (depth < ts->max_depth) {
    if (depth + 2 > ts->capacity) thread_state_grow(ts);
    push_frame(ts, region);
  } else if (depth == ts->max_depth) {
    // One visible artificial node holds everything below the cut.
    if (ts->depth_region == kNoRegion) ts->depth_region = register_depth_limit_region(ts->max_depth);
    if (depth + 2 > ts->capacity) thread_state_grow(ts);
    push_frame(ts, ts->depth_region);
  } else {
    ++ts->overflow;  // below the cut: counted, not recorded
    ++ts->dropped;
  }
}

// The top frame is not `region`'s: we are below the depth cut, exits were
// skipped (longjmp, a C cleanup that did not run), the descriptor was never
// entered, or the exit is spurious.
__attribute__((noinline)) void exit_slow(ThreadState *ts, hcc_region_desc *d, uint32_t region, uint64_t t) {
  uint32_t depth = ts->depth;
  if (depth > 0 && ts->stack[depth].node->region == ts->depth_region) {
    if (ts->overflow > 0) {
      --ts->overflow;
      return;
    }
    close_frames(ts, depth - 1, t);  // the exit of the enter that hit the cut
    return;
  }
  // Exit through a descriptor never entered: it may be a twin of one that was
  // (the same inline function compiled into two files).
  if (region == 0 && (region = find_region(d)) == 0) return;
  // Skipped exits: close every frame above the region's frame, and the
  // region's frame itself, at `t`. An exit with no open frame is ignored.
  for (uint32_t d2 = depth; d2 > 0; --d2) {
    if (ts->stack[d2].node->region == region) {
      close_frames(ts, d2 - 1, t);
      return;
    }
  }
}

__attribute__((noinline)) void exit_general(hcc_region_desc *d) {
  uint64_t t = clock_now();
  ThreadState *ts = t_state;
  if (!ts) return;
  uint32_t region = __atomic_load_n(&d->id, __ATOMIC_RELAXED);
  Frame *top = ts->stack + ts->depth;
  if (top->node->region != region) return exit_slow(ts, d, region, t);
  top->node->incl += t - top->start;
  ts->depth--;
}

}  // namespace
}  // namespace hcc::rt

using namespace hcc::rt;

HCC_API void hcc_enter(hcc_region_desc *d) {
  ThreadState *ts = t_state;
  if (HCC_UNLIKELY(!ts)) return enter_general(d);
  uint32_t region = __atomic_load_n(&d->id, __ATOMIC_ACQUIRE);
  uint32_t depth = ts->depth;
  // region 0: first use; depth >= fast_limit: array full, depth cut, or no TSC.
  if (HCC_UNLIKELY(region == 0 || depth >= ts->fast_limit)) return enter_general(d);
  Frame *top = ts->stack + depth;
  Node *child = top->node->cache;
  if (HCC_UNLIKELY(child->region != region)) return enter_general(d);
  ++child->visits;
  top[1].node = child;
  ts->depth = depth + 1;
  // Read last, so the work above is not charged to the callee.
  top[1].start = fast_clock();
}

HCC_API void hcc_exit(hcc_region_desc *d) {
  if (HCC_UNLIKELY(!g_clock_is_tsc)) return exit_general(d);
  uint64_t t = fast_clock();  // first, so the work below is not charged to the region
  ThreadState *ts = t_state;
  if (HCC_UNLIKELY(!ts)) return;
  uint32_t region = __atomic_load_n(&d->id, __ATOMIC_RELAXED);
  Frame *top = ts->stack + ts->depth;
  Node *n = top->node;
  // The root sentinel (depth 0), the depth-cut node and an unregistered
  // descriptor (0) never match, so this one compare also catches those cases.
  if (HCC_UNLIKELY(n->region != region)) return exit_slow(ts, d, region, t);
  n->incl += t - top->start;
  ts->depth = ts->depth - 1;
}
