// hcc runtime — CCT node lookup and the per-thread arena (see cct.hpp).
#include "cct.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hcc::rt {

alignas(kNodeAlign) Node g_no_child = {{nullptr, 0}, kNoRegion, 0, {nullptr, 0}, nullptr, 0, 0, nullptr, nullptr, 0,
                               nullptr,            nullptr,   nullptr, 0, 0, 0, kReal, 0, 0, 0, 0, nullptr, nullptr};

void node_init_links(Node *n) {
  n->cache = &g_no_child;
  n->after_exit.next = &g_no_child;
  n->after_enter.next = &g_no_child;
}

namespace {
constexpr uint32_t kListMax = 8;          // siblings walked before switching to a table
constexpr size_t kChunkBytes = 256 * 1024;  // ~1300 nodes (192 bytes each, aligned) per chunk
}  // namespace

void *Arena::alloc(size_t bytes) {
  bytes = (bytes + 15) & ~size_t(15);
  if (size_t(end_ - cur_) < bytes) {
    size_t chunk = bytes > kChunkBytes ? bytes : kChunkBytes;
    // The rest of the old chunk is abandoned: simpler than a free list, and
    // at most one node's worth per chunk. Chunks start on a cache line
    // (alloc_node): calloc's zeroed memory, 64 bytes more, the start rounded
    // up (calloc, not aligned_alloc + memset: a large chunk's pages stay
    // untouched until used).
    char *raw = static_cast<char *>(std::calloc(1, chunk + kNodeAlign));
    if (!raw) {
      std::fputs("hcc: error: out of memory for the call tree\n", stderr);
      std::abort();
    }
    char *p = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(raw) + kNodeAlign - 1) & ~uintptr_t(kNodeAlign - 1));
    cur_ = p;
    end_ = p + chunk;
  }
  void *r = cur_;
  cur_ += bytes;
  return r;
}

void *Arena::alloc_node(size_t bytes) {
  // Skips to the next line boundary (the gap, under 64 bytes, stays unused);
  // when the node does not fit there, alloc() starts a new chunk, which
  // begins on a line.
  const uintptr_t at = (reinterpret_cast<uintptr_t>(cur_) + kNodeAlign - 1) & ~uintptr_t(kNodeAlign - 1);
  if (!cur_ || at + ((bytes + 15) & ~size_t(15)) > reinterpret_cast<uintptr_t>(end_))
    cur_ = end_ = nullptr;
  else
    cur_ = reinterpret_cast<char *>(at);
  return alloc(bytes);
}

void cct_init(Cct &c, uint32_t n_extra) {
  std::memset(&c.root, 0, sizeof c.root);
  c.root.region = kNoRegion;
  node_init_links(&c.root);
  c.n_extra = n_extra;
  c.next_seq = 0;
}

namespace {

void table_insert(Node **table, uint32_t mask, Node *n) {
  uint32_t i = n->region & mask;  // ids are dense small integers: identity hashes well
  while (table[i]) i = (i + 1) & mask;
  table[i] = n;
}

// Rebuilds the table at twice the size. The old one stays in the arena: a
// concurrent reader (the finalizer) may still be looking at it.
void table_grow(Cct &c, Node *p) {
  uint32_t size = p->table ? (p->table_mask + 1) * 2 : 32;
  Node **t = static_cast<Node **>(c.arena.alloc(sizeof(Node *) * size));
  for (Node *n = p->first_child; n; n = n->next_sibling) table_insert(t, size - 1, n);
  p->table_mask = size - 1;
  p->table = t;
}

}  // namespace

Node *cct_child(Cct &c, Node *p, uint32_t region) {
  if (p->table) {
    for (uint32_t i = region & p->table_mask;; i = (i + 1) & p->table_mask) {
      Node *n = p->table[i];
      if (!n) break;
      if (n->region == region) return n;
    }
  } else {
    for (Node *n = p->first_child; n; n = n->next_sibling)
      if (n->region == region) return n;
  }

  // Recursion: the region is on the path already (the parent itself, or
  // an ancestor through others). The walk happens once per (parent, region):
  // afterwards the lookup above finds the link.
  Node *ancestor = nullptr;
  for (Node *a = p; a; a = a->parent)
    if (a->region == region) {
      ancestor = a;
      break;
    }
  Node *n = static_cast<Node *>(c.arena.alloc_node(sizeof(Node) + sizeof(uint64_t) * c.n_extra));
  n->region = region;
  node_init_links(n);
  n->parent = p;
  if (ancestor) {
    n->kind = kForward;
    n->link = ancestor;
  }
  n->seq = c.next_seq++;
  n->next_sibling = p->first_child;
  // Release: the finalizer may walk this tree from another thread.
  __atomic_store_n(&p->first_child, n, __ATOMIC_RELEASE);
  ++p->nchildren;
  if (p->table && p->nchildren * 2 <= p->table_mask + 1)
    table_insert(p->table, p->table_mask, n);
  else if (p->nchildren > kListMax)
    table_grow(c, p);  // inserts every child, n included
  return n;
}

Node *cct_proxy(Cct &c, Node *n) {
  if (n->link) return n->link;
  Node *px = static_cast<Node *>(c.arena.alloc_node(sizeof(Node) + sizeof(uint64_t) * c.n_extra));
  px->region = kProxyRegion;
  px->kind = kProxy;
  node_init_links(px);  // a child entered under a proxy is looked up under `link`
  px->link = n;
  // Release: the builder may read it from another thread.
  __atomic_store_n(&n->link, px, __ATOMIC_RELEASE);
  return px;
}

}  // namespace hcc::rt
