// hcc runtime — control flow: the predecessor lists' slow path (see cfg.hpp).
#include "cfg.hpp"

namespace hcc::rt {

bool g_cfg = true;

uint64_t *cfg_count(ThreadState *ts, Node *n, const Node *prev) {
  if (!g_cfg) return &n->pred_count;  // HCC_CFG=off: counted nowhere that is written
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
  s->count = cfg_count(ts, n, prev_node(ts));
  s->next = n;
}

void cfg_clear(Node *n) {
  n->pred_count = 0;
  for (PredEntry *e = n->pred_more; e; e = e->next) e->count = 0;
}

}  // namespace hcc::rt
