// hcc runtime — recursion mode (see fold.hpp). Only the general paths get
// here: the fast paths never see a proxy.
#include "fold.hpp"

#include "cfg.hpp"
#include "clock.hpp"

namespace hcc::rt {

namespace {

// The time since the last event belongs to the running frame stack[d]: the
// top one, or the frame below the pause marker (paused time is the
// caller's, as it is outside recursion mode).
inline void charge(ThreadState *ts, uint32_t d, uint64_t t) {
  if (d > ts->fold_base && ts->stack[d].node == ts->pause_node) --d;
  Node *n = ts->stack[d].node;
  if (n->kind == kProxy) n->incl += t - ts->fold_last;
  ts->fold_last = t;
}

}  // namespace

// The frames open when the mode began restart their own clock: each adds
// its whole duration at exit, less the mode's span, which its subtree's
// proxies hold.
void fold_end_mode(ThreadState *ts, uint64_t t) {
  const uint64_t span = t - ts->fold_t0;
  for (uint32_t d = 1; d <= ts->depth; ++d) {
    Node *n = ts->stack[d].node;
    n->incl -= span;  // may wrap below zero for now; the frame's exit adds it back
    n->open = 0;
  }
  ts->fold_base = 0;
  compute_fast_limit(ts);
}

void push_folded(ThreadState *ts, Node *n) {
  Node *px = n->link ? n->link : cct_proxy(ts->cct, n);
  const uint32_t depth = ts->depth;
  Frame *top = ts->stack + depth;
  const bool begins = ts->fold_base == 0;
  cfg_enter(ts, n);  // the node the frame is counted on (cfg.hpp)
  if (begins) {
    // Every open frame is real and its node open once.
    for (uint32_t d = 1; d <= depth; ++d) {
      Node *o = ts->stack[d].node;
      o->open = 1;
      if (o->max_open == 0) o->max_open = 1;
    }
  }
  ++n->visits;
  if (++n->open > n->max_open) n->max_open = n->open;
  top[1].node = px;
  ts->depth = depth + 1;
  // Read last, so the work above is charged to the caller.
  const uint64_t t = clock_now();
  if (begins) {
    ts->fold_base = depth + 1;
    ts->fold_t0 = t;
    ts->fold_last = t;
    compute_fast_limit(ts);
  } else {
    charge(ts, depth, t);  // the caller ran until now
  }
  top[1].start = t;
}

void fold_close_frames(ThreadState *ts, uint32_t target, uint64_t t) {
  charge(ts, ts->depth, t);
  for (uint32_t d = ts->depth; d > target; --d) {
    const Frame &f = ts->stack[d];
    Node *n = f.node;
    if (n->kind == kProxy) {
      --n->link->open;
    } else if (d < ts->fold_base) {
      // A frame older than the mode closes inside it (exit repair, longjmp):
      // its own time ended when the mode began.
      n->incl += ts->fold_t0 - f.start;
      n->open = 0;
    }
    // else: the pause marker, which counts nothing
  }
  if (ts->depth > target) ts->depth = target;
  if (ts->depth < ts->fold_base) fold_end_mode(ts, t);
}

}  // namespace hcc::rt
