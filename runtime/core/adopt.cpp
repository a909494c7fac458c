// hcc runtime — adopted call paths (see adopt.hpp).
#include "adopt.hpp"

#include "clock.hpp"
#include "event_services.hpp"
#include "hooks.hpp"
#include "thread_state.hpp"

namespace hcc::rt {

ThreadState *current_thread_state() {
  ThreadState *ts = t_state;
  return ts ? ts : thread_state_create();
}

void capture_path(ThreadState *ts, CallPath &out) {
  uint32_t n = ts->depth < kMaxAdoptedDepth ? ts->depth : kMaxAdoptedDepth;
  for (uint32_t d = 1; d <= n; ++d) out.regions[d - 1] = ts->stack[d].node->region;
  out.n = n;
}

uint32_t adopt_path(ThreadState *ts, const CallPath &path) {
  const uint32_t base = ts->depth;
  for (uint32_t i = 0; i < path.n; ++i) {
    // Below the depth cut the worker records nothing of the path: its
    // events then go where the general path puts them (the cut node).
    if (ts->depth >= ts->max_depth) break;
    if (ts->depth + 2 > ts->capacity) thread_state_grow(ts);
    push_frame(ts, path.regions[i]);
    Node *n = ts->stack[ts->depth].node;
    --n->visits;      // the master counted this visit, not the worker
    n->adopted = 1;   // kept in the merge although it has no visits here
    services_enter(ts);
  }
  return base;
}

void leave_adopted(ThreadState *ts, uint32_t base) {
  close_frames(ts, base, clock_now());
}

}  // namespace hcc::rt
