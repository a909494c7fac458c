// hcc runtime — small pieces of the hot path shared with the slow paths.
#pragma once

#include <cstdint>

#include "clock.hpp"
#include "thread_state.hpp"

namespace hcc::rt {

// Pushes the child of the top frame for `region`; the caller has checked
// that stack[depth + 1] exists.
__attribute__((always_inline)) inline void push_frame(ThreadState *ts, uint32_t region) {
  uint32_t depth = ts->depth;
  Frame *top = ts->stack + depth;
  Node *parent = top->node;
  Node *child = parent->cache;
  if (__builtin_expect(child->region != region, 0)) {
    child = cct_child(ts->cct, parent, region);
    parent->cache = child;
  }
  ++child->visits;
  top[1].node = child;
  ts->depth = depth + 1;
  // Read last, so the lookup above is not charged to the callee.
  top[1].start = clock_now();
}

}  // namespace hcc::rt
