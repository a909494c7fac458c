// hcc runtime — call paths a service adds to a profile build (sampling's
// unwound frames). The core knows the service only through this seam.
//
// At each build the builder calls prepare() once (before it copies the
// region registry: the place to register the service's regions), then
// add() per thread with that thread's call paths (real CCT nodes in creation
// order, the index of each one's parent or -1, and inclusive ticks). The
// service returns new paths below them; each gets a node made for this build
// only (kind kSampled: region, extra counters, `parent` pointing at the
// parent's node), with its inclusive ticks, so time stays inclusive =
// exclusive + children: an added path's time comes out of its parent's
// exclusive time.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cct.hpp"

namespace hcc::rt {

struct ThreadState;

struct AddedPath {
  int parent = -1;  // index among the thread's nodes, then the added ones (nodes.size() + j); -1 = a root
  uint64_t incl = 0;
  std::unique_ptr<uint64_t[]> storage;  // the Node, followed by its extra counters
  const Node *node() const { return reinterpret_cast<const Node *>(storage.get()); }
  Node *node() { return reinterpret_cast<Node *>(storage.get()); }
  // A zeroed node of kind kSampled with room for `n_extra` counters.
  static AddedPath make(uint32_t n_extra) {
    AddedPath a;
    const size_t words = (sizeof(Node) + n_extra * sizeof(uint64_t)) / sizeof(uint64_t);
    a.storage.reset(new uint64_t[words]());
    a.node()->kind = kSampled;
    return a;
  }
};

// An amount the service adds to an extra counter of one of the thread's
// own nodes for this build only (sampling: samples it kept in its table
// that turn out to be the node's own).
struct ExtraAdd {
  int node;    // index among the thread's nodes
  int metric;  // extra-counter index
  uint64_t amount;
};

struct PathSource {
  void (*prepare)();
  void (*add)(ThreadState *ts, const std::vector<const Node *> &nodes, const std::vector<int> &parent,
              const std::vector<uint64_t> &incl, uint64_t now, std::vector<AddedPath> &out,
              std::vector<ExtraAdd> &adds);
};

// Set once at start-up (services_init), read by every build; null = none.
void set_path_source(const PathSource *s);
const PathSource *path_source();

}  // namespace hcc::rt
