// hcc runtime — control flow: the predecessor lists' slow path (see cfg.hpp).
#include "cfg.hpp"

namespace hcc::rt {

bool g_cfg = true;

void cfg_miss(ThreadState *ts, Node *n, const Node *prev) {
  if (!g_cfg) {  // HCC_CFG=off: keep the fast path hitting, count nothing
    n->pred_key = prev;
    return;
  }
  if (!n->pred_key) {  // first visit
    n->pred_key = prev;
    n->pred_count = 1;
    n->pred_order = 0;
    return;
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
  // The predecessor seen last stays in the node: a loop's steady state hits.
  const Node *k = n->pred_key;
  const uint64_t c = n->pred_count;
  const uint32_t o = n->pred_order;
  n->pred_key = e->key;
  n->pred_count = e->count + 1;
  n->pred_order = e->order;
  e->key = k;
  e->count = c;
  e->order = o;
}

void cfg_clear(Node *n) {
  n->pred_count = 0;
  for (PredEntry *e = n->pred_more; e; e = e->next) e->count = 0;
}

}  // namespace hcc::rt
