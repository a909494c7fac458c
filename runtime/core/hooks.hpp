// hcc runtime — small pieces of the hot path shared with the slow paths.
#pragma once

#include <cstdint>

#include "cfg.hpp"
#include "clock.hpp"
#include "fold.hpp"
#include "thread_state.hpp"

namespace hcc::rt {

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
