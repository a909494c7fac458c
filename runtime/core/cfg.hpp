// hcc runtime — control flow: which call path ran just before each entry of
// another (Fürlinger & Moore's predecessor lists, as ompP reports them).
//
// Each thread keeps, next to its current frame, `prev`: the node of its last
// event. An enter of node N counts `prev` in N's predecessor list and makes N
// the previous node; an exit of N makes N the previous node, so the next
// sibling entered sees N. So a predecessor is the parent (N is the first
// child entered since the parent was entered) or a sibling that returned just
// before N was entered (N itself for a call repeated in a loop); a child of N
// is never N's predecessor. Example: `for 20 times { foo(); bar(); }` in main
// gives foo ← main 1, bar 19 and bar ← foo 20.
//
// Storage: per node, the predecessor counted last and its count live in the
// node itself (pred_key, pred_count), so the fast path's extra work is one
// compare with the thread's prev, one increment and two stores (prev at enter
// and at exit). A different predecessor takes the general path, whose
// cfg_miss() swaps it in from the node's short list of other predecessors
// (made from the thread's arena; constant work in the common case of a few
// siblings). Counts are per thread, like every other count.
//
// The special cases follow from the events the stack sees:
// - closed frames (exit repair, longjmp, thread end): as if each had exited,
//   so the lowest closed frame becomes the previous node;
// - recursion folding: a frame counted on an ancestor node counts its
//   predecessor on that node (direct recursion: fib ← fib), and the previous
//   node is always a real node of the tree, never a proxy;
// - the depth cut: its node counts predecessors like any other; enters and
//   exits below it touch nothing;
// - adopted base frames (an OpenMP worker's copy of its master's path) count
//   nothing; the worker's previous node becomes the innermost adopted frame
//   (the parallel region's parent) unless it is a child of that frame;
// - hcc_pause's marker and skipped enters touch nothing;
// - a root's first visit has the thread's root sentinel as predecessor,
//   which is not a call path: it is left out of the profile.
// HCC_CFG=off: the same fast path runs (its cost is the same), but misses
// keep no list and nothing is written.
#pragma once

#include "thread_state.hpp"

namespace hcc::rt {

// A predecessor other than the node's current pred_key.
struct PredEntry {
  const Node *key;
  uint64_t count;
  uint32_t order;   // rank in order of first occurrence at this node
  PredEntry *next;
};

// HCC_CFG (on by default): set at start-up, before the first event.
extern bool g_cfg;

// `prev` is not n->pred_key: find or make its entry and swap it in, counted.
void cfg_miss(ThreadState *ts, Node *n, const Node *prev) __attribute__((noinline));

// An enter of real node `n` from the general paths.
__attribute__((always_inline)) inline void cfg_enter(ThreadState *ts, Node *n) {
  const Node *prev = ts->prev;
  if (__builtin_expect(n->pred_key == prev, 1)) ++n->pred_count;
  else cfg_miss(ts, n, prev);
  ts->prev = n;
}

// Calls f(key, count, order) for every predecessor of `n` (count 0 included).
template <class F>
void cfg_for_each(const Node *n, F &&f) {
  const Node *key = __atomic_load_n(&n->pred_key, __ATOMIC_RELAXED);
  if (key) f(key, n->pred_count, n->pred_order);
  for (const PredEntry *e = __atomic_load_n(&n->pred_more, __ATOMIC_ACQUIRE); e; e = e->next)
    f(e->key, e->count, e->order);
}

// Fork child: counts inherited from the parent are cleared.
void cfg_clear(Node *n);

}  // namespace hcc::rt
