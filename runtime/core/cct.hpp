// hcc runtime — one thread's call-context tree (CCT).
//
// A node is one call path of this thread. The fields touched on every event
// (successor slots, region, parent, visits, inclusive ticks) come first and
// nodes start on a cache line (the arena aligns them to 64 bytes), so one line
// serves enter and exit. Child lookup on the fast path: the
// successor slot of the thread's previous event (cfg.hpp) names the node
// entered after that event last time, and it is the child when its region
// and parent match. The general path then tries the parent's `cache` (last
// child found), then a sibling list, which becomes an open-addressing table
// once a node has many children. Nodes come from a per-thread bump arena, so
// nothing is allocated once a program's call paths have all been seen.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hcc::rt {

// The region value of the per-thread root sentinel and of the "no child"
// sentinel: descriptor ids are region index + 1 and never reach it.
constexpr uint32_t kNoRegion = 0xFFFFFFFFu;
// The region value of a proxy node (below): like kNoRegion, never a
// descriptor id, so a frame standing on a proxy never matches an exit's
// compare and every event on it takes the general paths.
constexpr uint32_t kProxyRegion = 0xFFFFFFFDu;

// What a Node is (fold.hpp explains recursion folding).
enum NodeKind : uint8_t {
  kReal = 0,     // a call path of this thread's tree
  kForward = 1,  // fold link in its parent's child lookup: entering `region` below the
                 // parent is a recursive call of the ancestor `link` (same region);
                 // never on the stack, never a call path of the profile
  kProxy = 2,    // stands on the stack for frames of the real node `link` opened in
                 // recursion mode; `incl` and the extra counters hold the exclusive
                 // share charged to `link` then; not in the tree
  kSampled = 3,  // made by a profile build for a sampled call path (extra_paths.hpp);
                 // never in a thread's tree, never on the stack
};

struct Node;

// Control flow's successor cache (cfg.hpp), one per event of a node: the
// node entered right after that event last time, and the calls of
// (this node -> next) counted here since the slot was filled, not yet added
// to next's predecessor list: a hit counts in the line the enter reads
// anyway, without a search and without touching the list.
struct Succ {
  Node *next;         // &g_no_child until something was entered after the event
  uint64_t pending;   // predecessor count of (owner -> next) held here; cfg_miss adds
                      // it to next's list when the slot is refilled, readers add it
};

struct Node {
  // The fields every event touches come first (one cache line: 64 bytes).
  // after_exit sits at offset 0 so the exit fast path stores the node's own
  // address as the thread's successor slot; after_enter sits at offset 24,
  // which is 8 modulo 16 (nodes are 16-byte aligned), so prev_node() tells
  // the two apart and the thread needs no separate previous-node pointer.
  Succ after_exit;       // what was entered right after this node's exit (a sibling, itself)
  uint32_t region;       // descriptor id value (region index + 1)
  uint32_t nchildren;
  Succ after_enter;      // what was entered right after this node's enter (its first child)
  Node *parent;          // the enter fast path checks a cached successor's parent
  uint64_t visits;       // counted at enter (kForward: calls made through the link)
  uint64_t incl;         // inclusive ticks of closed visits (kProxy: exclusive ticks, see fold.hpp)
  // --- the general paths only ---
  Node *cache;           // child found last time; &g_no_child when none yet (kForward included)
  // Control flow (cfg.hpp): the first predecessor and its count; the others
  // in pred_more. Counts never move, so a Succ may point at one.
  const Node *pred_key;  // null until the first visit
  uint64_t pred_count;
  Node *first_child;     // newest first; published with release for readers
  Node *next_sibling;
  Node **table;          // children by region, once nchildren > kListMax
  uint32_t table_mask;
  uint32_t seq;          // creation order in this thread (stable output order)
  // A base frame pushed by adopt_path (an OpenMP worker's copy of its
  // master's call path): kept in the merge although it has no visits here.
  uint8_t adopted;
  uint8_t kind;          // NodeKind
  uint16_t reserved_;
  // Recursion mode only (fold.hpp): frames of this call path open now, and
  // the most ever open at once (the recursion depth folded into it; 0 when
  // the node never met recursion mode).
  uint32_t open;
  uint32_t max_open;
  uint32_t pred_order;   // pred_key's rank in order of first occurrence (cfg.hpp)
  // kReal: its proxy once it had a frame in recursion mode (else null);
  // kForward: the ancestor it folds into; kProxy: the real node it stands for.
  Node *link;
  struct PredEntry *pred_more;  // the other predecessors (cfg.hpp); published with release
  // Followed by `n_extra` uint64_t counters (metrics added by later services;
  // 0 today). Kept out of the struct so time/visits never pay for them.
  uint64_t *extra() { return reinterpret_cast<uint64_t *>(this + 1); }
  const uint64_t *extra() const { return reinterpret_cast<const uint64_t *>(this + 1); }
};
static_assert(sizeof(Node) % alignof(uint64_t) == 0, "extra counters follow a Node");
static_assert(offsetof(Node, after_exit) == 0 && offsetof(Node, after_enter) % 16 == 8,
              "prev_node() tells the two successor slots apart by address");
static_assert(offsetof(Node, incl) + sizeof(uint64_t) <= 64, "the hot fields share one cache line");
// Nodes of a thread's tree start on a cache line (Arena::alloc_node), so the
// line above is one line, not two.
constexpr size_t kNodeAlign = 64;

// Sentinel every new node's cache and successor slots point to, so the hot
// path needs no null test (its region never matches).
extern Node g_no_child;

// A fresh node's successor slots and cache (the arena hands out zeroed memory).
void node_init_links(Node *n);

// Chunked bump allocator, one per thread, never freed (threads that ended
// still appear in the profile).
class Arena {
 public:
  void *alloc(size_t bytes);  // 16-byte aligned, zeroed; aborts when out of memory
  // A node and its extra counters: kNodeAlign-aligned, so its hot fields are
  // one cache line (the padding, under 64 bytes, is what that costs).
  void *alloc_node(size_t bytes);

 private:
  char *cur_ = nullptr;
  char *end_ = nullptr;
};

struct Cct {
  alignas(kNodeAlign) Node root;  // sentinel above the thread's roots; region kNoRegion
  Arena arena;
  uint32_t n_extra = 0; // extra counters per node, fixed when the thread starts
  uint32_t next_seq = 0;
};

void cct_init(Cct &c, uint32_t n_extra);

// Slow path of child lookup: finds or creates the child of `parent` for
// `region` (does not update parent->cache; the caller does). When `parent`
// or one of its ancestors is `region` already, the entry made (once per
// parent and region) is a kForward link to the nearest such ancestor:
// recursion never makes a new call path.
Node *cct_child(Cct &c, Node *parent, uint32_t region) __attribute__((noinline));

// The proxy of real node `n`, made on first use (fold.hpp).
Node *cct_proxy(Cct &c, Node *n) __attribute__((noinline));

// Calls f(node) for every node below the root, parents before children,
// without recursion and without allocating (kForward entries included:
// callers that want call paths skip them).
template <class F>
void cct_for_each(Node &root, F &&f) {
  Node *n = __atomic_load_n(&root.first_child, __ATOMIC_ACQUIRE);
  while (n) {
    f(n);
    Node *down = __atomic_load_n(&n->first_child, __ATOMIC_ACQUIRE);
    if (down) {
      n = down;
      continue;
    }
    while (n != &root && !n->next_sibling) n = n->parent;
    if (n == &root) break;
    n = n->next_sibling;
  }
}

}  // namespace hcc::rt
