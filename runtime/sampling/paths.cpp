// hcc runtime — turning the per-thread sample tables into call paths of a
// profile build, and their time.
//
// Time. A sample says where a thread burnt CPU, and each one weighs the CPU
// time it stands for (the thread's CPU clock since its previous sample);
// the time of an instrumented call path is still measured. So a sampled
// path's inclusive time is the CPU time of the samples in its subtree,
// taken out of its anchor's (the CCT node the unwound frames hang below)
// measured exclusive time. What no sample explains — the anchor's own CPU
// and the time it spent off the CPU, blocked in a system call or waiting
// for a core — stays with the anchor, where it happened: a poll() that
// blocks beside a CPU-bound library call no longer becomes that call's
// time. (Shares in proportion to sample counts, the earlier rule, handed
// the blocked time to whatever was sampled.) Only if the samples stand for
// more than the anchor's exclusive time (CPU clock and the wall clock
// disagree by a tick) are the sampled paths scaled down to fit it.
// The metric `sampled_cpu` shows each path's sampled CPU time, so time −
// sampled CPU is the part sampling saw off the CPU. Hence:
//  - inclusive = exclusive + children still holds for every node (integer
//    ticks, rounded down, so no exclusive value is negative);
//  - measured time and sampled time add up to the thread's time exactly;
//  - time inside MPI (or any measured call) never goes to sampled frames:
//    it is the measured child's, not the anchor's exclusive time.
// With no frame open (code outside every instrumented function, e.g. a
// program measured only through its MPI wrappers) the anchor is the thread
// itself: its exclusive time is the thread's span minus its measured roots.
#include "sampling/paths.hpp"

#include <pthread.h>

#include <cstring>
#include <map>
#include <string>
#include <unordered_map>

#include "core/clock.hpp"
#include "core/metrics.hpp"
#include "core/registry.hpp"
#include "core/thread_state.hpp"

namespace hcc::rt::sampling {

namespace {

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
// Function start (or pseudo frame) -> region id value, registered once.
std::unordered_map<uintptr_t, uint32_t> &regions_by_func() {
  static auto *m = new std::unordered_map<uintptr_t, uint32_t>;
  return *m;
}

uint32_t register_func(uintptr_t func) {
  hcc_region_desc *d;
  if (func == kFailedFrame || func == kUnknownFrame || func == kNotOnCpuFrame) {
    const char *name = func == kFailedFrame    ? "<unwind failed>"
                       : func == kUnknownFrame ? "<unknown: no call path>"
                                               : "<not on CPU>";
    d = new hcc_region_desc{name, nullptr, "", -1, -1, HCC_KIND_ARTIFICIAL, 0};
  } else {
    const Symbol s = symbolize(func);
    d = new hcc_region_desc{strdup(s.name.c_str()), s.mangled.empty() ? nullptr : strdup(s.mangled.c_str()),
                            strdup(s.file.c_str()), s.line, -1, HCC_KIND_SAMPLED, 0};
  }
  return register_region(d);  // leaked, like every descriptor
}

void prepare() {
  pthread_mutex_lock(&g_lock);
  const bool have_off_cpu = regions_by_func().count(kNotOnCpuFrame) != 0;
  pthread_mutex_unlock(&g_lock);
  if (!have_off_cpu) {
    const uint32_t id = register_func(kNotOnCpuFrame);
    pthread_mutex_lock(&g_lock);
    regions_by_func()[kNotOnCpuFrame] = id;
    pthread_mutex_unlock(&g_lock);
  }
  uint64_t taken = 0, in_runtime = 0, failed = 0, lost = 0, hits = 0, misses = 0;
  for (Buffer *b : all_buffers()) {
    taken += b->taken, in_runtime += b->in_runtime, failed += b->failed, lost += b->lost;
    hits += b->ip_hits, misses += b->ip_misses;
    const uint32_t used = __atomic_load_n(&b->used, __ATOMIC_ACQUIRE);
    for (uint32_t j = 0; j < used; ++j) {
      const uintptr_t func = __atomic_load_n(&b->table[b->by_order[j]].func, __ATOMIC_ACQUIRE);
      if (!func) continue;
      pthread_mutex_lock(&g_lock);
      bool known = regions_by_func().count(func) != 0;
      pthread_mutex_unlock(&g_lock);
      if (known) continue;
      const uint32_t id = register_func(func);
      pthread_mutex_lock(&g_lock);
      regions_by_func()[func] = id;
      pthread_mutex_unlock(&g_lock);
    }
  }
  set_profile_attr("hcc.sampling.samples",
                   std::to_string(taken) + " taken, " + std::to_string(in_runtime) +
                       " inside hcc's runtime (counted at the next call path), " + std::to_string(failed) +
                       " failed unwinds (in <unwind failed>), " + std::to_string(lost) +
                       " lost (a thread's path table was full); function-start cache " + std::to_string(hits) +
                       " hits, " + std::to_string(misses) + " misses");
}

uint32_t region_of(uintptr_t func) {
  pthread_mutex_lock(&g_lock);
  auto it = regions_by_func().find(func);
  uint32_t id = it == regions_by_func().end() ? 0 : it->second;
  pthread_mutex_unlock(&g_lock);
  return id;
}

Buffer *buffer_of(ThreadState *ts) {
  for (Buffer *b : all_buffers())
    if (b->ts == ts) return b;
  return nullptr;
}

void add(ThreadState *ts, const std::vector<const Node *> &nodes, const std::vector<int> &parent,
         const std::vector<uint64_t> &incl, uint64_t now, std::vector<AddedPath> &out) {
  Buffer *b = buffer_of(ts);
  if (!b) return;
  const uint32_t used = __atomic_load_n(&b->used, __ATOMIC_ACQUIRE);
  if (!used) return;
  const int metric = samples_metric();
  const size_t n = nodes.size();
  std::unordered_map<const Node *, int> index;
  for (size_t i = 0; i < n; ++i) index[nodes[i]] = int(i);

  // Measured exclusive ticks of every node, and of the thread itself.
  std::vector<int64_t> ex(incl.begin(), incl.end());
  const uint64_t end = b->end_tick ? b->end_tick : now;
  int64_t root_ex = int64_t(end - b->start_tick);
  for (size_t i = 0; i < n; ++i) (parent[i] >= 0 ? ex[size_t(parent[i])] : root_ex) -= int64_t(incl[i]);

  // Entries in creation order (a parent before its children).
  constexpr int kInvalid = -2, kRoot = -1;
  std::vector<int> anchor(used, kInvalid), up(used, -1), fold_to(used, -1);
  std::vector<uint64_t> count(used, 0), sub(used, 0), cpu(used, 0), sub_ns(used, 0);
  std::vector<uintptr_t> func(used, 0);
  std::map<std::pair<int64_t, uintptr_t>, int> kept;  // (parent entry or anchor, function) -> entry
  for (uint32_t j = 0; j < used; ++j) {
    const Entry &e = b->table[b->by_order[j]];
    func[j] = __atomic_load_n(&e.func, __ATOMIC_ACQUIRE);
    if (!func[j]) continue;
    count[j] = e.count;
    cpu[j] = e.cpu_ns;
    const uintptr_t tag = e.parent;
    if (tag & 1) {
      const uint32_t slot = uint32_t(tag >> 1);
      if (slot >= b->cap) continue;
      const uint32_t p = b->table[slot].order;
      if (p >= j || (anchor[p] == kInvalid && fold_to[p] < 0)) continue;
      up[j] = fold_to[p] >= 0 ? fold_to[p] : int(p);  // below the entry its parent folded into
      anchor[j] = anchor[size_t(up[j])];
    } else if (tag == uintptr_t(&ts->cct.root)) {
      anchor[j] = kRoot;
    } else {
      auto it = index.find(reinterpret_cast<const Node *>(tag));
      if (it != index.end()) anchor[j] = it->second;
    }
    if (!region_of(func[j])) anchor[j] = kInvalid;  // made after prepare(): next build
    // Recursion folds as instrumented recursion does (runtime/core/fold.hpp):
    // a frame whose function is already on its sampled path counts on that
    // earlier entry, and its callees hang below it (a parent comes before
    // its children, so theirs is redirected already), so fib's thirty
    // sampled levels are one path, not thirty.
    // Folding makes siblings of frames that had different parents, so a
    // function may then meet an entry of its own below the same parent: the
    // two are one path too.
    if (anchor[j] == kInvalid) continue;
    int into = -1;
    for (int k = up[j]; k >= 0 && into < 0; k = up[size_t(k)])
      if (func[size_t(k)] == func[j]) into = k;
    const int64_t below = up[j] >= 0 ? up[j] : -2 - int64_t(anchor[j]);  // an entry, or an anchor
    if (into < 0) {
      auto [it, fresh] = kept.emplace(std::make_pair(below, func[j]), int(j));
      if (!fresh) into = it->second;
    }
    if (into >= 0) {
      count[size_t(into)] += count[j];
      cpu[size_t(into)] += cpu[j];
      fold_to[j] = into;
      anchor[j] = kInvalid;  // no path of its own
    }
  }
  // Samples and their CPU ns in sampled paths per anchor (n = the thread).
  std::vector<uint64_t> below_ns(n + 1, 0);
  for (uint32_t j = used; j-- > 0;) {
    if (anchor[j] == kInvalid) continue;
    sub[j] += count[j];
    sub_ns[j] += cpu[j];
    if (up[j] >= 0) {
      sub[size_t(up[j])] += sub[j];
      sub_ns[size_t(up[j])] += sub_ns[j];
    } else {
      below_ns[anchor[j] == kRoot ? n : size_t(anchor[j])] += sub_ns[j];
    }
  }
  const double ticks_per_ns = 1e-9 / clock_seconds_per_tick();
  const int cpu_m = cpu_metric();
  std::vector<int> out_index(used, -1);
  uint64_t root_shared = 0;  // time given to sampled roots
  for (uint32_t j = 0; j < used; ++j) {
    const int a = anchor[j];
    if (a == kInvalid || sub[j] == 0) continue;
    const size_t ai = a == kRoot ? n : size_t(a);
    const int64_t e = a == kRoot ? root_ex : ex[ai];
    // The subtree's CPU in ticks, scaled down only where all of the
    // anchor's sampled paths would exceed its exclusive time.
    const double want = double(below_ns[ai]) * ticks_per_ns;
    const double scale = want > double(e) ? double(e) / want : 1.0;
    const uint64_t share = e > 0 ? uint64_t(double(sub_ns[j]) * ticks_per_ns * scale) : 0;
    AddedPath p = AddedPath::make(extra_metric_count());
    Node *node = p.node();
    node->region = region_of(func[j]);
    node->extra()[metric] = count[j];
    node->extra()[cpu_m] = cpu[j];
    if (up[j] >= 0) {
      const int o = out_index[size_t(up[j])];
      if (o < 0) continue;
      p.parent = int(n) + o;
      node->parent = out[size_t(o)].node();
    } else {
      p.parent = a == kRoot ? -1 : a;
      node->parent = a == kRoot ? &ts->cct.root : const_cast<Node *>(nodes[ai]);
    }
    p.incl = share;
    if (a == kRoot && up[j] < 0) root_shared += share;
    out_index[j] = int(out.size());
    out.push_back(std::move(p));
  }
  // The thread itself has no frame to keep what no sample explains (time
  // off the CPU, or between its first event and its first sample outside
  // every frame): a root <not on CPU> keeps it, so the roots still add up
  // to the thread's time.
  if (below_ns[n] > 0 && root_ex > int64_t(root_shared)) {
    AddedPath p = AddedPath::make(extra_metric_count());
    p.node()->region = region_of(kNotOnCpuFrame);
    p.node()->parent = &ts->cct.root;
    p.parent = -1;
    p.incl = uint64_t(root_ex) - root_shared;
    out.push_back(std::move(p));
  }
}

}  // namespace

const PathSource kSampledPaths = {prepare, add};

}  // namespace hcc::rt::sampling
