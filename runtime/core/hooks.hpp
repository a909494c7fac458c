// hcc runtime — small pieces of the hot path shared with the slow paths.
#pragma once

#include <cstdint>

#include "cfg.hpp"
#include "clock.hpp"
#include "fold.hpp"
#include "thread_state.hpp"

#define HCC_HOT_UNLIKELY(x) __builtin_expect(!!(x), 0)

namespace hcc::rt {

// Count mode's lanes (count_hooks.cpp), also a throttled region's
// (hooks.cpp): a frame pushed or popped without a clock, when the successor
// slot hits (enter) or the top frame is the region's (exit) and the thread's
// lanes are open. False for everything else, which the caller hands to the
// general paths. The fast paths of hcc_enter/hcc_exit without the clock,
// the frame's start and the `incl` update (hooks.cpp explains each step).
__attribute__((always_inline)) inline bool enter_unclocked(ThreadState *ts, uint32_t region) {
  const uint32_t depth = ts->depth;
  // Array full, depth cut, no TSC, per-event services, paused, recursion mode.
  if (HCC_HOT_UNLIKELY(depth >= ts->fast_limit)) return false;
  Succ *s = ts->succ;
  Node *child = s->next;
  Frame *top = ts->stack + depth;
  if (HCC_HOT_UNLIKELY(child->region != region)) return false;
  if (HCC_HOT_UNLIKELY(child->parent != top->node)) return false;
  ++s->pending;  // control flow: in the slot (cfg.hpp), as hcc_enter counts it
  ts->succ = &child->after_enter;
  ++child->visits;
  top[1].node = child;
  ts->depth = depth + 1;
  return true;  // no clock: the frame's start is never read for this node's time
}

__attribute__((always_inline)) inline bool exit_unclocked(ThreadState *ts, uint32_t region) {
  // Per-event services, no TSC, paused: every exit on the general path.
  if (HCC_HOT_UNLIKELY(lanes_off(ts))) return false;
  const uint32_t depth = ts->depth;
  Node *n = ts->stack[depth].node;
  // Root sentinel, depth-cut node, proxy, pause marker, unregistered (0) or
  // skipped exits: the general path sorts them out.
  if (HCC_HOT_UNLIKELY(n->region != region)) return false;
  ts->succ = &n->after_exit;  // control flow (cfg.hpp)
  ts->depth = depth - 1;
  return true;
}

// Pushes the frame of `region` under the top frame, from the general paths;
// the caller has checked that stack[depth + 1] exists. Recursion (a
// kForward entry) and any push while in recursion mode go to push_folded
// (fold.hpp); otherwise this is what the fast path does.
__attribute__((always_inline)) inline void push_region(ThreadState *ts, uint32_t region) {
  uint32_t depth = ts->depth;
  Frame *top = ts->stack + depth;
  Node *caller = top->node;
  Node *parent = attributed(caller);
  // The previous event's successor (cfg.hpp), as the fast path looks, then
  // the parent's last child, then the parent's list or table.
  Node *child = ts->succ->next;
  if (child->region != region || child->parent != parent) {
    child = parent->cache;
    if (__builtin_expect(child->region != region, 0)) {
      child = cct_child(ts->cct, parent, region);
      parent->cache = child;  // fold links too: only the general paths read it
    }
  }
  // A proxy's own cache serves recursion mode's lane (hooks.cpp), links too.
  if (caller->kind == kProxy) caller->cache = child;
  if (child->kind == kForward) {
    ++child->visits;  // the calls made through this link: gprof's recursive arcs (gmon_out.cpp)
    return push_folded(ts, child->link);
  }
  if (__builtin_expect(ts->fold_base != 0, 0)) return push_folded(ts, child);
  cfg_enter(ts, child);
  ++child->visits;
  top[1].node = child;
  ts->depth = depth + 1;
  // Read last, so the lookup above is not charged to the callee.
  top[1].start = clock_now();
}

}  // namespace hcc::rt
