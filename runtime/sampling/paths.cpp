// hcc runtime — turning the per-thread sample tables into call paths of a
// profile build.
//
// Time. A sample says where a thread burnt CPU, and each one weighs the CPU
// time it stands for (the thread's CPU clock since its previous sample).
// A sampled path below one of the thread's nodes carries that CPU time
// (AddedPath::own_ns) and the builder gives it its time, with every other
// node hcc did not time (counted, throttled: core/untimed_time.hpp), out of
// the exclusive time of the nearest timed node above it. Below the thread
// itself (code outside every instrumented function, e.g. a program measured
// only through its MPI wrappers) this file gives the time: the thread's span
// minus its measured roots is shared by the sampled roots (scaled down only
// where they stand for more), and a root `<not on CPU>` keeps the rest.
//
// Which node a frame hangs below. The walk stops at the innermost open
// frame's function, or at another instrumented function that has no frame
// open (a counted leaf, a region excluded at run time, its code before its
// enter or after its exit), which it keeps as the outermost frame. Such a
// frame, or a machine copy of an instrumented function (GCC's .part/.isra
// clones, matched by linker name), right below the anchor is that
// function's own node where the anchor has one as a child: the sample is
// its time, and the frames above hang below it. Without such a node, a
// function known as instrumented is a sampled frame of its own (excluded at
// run time), and an unknown copy is the anchor's code inlined there.
#include "sampling/paths.hpp"

#include <pthread.h>

#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

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
// An inlined function's region, by name, file and line of its declaration.
std::map<std::string, uint32_t> &inlined_regions() {
  static auto *m = new std::map<std::string, uint32_t>;
  return *m;
}
// A frame's key (sampling.hpp) -> its regions, outermost first: the
// function, then the calls inlined at the site (only those for an
// inlined-only key, which may have none).
std::unordered_map<uintptr_t, std::vector<uint32_t>> &chains() {
  static auto *m = new std::unordered_map<uintptr_t, std::vector<uint32_t>>;
  return *m;
}

// Which function a region is, by linker name: a sampled function's
// without GCC's clone suffix ("heavy.part.0", "_Z1fi.constprop.0", "f.cold"
// -> "heavy", "_Z1fi", "f"), an inlined call's, and (as of the last
// prepare()) an instrumented function's, its plain name when it has none.
// GCC at -O2 inlines a function into its caller or splits it, and only the
// machine copy that registered the region is known to the handler as
// instrumented: a sampled frame of another copy is that function.
std::unordered_map<uint32_t, std::string> &linker_names() {
  static auto *m = new std::unordered_map<uint32_t, std::string>;
  return *m;
}
std::unordered_map<uint32_t, std::string> &measured_names() {
  static auto *m = new std::unordered_map<uint32_t, std::string>;
  return *m;
}
// Linker name -> the instrumented regions of that name (as of prepare()).
std::unordered_map<std::string, std::vector<uint32_t>> &measured_by_name() {
  static auto *m = new std::unordered_map<std::string, std::vector<uint32_t>>;
  return *m;
}
// Keys whose function is known to the handler as instrumented: where a
// walk stopped at an instrumented function without an open frame.
std::unordered_set<uintptr_t> &stop_keys() {
  static auto *s = new std::unordered_set<uintptr_t>;
  return *s;
}

// Callers hold g_lock.
uint32_t func_region(uintptr_t func) {
  auto it = regions_by_func().find(func);
  if (it != regions_by_func().end()) return it->second;
  hcc_region_desc *d;
  std::string linker_name;
  if (func == kFailedFrame || func == kUnknownFrame || func == kNotOnCpuFrame) {
    const char *name = func == kFailedFrame    ? "<unwind failed>"
                       : func == kUnknownFrame ? "<unknown: no call path>"
                                               : "<not on CPU>";
    d = new hcc_region_desc{name, nullptr, "", -1, -1, HCC_KIND_ARTIFICIAL, 0};
  } else {
    const Symbol s = symbolize(func);
    d = new hcc_region_desc{strdup(s.name.c_str()), s.mangled.empty() ? nullptr : strdup(s.mangled.c_str()),
                            strdup(s.file.c_str()), s.line, -1, HCC_KIND_SAMPLED, 0};
    linker_name = s.mangled.substr(0, s.mangled.find('.'));
  }
  const uint32_t id = register_region(d);  // leaked, like every descriptor
  regions_by_func()[func] = id;
  if (!linker_name.empty()) linker_names()[id] = linker_name;
  return id;
}

// Whether sampled region `sampled` is a copy of the instrumented region
// `measured`, or (measured = 0) of any instrumented function. Callers hold g_lock.
bool copy_of(uint32_t sampled, uint32_t measured) {
  auto s = linker_names().find(sampled);
  if (s == linker_names().end()) return false;
  if (!measured) return measured_by_name().count(s->second) != 0;
  auto m = measured_names().find(measured);
  return m != measured_names().end() && m->second == s->second;
}

// The instrumented regions sampled region `sampled` is a copy of (same
// linker name), or none. Callers hold g_lock.
const std::vector<uint32_t> *measured_copies(uint32_t sampled) {
  auto s = linker_names().find(sampled);
  if (s == linker_names().end()) return nullptr;
  auto m = measured_by_name().find(s->second);
  return m == measured_by_name().end() ? nullptr : &m->second;
}

uint32_t inlined_region(const Symbol &s) {
  // Marked in its name, so every view (summary, CUBE, flame graph, diff)
  // tells an inlined call from a call of the function's own copy.
  const std::string name = s.name + " [inlined]";
  const std::string key = name + '\0' + s.file + '\0' + std::to_string(s.line);
  auto it = inlined_regions().find(key);
  if (it != inlined_regions().end()) return it->second;
  const uint32_t id = register_region(
      new hcc_region_desc{strdup(name.c_str()), nullptr, strdup(s.file.c_str()), s.line, -1, HCC_KIND_SAMPLED, 0});
  inlined_regions()[key] = id;
  if (!s.mangled.empty()) linker_names()[id] = s.mangled;
  return id;
}

// Callers hold g_lock.
void make_chain(uintptr_t key) {
  if (chains().count(key)) return;
  std::vector<uint32_t> chain;
  if (!(key & kSiteBit)) {
    chain.push_back(func_region(key));
    if (key > kNotOnCpuFrame && is_instrumented_function(key)) stop_keys().insert(key);
  } else {
    const uintptr_t site = key & kSiteMask;
    const uintptr_t start = function_start_slow(site);
    if (!(key & kInlinedOnlyBit)) {
      chain.push_back(func_region(start ? start : site));
      if (start && is_instrumented_function(start)) stop_keys().insert(key);
    }
    for (const Symbol &s : inlined_at(site)) chain.push_back(inlined_region(s));
  }
  chains()[key] = std::move(chain);
}

void prepare() {
  std::unordered_map<uint32_t, std::string> names;
  const std::vector<RegionInfo> regions = regions_snapshot();
  for (size_t i = 0; i < regions.size(); ++i)  // a region's id is its index + 1
    if (regions[i].kind == HCC_KIND_FUNCTION)
      names[uint32_t(i + 1)] = regions[i].mangled.empty() ? regions[i].name : regions[i].mangled;
  pthread_mutex_lock(&g_lock);
  measured_by_name().clear();
  for (const auto &[id, name] : names) measured_by_name()[name].push_back(id);
  measured_names() = std::move(names);
  func_region(kNotOnCpuFrame);
  uint64_t taken = 0, in_runtime = 0, failed = 0, lost = 0, hits = 0, misses = 0;
  for (Buffer *b : all_buffers()) {
    taken += b->taken, in_runtime += b->in_runtime, failed += b->failed, lost += b->lost;
    hits += b->ip_hits, misses += b->ip_misses;
    const uint32_t used = __atomic_load_n(&b->used, __ATOMIC_ACQUIRE);
    for (uint32_t j = 0; j < used; ++j)
      if (const uintptr_t key = __atomic_load_n(&b->table[b->by_order[j]].func, __ATOMIC_ACQUIRE)) make_chain(key);
  }
  pthread_mutex_unlock(&g_lock);
  set_profile_attr("hcc.sampling.samples",
                   std::to_string(taken) + " taken, " + std::to_string(in_runtime) +
                       " inside hcc's code (their CPU time in measurement_cpu), " + std::to_string(failed) +
                       " failed unwinds (in <unwind failed>), " + std::to_string(lost) +
                       " lost (a thread's path table was full); function-start cache " + std::to_string(hits) +
                       " hits, " + std::to_string(misses) + " misses");
}

Buffer *buffer_of(ThreadState *ts) {
  for (Buffer *b : all_buffers())
    if (b->ts == ts) return b;
  return nullptr;
}

// One call path made of the table's entries: a region below its parent
// (another such node, or the anchor).
struct Path {
  int up;         // parent Path, or -1: right below the anchor
  int anchor;     // index in the thread's nodes, or kRoot (the thread itself)
  uint32_t region;
  uint64_t count = 0, cpu = 0, sub = 0, sub_ns = 0;
};
constexpr int kRoot = -1;

void add(ThreadState *ts, const std::vector<const Node *> &nodes, const std::vector<int> &parent,
         const std::vector<uint64_t> &incl, uint64_t now, std::vector<AddedPath> &out,
         std::vector<ExtraAdd> &adds) {
  Buffer *b = buffer_of(ts);
  if (!b) return;
  const uint32_t used = __atomic_load_n(&b->used, __ATOMIC_ACQUIRE);
  if (!used) return;
  const int metric = samples_metric();
  const int cpu_m = cpu_metric();
  const size_t n = nodes.size();
  std::unordered_map<const Node *, int> index;
  // (parent index or kRoot, region) -> the node: where a sampled frame of an
  // instrumented function finds that function's node below its anchor.
  std::map<std::pair<int, uint32_t>, int> real_child;
  for (size_t i = 0; i < n; ++i) {
    index[nodes[i]] = int(i);
    real_child.emplace(std::make_pair(parent[i], nodes[i]->region), int(i));
  }

  // The thread's own exclusive ticks: its span minus its measured roots.
  const uint64_t end = b->end_tick ? b->end_tick : now;
  int64_t root_ex = int64_t(end - b->start_tick);
  for (size_t i = 0; i < n; ++i)
    if (parent[i] < 0) root_ex -= int64_t(incl[i]);

  // Entries in creation order (a parent before its children). Each adds
  // its regions below its parent's path, one path per region.
  // Recursion folds as instrumented recursion does (runtime/core/fold.hpp):
  // a region already on the path takes the frame's samples on its first
  // occurrence, and the frames below hang below it, so fib's thirty
  // sampled levels are one path, not thirty. Folding makes siblings of
  // frames that had different parents: a region meeting a path of its own
  // below the same parent joins it.
  constexpr int kInvalid = -2;
  std::vector<Path> paths;
  std::map<std::pair<int64_t, uint32_t>, int> child;  // (parent path, or -2 - anchor; region) -> path
  std::vector<int> at(used, kInvalid);   // entry -> its innermost path, -1 = the anchor itself
  std::vector<int> anchor_of(used, kInvalid);
  std::vector<uint64_t> self_count(n + 1, 0), self_ns(n + 1, 0);  // samples given back to anchors
  pthread_mutex_lock(&g_lock);
  for (uint32_t j = 0; j < used; ++j) {
    const Entry &e = b->table[b->by_order[j]];
    const uintptr_t key = __atomic_load_n(&e.func, __ATOMIC_ACQUIRE);
    if (!key) continue;
    auto chain = chains().find(key);
    if (chain == chains().end()) continue;  // made after prepare(): next build
    int cur = -1, anchor = kInvalid;
    const uintptr_t tag = e.parent;
    if (tag & 1) {
      const uint32_t slot = uint32_t(tag >> 1);
      if (slot >= b->cap) continue;
      const uint32_t p = b->table[slot].order;
      if (p >= j || at[p] == kInvalid) continue;
      cur = at[p];
      anchor = anchor_of[p];
    } else if (tag == uintptr_t(&ts->cct.root)) {
      anchor = kRoot;
    } else {
      auto it = index.find(reinterpret_cast<const Node *>(tag));
      if (it == index.end()) continue;
      anchor = it->second;
    }
    // A frame whose function (or a call inlined in it) is the anchor's
    // own, in a machine copy not known as instrumented, is the anchor's
    // frame: the frames unwound above it were the shadow stack's already
    // (a recursion through that copy), and what is below hangs right below
    // the anchor.
    const std::vector<uint32_t> &regions = chain->second;
    size_t first = 0;
    if (anchor >= 0)
      for (size_t k = regions.size(); k-- > 0 && !first;)
        if (copy_of(regions[k], nodes[size_t(anchor)]->region)) first = k + 1;
    if (first) cur = -1;
    // Right below the anchor, another instrumented function with no frame
    // open (its function, when the key has one: not an inlined-only site):
    // its own node below the anchor takes the sample, and what is above
    // hangs below that node. Without one, a function the handler knew as
    // instrumented (excluded at run time) is a sampled frame; a copy it did
    // not know is the anchor's code inlined there.
    const bool has_function = !(key & kInlinedOnlyBit) && !regions.empty();
    if (!first && cur < 0 && has_function) {
      int own = -1;
      bool open_above = false;  // the function of a frame open above the anchor
      if (const std::vector<uint32_t> *ids = measured_copies(regions[0]))
        for (uint32_t id : *ids) {
          auto it = real_child.find(std::make_pair(anchor, id));
          if (it != real_child.end()) own = it->second;
          for (int q = anchor; q >= 0 && !open_above; q = parent[size_t(q)]) open_above = nodes[size_t(q)]->region == id;
        }
      if (own >= 0) {
        anchor = own;
        first = 1;
      } else if (anchor >= 0 && (open_above || (!stop_keys().count(key) && copy_of(regions[0], 0)))) {
        // The anchor's code inlined into the machine function of a frame
        // open above it (GCC inlined the anchor's function there).
        first = 1;
      }
    }
    for (size_t k = first; k < regions.size(); ++k) {
      const uint32_t region = regions[k];
      int into = -1;
      for (int q = cur; q >= 0 && into < 0; q = paths[size_t(q)].up)
        if (paths[size_t(q)].region == region) into = q;
      if (into < 0) {
        const int64_t below = cur >= 0 ? cur : -2 - int64_t(anchor);
        auto [it, fresh] = child.emplace(std::make_pair(below, region), int(paths.size()));
        if (fresh) paths.push_back(Path{cur, anchor, region});
        into = it->second;
      }
      cur = into;
    }
    at[j] = cur;
    anchor_of[j] = anchor;
    if (cur >= 0) {
      paths[size_t(cur)].count += e.count;
      paths[size_t(cur)].cpu += e.cpu_ns;
    } else {  // an inlined-only site with no inlined call, a copy of the anchor's function, its node
      self_count[anchor == kRoot ? n : size_t(anchor)] += e.count;
      self_ns[anchor == kRoot ? n : size_t(anchor)] += e.cpu_ns;
    }
  }
  pthread_mutex_unlock(&g_lock);
  for (size_t i = 0; i < n; ++i)
    if (self_count[i]) {
      adds.push_back(ExtraAdd{int(i), metric, self_count[i]});
      adds.push_back(ExtraAdd{int(i), cpu_m, self_ns[i]});
    }

  // Samples in the paths below the thread itself, which this file times.
  // A path comes after its parent.
  uint64_t root_ns = 0;
  for (size_t j = paths.size(); j-- > 0;) {
    Path &p = paths[j];
    p.sub += p.count;
    p.sub_ns += p.cpu;
    if (p.up >= 0) {
      paths[size_t(p.up)].sub += p.sub;
      paths[size_t(p.up)].sub_ns += p.sub_ns;
    } else if (p.anchor == kRoot) {
      root_ns += p.sub_ns;
    }
  }
  const double ticks_per_ns = 1e-9 / clock_seconds_per_tick();
  const double want = double(root_ns) * ticks_per_ns;
  const double root_scale = want > double(root_ex) ? double(root_ex) / want : 1.0;
  std::vector<int> out_index(paths.size(), -1);
  uint64_t root_shared = 0;  // time given to sampled roots
  for (size_t j = 0; j < paths.size(); ++j) {
    const Path &path = paths[j];
    if (path.sub == 0) continue;
    AddedPath p = AddedPath::make(extra_metric_count());
    Node *node = p.node();
    node->region = path.region;
    node->extra()[metric] = path.count;
    node->extra()[cpu_m] = path.cpu;
    if (path.up >= 0) {
      const int o = out_index[size_t(path.up)];
      if (o < 0) continue;
      p.parent = int(n) + o;
      node->parent = out[size_t(o)].node();
    } else {
      p.parent = path.anchor == kRoot ? -1 : path.anchor;
      node->parent = path.anchor == kRoot ? &ts->cct.root : const_cast<Node *>(nodes[size_t(path.anchor)]);
    }
    if (path.anchor == kRoot) {
      // The subtree's CPU in ticks, scaled down only where all sampled
      // roots would exceed the thread's own time.
      p.incl = root_ex > 0 ? uint64_t(double(path.sub_ns) * ticks_per_ns * root_scale) : 0;
      if (path.up < 0) root_shared += p.incl;
    } else {
      p.from_samples = true;
      p.own_ns = path.cpu;
    }
    out_index[j] = int(out.size());
    out.push_back(std::move(p));
  }
  // The thread itself has no frame to keep what no sample explains (time
  // off the CPU, or between its first event and its first sample outside
  // every frame): a root <not on CPU> keeps it, so the roots still add up
  // to the thread's time.
  if (root_ns > 0 && root_ex > int64_t(root_shared)) {
    AddedPath p = AddedPath::make(extra_metric_count());
    pthread_mutex_lock(&g_lock);
    p.node()->region = func_region(kNotOnCpuFrame);
    pthread_mutex_unlock(&g_lock);
    p.node()->parent = &ts->cct.root;
    p.parent = -1;
    p.incl = uint64_t(root_ex) - root_shared;
    out.push_back(std::move(p));
  }
}

}  // namespace

uint64_t samples_taken() {
  uint64_t taken = 0;
  for (Buffer *b : all_buffers()) taken += __atomic_load_n(&b->taken, __ATOMIC_RELAXED);
  return taken;
}

uint32_t not_on_cpu_region() {
  pthread_mutex_lock(&g_lock);
  const uint32_t r = func_region(kNotOnCpuFrame);
  pthread_mutex_unlock(&g_lock);
  return r;
}

const PathSource kSampledPaths = {cpu_metric,  samples_taken,     prepare,           add, samples_metric,
                                  interval_ns, not_on_cpu_region, measurement_metric};

}  // namespace hcc::rt::sampling
