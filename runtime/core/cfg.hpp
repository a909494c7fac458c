// hcc runtime — control flow: which call path ran just before each entry of
// another (Fürlinger & Moore's predecessor lists, as ompP reports them).
//
// Each thread knows, next to its current frame, the previous node: the node
// of its last event (prev_node() below). An enter of node N counts `prev` in N's predecessor list and makes N
// the previous node; an exit of N makes N the previous node, so the next
// sibling entered sees N. So a predecessor is the parent (N is the first
// child entered since the parent was entered) or a sibling that returned just
// before N was entered (N itself for a call repeated in a loop); a child of N
// is never N's predecessor. Example: `for 20 times { foo(); bar(); }` in main
// gives foo ← main 1, bar 19 and bar ← foo 20.
//
// Storage: per node, the first predecessor and its count live in the node
// itself (pred_key, pred_count), the others in a short list from the
// thread's arena (pred_more). Every node has two successor slots (cct.hpp),
// one for its enter and one for its exit, each holding the node entered
// right after that event last time and `pending`: the calls of (this node ->
// that one) counted since the slot was filled. The thread keeps only a
// pointer to the slot of its last event (`succ`; the previous node is the
// slot's owner, prev_node()). So an enter looks at one slot: when its node
// has the region entered and the current node as parent, it is the child,
// and the predecessor count is an increment in the slot itself, in the line
// the enter has just read (the enter fast path's child lookup, hooks.cpp);
// the list, elsewhere in memory, is not touched. That hits for a call
// repeated in a loop (after foo's exit comes foo), for siblings called in
// turn (`a(); b(); c();` in a loop: after a comes b, after b comes c ...) and
// for the first child (after the parent's enter). A miss (cfg_miss) adds the
// slot's pending count to the list entry of its old node, makes sure the new
// node's entry exists (its order is the order of first occurrence) and
// refills the slot. A reader adds what the predecessor's slots hold for the
// node (cfg_for_each). Counts are per thread, like every other count.
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
// HCC_CFG=off: the same fast path runs (the slots still find the child and
// count in `pending`), but no list is made and nothing is written.
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

static_assert(offsetof(Node, after_enter) == 24, "prev_node() below");

// The node of the thread's last event: the owner of its successor slot
// (after_exit at offset 0, after_enter at offset 24 = 8 modulo 16).
inline Node *prev_node(const ThreadState *ts) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(ts->succ);
  return reinterpret_cast<Node *>(a - (a & 8) * 3);
}

// The count of predecessor `prev` at node `n`, made when new (first one in
// the node, the others in its list). Not with HCC_CFG=off.
uint64_t *cfg_count(ThreadState *ts, Node *n, const Node *prev);

// The slot `s` of the previous node does not name `n`: its pending count
// goes to its old node's list, and it names `n` from now on.
void cfg_miss(ThreadState *ts, Succ *s, Node *n) __attribute__((noinline));

// An enter of real node `n` from the general paths.
__attribute__((always_inline)) inline void cfg_enter(ThreadState *ts, Node *n) {
  Succ *s = ts->succ;
  if (__builtin_expect(s->next != n, 0)) cfg_miss(ts, s, n);
  ++s->pending;
  ts->succ = &n->after_enter;
}

// What the slots of `prev` hold for `n` and have not added to n's list yet.
// Another thread's slots may be read while it runs: a count read in the
// instant of a refill may then lack or hold twice that slot's pending part
// (a profile of a running thread is a snapshot anyway; counts of threads
// that have finished are exact).
inline uint64_t cfg_pending(const Node *prev, const Node *n) {
  uint64_t p = 0;
  if (__atomic_load_n(&prev->after_enter.next, __ATOMIC_RELAXED) == n)
    p += __atomic_load_n(&prev->after_enter.pending, __ATOMIC_RELAXED);
  if (__atomic_load_n(&prev->after_exit.next, __ATOMIC_RELAXED) == n)
    p += __atomic_load_n(&prev->after_exit.pending, __ATOMIC_RELAXED);
  return p;
}

// Calls f(key, count, order) for every predecessor of `n` (count 0 included).
template <class F>
void cfg_for_each(const Node *n, F &&f) {
  const Node *key = __atomic_load_n(&n->pred_key, __ATOMIC_RELAXED);
  if (key) f(key, n->pred_count + cfg_pending(key, n), n->pred_order);
  for (const PredEntry *e = __atomic_load_n(&n->pred_more, __ATOMIC_ACQUIRE); e; e = e->next)
    f(e->key, e->count + cfg_pending(e->key, n), e->order);
}

// Fork child: counts inherited from the parent are cleared (n's list and
// n's own slots; the root sentinel's slots too, it is a predecessor).
void cfg_clear(Node *n);

}  // namespace hcc::rt
