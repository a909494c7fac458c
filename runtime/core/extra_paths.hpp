// hcc runtime — call paths a service adds to a profile build (sampling's
// unwound frames). The core knows the service only through this seam.
//
// At each build the builder calls prepare() once (before it copies the
// region registry: the place to register the service's regions), then
// add() per thread with that thread's call paths (real CCT nodes in creation
// order, the index of each one's parent or -1, and inclusive ticks). The
// service returns new paths below them; each gets a node made for this build
// only (kind kSampled: region, extra counters, `parent` pointing at the
// parent's node). A path below one of the thread's nodes carries the CPU
// time its samples stand for (`own_ns`), and the builder gives it its time
// with every other untimed node's (untimed_time.hpp): out of the exclusive
// time of the nearest timed node above it, so inclusive = exclusive +
// children still holds. A path the service timed itself (below the thread's
// root, where no node has a measured time) gives its inclusive ticks.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cct.hpp"

namespace hcc::rt {

struct ThreadState;

struct AddedPath {
  int parent = -1;  // index among the thread's nodes, then the added ones (nodes.size() + j); -1 = a root
  uint64_t incl = 0;          // when !from_samples: its inclusive ticks
  uint64_t own_ns = 0;        // when from_samples: the CPU ns of the samples on this path itself
  bool from_samples = false;  // its time is the builder's to give (untimed_time.hpp)
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
  // The extra counter holding the CPU ns of the samples that landed on a
  // node itself (an untimed node's own time), or -1.
  int (*cpu_metric)();
  // Samples taken so far, over all threads: a run that entered no region
  // and took none measured nothing (lifecycle.cpp).
  uint64_t (*samples_taken)();
  void (*prepare)();
  void (*add)(ThreadState *ts, const std::vector<const Node *> &nodes, const std::vector<int> &parent,
              const std::vector<uint64_t> &incl, uint64_t now, std::vector<AddedPath> &out,
              std::vector<ExtraAdd> &adds);
  // The extra counter holding the number of samples that landed on a node
  // itself, the CPU time between two samples (ns), and the region of the
  // `<not on CPU>` frame (registered on first use; the builder's off-CPU
  // children, off_cpu.hpp).
  int (*samples_metric)();
  uint64_t (*interval_ns)();
  uint32_t (*not_on_cpu_region)();
  // The extra counter of the CPU ns of samples taken inside hcc's code
  // (measurement_cpu), on the node that was the innermost open frame.
  int (*measurement_metric)();
};

// Set once at start-up (services_init), read by every build; null = none.
void set_path_source(const PathSource *s);
const PathSource *path_source();

}  // namespace hcc::rt
