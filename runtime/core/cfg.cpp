// hcc runtime — control flow: the predecessor lists' slow path (see cfg.hpp).
#include "cfg.hpp"

namespace hcc::rt {

bool g_cfg = true;

uint64_t *cfg_count(ThreadState *ts, Node *n, const Node *prev) {
  if (n->pred_key == prev) return &n->pred_count;
  if (!n->pred_key) {  // first visit
    n->pred_order = 0;
    __atomic_store_n(&n->pred_key, prev, __ATOMIC_RELAXED);  // the builder may read it now
    return &n->pred_count;
  }
  uint32_t seen = 1;
  PredEntry *e = n->pred_more;
  for (; e && e->key != prev; e = e->next) ++seen;
  if (!e) {
    e = static_cast<PredEntry *>(ts->cct.arena.alloc(sizeof(PredEntry)));
    e->key = prev;
    e->order = seen;
    e->next = n->pred_more;
    __atomic_store_n(&n->pred_more, e, __ATOMIC_RELEASE);  // the builder may read it now
  }
  return &e->count;
}

void cfg_miss(ThreadState *ts, Succ *s, Node *n) {
  if (g_cfg) {  // HCC_CFG=off: no list; the slot counts on, read by nobody
    const Node *prev = prev_node(ts);
    // The new node's entry is made now if new (it keeps the order of first
    // occurrence); the old node's entry takes what the slot counted for it.
    cfg_count(ts, n, prev);
    if (s->pending) {
      *cfg_count(ts, s->next, prev) += s->pending;
      __atomic_store_n(&s->pending, 0, __ATOMIC_RELAXED);
    }
  }
  __atomic_store_n(&s->next, n, __ATOMIC_RELAXED);
  s->pending = 0;
}

void cfg_clear(Node *n) {
  n->pred_count = 0;
  for (PredEntry *e = n->pred_more; e; e = e->next) e->count = 0;
  n->after_enter.pending = 0;
  n->after_exit.pending = 0;
}

}  // namespace hcc::rt
