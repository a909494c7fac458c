// hcc runtime — adopted call paths (see adopt.hpp).
#include "adopt.hpp"

#include "clock.hpp"
#include "event_services.hpp"
#include "fold.hpp"
#include "hooks.hpp"
#include "thread_state.hpp"

namespace hcc::rt {

ThreadState *current_thread_state() {
  ThreadState *ts = t_state;
  return ts ? ts : thread_state_create();
}

void capture_path(ThreadState *ts, CallPath &out) {
  // The call path of the running frame as the tree holds it: in recursion
  // mode the stack has more frames than the path has nodes (fold.hpp).
  const Node *top = attributed(ts->stack[running_depth(ts)].node);
  uint32_t len = 0;
  for (const Node *a = top; a != &ts->cct.root; a = a->parent) ++len;
  // Deeper paths keep their first kMaxAdoptedDepth regions.
  uint32_t n = len < kMaxAdoptedDepth ? len : kMaxAdoptedDepth;
  for (const Node *a = top; a != &ts->cct.root; a = a->parent)
    if (--len < n) out.regions[len] = a->region;
  out.n = n;
}

uint32_t adopt_path(ThreadState *ts, const CallPath &path) {
  const uint32_t base = ts->depth;
  Node *const prev = prev_node(ts);
  for (uint32_t i = 0; i < path.n; ++i) {
    // Below the depth cut the worker records nothing of the path: its
    // events then go where the general path puts them (the cut node).
    if (ts->depth >= ts->max_depth) break;
    if (ts->depth + 2 > ts->capacity) thread_state_grow(ts);
    Succ *const s = ts->succ;
    push_region(ts, path.regions[i]);
    Node *n = attributed(ts->stack[ts->depth].node);
    --n->visits;    // the master counted this visit, not the worker
    --s->pending;   // nor its predecessor (cfg.hpp): push_region counted it in s
    n->adopted = 1;   // kept in the merge although it has no visits here
    services_enter(ts);
  }
  // Control flow: the worker's next construct comes after the innermost
  // adopted frame (its parent), or after the worker's own last construct
  // there (a sibling, e.g. the previous parallel region).
  if (ts->depth > base) {
    Node *top = attributed(ts->stack[ts->depth].node);
    ts->succ = prev->parent == top ? &prev->after_exit : &top->after_enter;
  }
  return base;
}

void leave_adopted(ThreadState *ts, uint32_t base) {
  Succ *const succ = ts->succ;  // the worker's last construct, not the base frames
  close_frames(ts, base, clock_now());
  ts->succ = succ;
}

}  // namespace hcc::rt
