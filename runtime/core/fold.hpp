// hcc runtime — recursion folding: the call tree grows with the number of
// distinct frames, not with the depth of recursion.
//
// The tree. A region entered while it is already on the call path (the
// parent itself: direct recursion; an ancestor: recursion through other
// regions, A → B → A') makes no new call path: the frame is counted on the
// existing ancestor node. cct_child() decides this once per (parent node,
// region) and leaves a kForward entry in the parent's lookup, so no region
// ever appears twice on a path of the tree; fib(20) is main → fib, a mutual
// recursion radiance ↔ bounce is main → radiance → bounce. A region entered
// under a folded frame is looked up below the node the frame is counted on.
//
// The stack. Frames opened while any folded frame is open stand on a proxy
// of their node (cct_proxy(): region kProxyRegion, never matching an exit,
// cache the no-child sentinel), so every event in that state takes the
// general paths — "recursion mode", per thread, from the first folded push
// (depth fold_base) until that frame closes. Non-recursive code never enters
// it and keeps the fast paths unchanged.
//
// Time. Inclusive accumulation (each frame adds its duration at exit) is
// wrong once one node has several open frames (nested frames count twice)
// and with indirect recursion (A' below B would land in B's exclusive time
// although the tree puts it on A). So in recursion mode time is charged
// exclusively: at every event the time since the previous event goes to the
// node the running frame is counted on (its proxy's `incl`). The frames open
// when the mode began (all real) stop their own clock then: each later adds
// its duration minus the mode's span (end_mode subtracts the span once per
// episode, O(depth)); frames opened and closed inside the mode add nothing to
// their node's `incl`. The builder then takes
//     inclusive(N) = N.incl + Σ over N's subtree of proxy.incl,
// which keeps inclusive = exclusive + children for every node and thread and
// gives each region exactly the time its own frames ran. Visits are counted
// on the node a frame is counted on, so they stay exact per region. Counters
// (runtime/counters) follow the same rule (they read ts->fold_base).
//
// Depth. `open` counts a node's frames open at once in recursion mode and
// `max_open` keeps the maximum: the profile's `recursion_depth` metric.
#pragma once

#include <cstdint>

#include "thread_state.hpp"

namespace hcc::rt {

// The node a frame is counted on.
inline Node *attributed(Node *n) { return n->kind == kProxy ? n->link : n; }

// The region of the frame (kPauseRegion for the pause marker, kNoRegion for
// the root sentinel), as exits and repairs compare it.
inline uint32_t frame_region(const Frame &f) { return attributed(f.node)->region; }

// The topmost frame that is not the pause marker (adopt.cpp).
inline uint32_t running_depth(const ThreadState *ts) {
  uint32_t d = ts->depth;
  if (d > 0 && ts->stack[d].node == ts->pause_node) --d;
  return d;
}

// Pushes a frame counted on real node `n` in recursion mode, beginning the
// mode when it is off (the caller has checked that stack[depth + 1] exists).
void push_folded(ThreadState *ts, Node *n) __attribute__((noinline));

// Recursion mode ends at `t`: the frame that began it has closed.
void fold_end_mode(ThreadState *ts, uint64_t t) __attribute__((noinline));

// The exit of the top frame, a proxy whose node is the exiting region, when
// no per-event service runs (hcc_exit's slow path): the frame's share since
// the last event, and the mode's end when it began the mode.
// `px` is the top frame's node and `depth` the thread's depth (the caller
// has both at hand).
// A proxy frame's pop without its time: what pop_folded does besides
// charging, for a frame above the one that began the mode whose proxy the
// frame below stands on too (the same proxy runs on: no clock is read).
__attribute__((always_inline)) inline void pop_proxy_frame(ThreadState *ts, Node *px, uint32_t depth) {
  --px->link->open;
  ts->succ = &px->link->after_exit;  // control flow (cfg.hpp)
  ts->depth = depth - 1;
}

__attribute__((always_inline)) inline void pop_folded(ThreadState *ts, uint64_t t, Node *px, uint32_t depth) {
  px->incl += t - ts->fold_last;
  ts->fold_last = t;
  pop_proxy_frame(ts, px, depth);
  if (__builtin_expect(depth == ts->fold_base, 0)) fold_end_mode(ts, t);
}

// close_frames() in recursion mode (after the services were told).
void fold_close_frames(ThreadState *ts, uint32_t target, uint64_t t);

// Time and counts of open frames when a profile is built now: what each
// open frame's real node, and each proxy, would hold if the frames closed at
// `now`. Calls own(node, ticks) and folded(proxy, ticks).
template <class Own, class Folded>
void open_frames_shares(const ThreadState *ts, const Frame *stack, uint32_t depth, uint64_t now, Own &&own,
                        Folded &&folded) {
  const uint32_t base = __atomic_load_n(&ts->fold_base, __ATOMIC_RELAXED);
  if (base == 0 || base > depth) {
    for (uint32_t d = 1; d <= depth; ++d)
      if (stack[d].start <= now) own(stack[d].node, now - stack[d].start);
    return;
  }
  const uint64_t t0 = ts->fold_t0, last = ts->fold_last;
  for (uint32_t d = 1; d < base; ++d)
    if (stack[d].start <= t0) own(stack[d].node, t0 - stack[d].start);
  uint32_t run = depth;
  if (run > base && stack[run].node == ts->pause_node) --run;
  if (stack[run].node->kind == kProxy && last <= now) folded(stack[run].node, now - last);
}

}  // namespace hcc::rt
