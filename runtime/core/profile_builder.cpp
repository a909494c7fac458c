// hcc runtime — the profile builder (see profile_builder.hpp).
#include "profile_builder.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <ctime>
#include <unordered_map>

#include "cfg.hpp"
#include "clock.hpp"
#include "env.hpp"
#include "event_services.hpp"
#include "extra_paths.hpp"
#include "fold.hpp"
#include "lifecycle.hpp"
#include "metrics.hpp"
#include "registry.hpp"
#include "thread_state.hpp"
#include "off_cpu.hpp"
#include "untimed_time.hpp"

#ifndef HCC_VERSION
#define HCC_VERSION "unknown"
#endif

namespace hcc::rt {

namespace {

profile::Metric core_metric(const char *uniq, const char *disp, const char *uom, const char *descr,
                            profile::DType dtype, profile::CubeType cube_type) {
  profile::Metric m;
  m.uniq_name = uniq;
  m.disp_name = disp;
  m.uom = uom;
  m.descr = descr;
  m.dtype = dtype;
  m.cube_type = cube_type;
  return m;
}

using profile::Profile;

}  // namespace

const char *region_paradigm(int kind) {
  switch (kind) {
    case HCC_KIND_FUNCTION: return "compiler";
    case HCC_KIND_USER:
    case HCC_KIND_LOOP: return "user";
    case HCC_KIND_ARTIFICIAL: return "measurement";
    case HCC_KIND_OPENMP: return "openmp";
    case HCC_KIND_MPI: return "mpi";
    case HCC_KIND_SAMPLED: return "sampling";
    default: return kind >= HCC_KIND_OMP_PARALLEL && kind <= HCC_KIND_OMP_TASKGROUP ? "openmp" : "user";
  }
}

const char *region_role(int kind) {
  switch (kind) {
    case HCC_KIND_LOOP: return "loop";
    case HCC_KIND_ARTIFICIAL: return "artificial";
    // OpenMP: the role names Score-P writes (reports key on them).
    case HCC_KIND_OMP_PARALLEL: return "parallel";
    case HCC_KIND_OMP_LOOP: return "loop";
    case HCC_KIND_OMP_SECTIONS: return "sections";
    case HCC_KIND_OMP_SECTION: return "section";
    case HCC_KIND_OMP_SINGLE: return "single";
    case HCC_KIND_OMP_SINGLE_SBLOCK: return "single sblock";
    case HCC_KIND_OMP_MASTER: return "master";
    case HCC_KIND_OMP_CRITICAL: return "critical";
    case HCC_KIND_OMP_CRITICAL_SBLOCK: return "critical sblock";
    case HCC_KIND_OMP_ATOMIC: return "atomic";
    case HCC_KIND_OMP_BARRIER: return "barrier";
    case HCC_KIND_OMP_IMPLICIT_BARRIER: return "implicit barrier";
    case HCC_KIND_OMP_FLUSH: return "flush";
    case HCC_KIND_OMP_ORDERED: return "ordered";
    case HCC_KIND_OMP_ORDERED_SBLOCK: return "ordered sblock";
    case HCC_KIND_OMP_TASK: return "task";
    case HCC_KIND_OMP_TASK_CREATE: return "task create";
    case HCC_KIND_OMP_TASKWAIT: return "taskwait";
    case HCC_KIND_OMP_LOCK: return "lock";
    case HCC_KIND_OMP_WORKSHARE: return "workshare";
    case HCC_KIND_OMP_TASKGROUP: return "taskgroup";
    default: return "function";
  }
}

namespace {

std::string iso_time(time_t t) {
  char buf[64];
  struct tm tm;
  localtime_r(&t, &tm);
  strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", &tm);
  return buf;
}

std::string host_name() {
  char buf[HOST_NAME_MAX + 1] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  return buf;
}

// One thread's call paths with what the merge needs.
struct ThreadNodes {
  std::vector<const Node *> nodes;  // real nodes in creation order: parents before children
  std::vector<int> parent;          // index of the parent in `nodes`; -1 below the root
  std::vector<int> global;          // merged (temporary) id per node; -1 when left out
  std::vector<uint64_t> incl;       // inclusive ticks: open frames and folded recursion included
  std::vector<uint64_t> recursive;  // visits that were recursive calls (made through fold links)
  std::vector<uint64_t> recursive_calls;  // calls this node made through fold links
  std::vector<AddedPath> added;     // a service's own call paths (extra_paths.hpp), kept alive here
  std::vector<ExtraAdd> extra_adds;  // and what it adds to the nodes' own counters
};

// Makes an added path one of the thread's nodes for this build.
void append_node(ThreadNodes &t, const AddedPath &a) {
  t.nodes.push_back(a.node());
  t.parent.push_back(a.parent);
  t.incl.push_back(a.incl);
  t.recursive.push_back(0);  // added paths are never fold targets
  t.recursive_calls.push_back(0);
}

// Appends the call paths a service adds below this thread's nodes
// (sampling): their nodes exist only for this build.
void add_service_paths(ThreadState *ts, ThreadNodes &t, uint64_t now) {
  const PathSource *src = path_source();
  if (!src) return;
  src->add(ts, t.nodes, t.parent, t.incl, now, t.added, t.extra_adds);
  for (const AddedPath &a : t.added) append_node(t, a);
}

// Per real node, what the service counted on the node itself in extra
// counter `metric` (its own counters and this build's ExtraAdds); zeros for
// a metric < 0.
std::vector<uint64_t> own_counts(const ThreadNodes &t, size_t n_real, int metric) {
  std::vector<uint64_t> own(t.nodes.size(), 0);
  if (metric < 0) return own;
  for (size_t i = 0; i < n_real; ++i) own[i] = t.nodes[i]->extra()[metric];
  for (const ExtraAdd &a : t.extra_adds)
    if (a.metric == metric && a.node >= 0 && size_t(a.node) < n_real) own[size_t(a.node)] += a.amount;
  return own;
}

// Inclusive values under recursion folding (fold.hpp): a node's own
// accumulation plus what recursion mode charged to every node of its
// subtree. Unsigned arithmetic: a node whose frame is still open may hold
// less than zero until that frame's share is added (end_mode).
std::vector<uint64_t> with_folded_shares(const ThreadNodes &t, std::vector<uint64_t> own,
                                         std::vector<uint64_t> folded) {
  for (size_t i = t.nodes.size(); i-- > 0;)
    if (t.parent[i] >= 0) folded[size_t(t.parent[i])] += folded[i];
  for (size_t i = 0; i < own.size(); ++i) own[i] += folded[i];
  return own;
}

const Node *proxy_of(const Node *n) { return __atomic_load_n(&n->link, __ATOMIC_ACQUIRE); }

// The time of the nodes hcc did not time (untimed_time.hpp): counted and
// throttled regions' nodes (whatever their `incl` accumulated: their frames
// on the general paths read the clock, their lanes never do) and the
// service's paths below the thread's nodes, from the CPU time of their own
// samples.
void time_untimed(ThreadNodes &t, size_t n_real, const std::vector<bool> &untimed_region) {
  const size_t n = t.nodes.size();
  const PathSource *src = path_source();
  const int cpu = src ? src->cpu_metric() : -1;
  const double ticks_per_ns = 1e-9 / clock_seconds_per_tick();
  std::vector<bool> untimed(n, false);
  std::vector<uint64_t> own_ns = own_counts(t, n_real, cpu);  // read for untimed nodes only
  for (size_t i = 0; i < n_real; ++i) {
    const uint32_t r = t.nodes[i]->region - 1;
    untimed[i] = r < untimed_region.size() && untimed_region[r];
  }
  for (size_t j = 0; j < t.added.size(); ++j) {
    untimed[n_real + j] = t.added[j].from_samples;
    own_ns[n_real + j] = t.added[j].own_ns;
  }
  std::vector<uint64_t> own_ticks(n, 0);
  for (size_t i = 0; i < n; ++i)
    if (untimed[i]) own_ticks[i] = uint64_t(double(own_ns[i]) * ticks_per_ns);
  give_untimed_their_time(t.parent, untimed, own_ticks, t.incl);
}

// A timed function's time off the CPU as a child `<not on CPU>` of its
// call path (off_cpu.hpp), once every node has its final time. Its own CPU
// is what its samples measured on it: on the node itself, and inside hcc's
// code while it was the innermost frame.
void split_off_cpu(ThreadNodes &t, size_t n_real, const std::vector<bool> &timed_function) {
  const PathSource *src = path_source();
  const int cpu = src ? src->cpu_metric() : -1, count = src ? src->samples_metric() : -1;
  const int measured = src ? src->measurement_metric() : -1;
  const uint64_t interval = src ? src->interval_ns() : 0;
  if (cpu < 0 || count < 0 || interval == 0) return;
  const size_t n = t.nodes.size();
  const double ticks_per_ns = 1e-9 / clock_seconds_per_tick();
  std::vector<bool> eligible(n, false);
  for (size_t i = 0; i < n_real; ++i) {
    const uint32_t r = t.nodes[i]->region - 1;
    eligible[i] = r < timed_function.size() && timed_function[r];
  }
  const std::vector<uint64_t> own_cpu = own_counts(t, n_real, cpu), own_measuring = own_counts(t, n_real, measured);
  std::vector<uint64_t> own_samples = own_counts(t, n_real, count);
  std::vector<uint64_t> own_ticks(n, 0);
  uint64_t samples = 0, cpu_ns = 0;
  for (size_t i = 0; i < n; ++i) {
    own_ticks[i] = uint64_t(double(own_cpu[i] + own_measuring[i]) * ticks_per_ns);
    if (i >= n_real) own_samples[i] = t.nodes[i]->extra()[count];  // a sampled frame's: its error is its caller's
    samples += own_samples[i];
    cpu_ns += i < n_real ? own_cpu[i] + own_measuring[i] : t.nodes[i]->extra()[cpu];
  }
  if (samples == 0) return;  // no sample on this thread: nothing says what was on the CPU
  // The period a sample stood for on this thread: the rate asked for, or
  // longer where the kernel's tick caps it (HCC_SAMPLING=1000 at HZ 250:
  // 4 ms a sample, and the noise is four times what 1 ms would say).
  const double period_ns = std::max(double(interval), double(cpu_ns) / double(samples));
  const std::vector<OffCpuPart> parts =
      off_cpu_parts(t.parent, t.incl, eligible, own_ticks, own_samples, period_ns * ticks_per_ns);
  if (parts.empty()) return;
  const uint32_t region = src->not_on_cpu_region();
  for (const OffCpuPart &part : parts) {
    AddedPath a = AddedPath::make(extra_metric_count());
    a.node()->region = region;
    a.node()->parent = const_cast<Node *>(t.nodes[part.node]);
    a.parent = int(part.node);
    a.incl = part.ticks;
    append_node(t, a);
    t.added.push_back(std::move(a));
  }
}

ThreadNodes collect(ThreadState *ts, uint64_t now) {
  ThreadNodes t;
  // kForward entries are fold links, not call paths.
  cct_for_each(ts->cct.root, [&](Node *n) {
    if (n->kind == kReal) t.nodes.push_back(n);
  });
  std::sort(t.nodes.begin(), t.nodes.end(),
            [](const Node *a, const Node *b) { return a->seq < b->seq; });
  std::unordered_map<const Node *, size_t> pos;
  pos.reserve(t.nodes.size());
  const size_t n = t.nodes.size();
  std::vector<uint64_t> own(n), folded(n, 0);
  t.parent.assign(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const Node *node = t.nodes[i];
    pos[node] = i;
    own[i] = node->incl;
    if (const Node *px = proxy_of(node)) folded[i] = px->incl;
    auto it = pos.find(node->parent);  // parents come first
    if (it != pos.end()) t.parent[i] = int(it->second);
  }
  // Open frames count up to `now`. Another thread may be running: read its
  // stack as it is, and skip entries that are not plausible.
  if (!ts->ended) {
    const Frame *stack = __atomic_load_n(&ts->stack, __ATOMIC_ACQUIRE);
    uint32_t depth = __atomic_load_n(&ts->depth, __ATOMIC_RELAXED);
    if (depth >= ts->capacity) depth = ts->capacity - 1;
    open_frames_shares(
        ts, stack, depth, now,
        [&](const Node *node, uint64_t ticks) {
          auto it = pos.find(node);
          if (it != pos.end()) own[it->second] += ticks;
        },
        [&](const Node *px, uint64_t ticks) {
          auto it = pos.find(px->link);
          if (it != pos.end()) folded[it->second] += ticks;
        });
  }
  t.incl = with_folded_shares(t, std::move(own), std::move(folded));
  // A fold link counts the calls made through it (hooks.hpp): those visits
  // of its target were recursive calls, entered while the region was open.
  // The link hangs below the node whose frames made those calls.
  t.recursive.assign(n, 0);
  t.recursive_calls.assign(n, 0);
  cct_for_each(ts->cct.root, [&](Node *node) {
    if (node->kind != kForward) return;
    auto it = pos.find(node->link);
    if (it != pos.end()) t.recursive[it->second] += node->visits;
    auto from = pos.find(node->parent);
    if (from != pos.end()) t.recursive_calls[from->second] += node->visits;
  });
  return t;
}

// The recursion depth folded into a call path: the most frames of it open
// at once (1 for any visited path that never recursed).
double recursion_depth(const Node *n) {
  if (n->max_open) return double(n->max_open);
  return n->visits ? 1.0 : 0.0;
}

// Predecessor lists (cfg.hpp), merged over threads: per call path the
// parent first, then the others in order of first occurrence (the first
// thread that has them first). A predecessor that is no call path of the
// profile (the root sentinel, a node left out) is dropped.
void add_predecessors(Profile &p, const std::vector<ThreadNodes> &per_thread, const std::vector<int> &new_id) {
  const size_t ncn = p.cnodes.size(), nloc = p.nloc();
  p.preds.assign(ncn, {});
  std::vector<std::unordered_map<int, size_t>> where(ncn);
  struct Entry {
    uint32_t order;
    const Node *key;
    uint64_t count;
  };
  std::vector<Entry> entries;
  for (size_t l = 0; l < per_thread.size(); ++l) {
    const ThreadNodes &t = per_thread[l];
    std::unordered_map<const Node *, int> callpath_of;
    for (size_t i = 0; i < t.nodes.size(); ++i)
      if (t.global[i] >= 0) callpath_of[t.nodes[i]] = new_id[t.global[i]];
    for (size_t i = 0; i < t.nodes.size(); ++i) {
      if (t.global[i] < 0) continue;
      const size_t c = size_t(new_id[t.global[i]]);
      entries.clear();
      cfg_for_each(t.nodes[i], [&](const Node *key, uint64_t count, uint32_t order) {
        if (count) entries.push_back({order, key, count});
      });
      std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) { return a.order < b.order; });
      for (const Entry &e : entries) {
        auto it = callpath_of.find(e.key);
        if (it == callpath_of.end()) continue;
        auto [pos, inserted] = where[c].emplace(it->second, p.preds[c].size());
        if (inserted) p.preds[c].push_back({it->second, std::vector<double>(nloc, 0.0)});
        p.preds[c][pos->second].count[l] += double(e.count);
      }
    }
  }
  for (size_t c = 0; c < ncn; ++c) {
    auto &list = p.preds[c];
    auto parent = std::find_if(list.begin(), list.end(),
                               [&](const profile::Predecessor &x) { return x.callpath == p.cnodes[c].parent; });
    if (parent != list.end()) std::rotate(list.begin(), parent, parent + 1);
  }
}

}  // namespace

Profile build_local_profile(BuildFor what) {
  // Open frames' counters up to now (event_services.hpp); the tracer writes
  // its trace here. Not for snapshots: they are taken while the program runs.
  if (what == BuildFor::Final) services_before_build();
  // Regions of a service's call paths (sampled functions) registered now,
  // before the registry is copied below.
  if (const PathSource *src = path_source()) src->prepare();
  const uint64_t now = clock_now();
  const double seconds_per_tick = clock_seconds_per_tick();
  const std::vector<ThreadState *> threads = threads_snapshot();
  const std::vector<RegionInfo> regions = regions_snapshot();
  std::vector<bool> untimed_region(regions.size(), false);
  bool any_untimed = false;
  std::vector<bool> timed_function(regions.size(), false);  // its time off the CPU may be split off
  for (size_t r = 0; r < regions.size(); ++r) {
    any_untimed |= untimed_region[r] = regions[r].counted || regions[r].throttled;
    timed_function[r] = !untimed_region[r] && regions[r].kind == HCC_KIND_FUNCTION;
  }
  const std::vector<ExtraMetric> extras = extra_metrics_snapshot();
  const RunInfo &run = run_info();

  Profile p;
  p.attrs = {
      {"hcc version", HCC_VERSION},
      {"clock", clock_name()},
      {"clock description", clock_describe(seconds_per_tick)},
      {"creation time", iso_time(time(nullptr))},
      {"program", run.program},
      {"command line", run.command_line},
      {"threads", std::to_string(threads.size())},
      {"max depth", std::to_string(settings().max_depth)},
  };
  if (run.fork_child) p.attrs.emplace_back("fork child pid", std::to_string(run.pid));
  for (auto &kv : profile_attrs_snapshot()) p.attrs.push_back(std::move(kv));
  p.hosts = {host_name()};

  // Score-P's choices, which CUBE tools expect: time INCLUSIVE, visits EXCLUSIVE.
  p.metrics = {core_metric("time", "Time", "sec", "Wall-clock time spent in the call path",
                           profile::DType::Double, profile::CubeType::Inclusive),
               core_metric("visits", "Visits", "occ", "Number of visits", profile::DType::UInt64,
                           profile::CubeType::Exclusive)};
  for (const ExtraMetric &e : extras) p.metrics.push_back(e.def);

  for (const RegionInfo &r : regions) {
    profile::Region out;
    out.name = r.name;
    out.mangled = r.mangled;
    out.file = r.file;
    out.begin_line = r.begin_line;
    out.end_line = r.end_line;
    out.paradigm = region_paradigm(r.kind);
    out.role = region_role(r.kind);
    if (r.counted) out.descr = profile::kCountedRegionDescr;
    else if (r.stopped) out.descr = profile::kCountStoppedRegionDescr;
    else if (r.throttled) out.descr = profile::kThrottledRegionDescr;
    p.regions.push_back(std::move(out));
  }

  // Merge: a merged node is (merged parent, region); temporary ids in order
  // of first appearance (thread 0's creation order first).
  std::vector<ThreadNodes> per_thread;
  std::vector<profile::CallNode> merged;
  std::unordered_map<uint64_t, int> by_key;
  uint64_t dropped = 0;
  for (ThreadState *ts : threads) {
    ThreadNodes t = collect(ts, now);
    const size_t n_real = t.nodes.size();
    add_service_paths(ts, t, now);
    if (any_untimed || n_real < t.nodes.size()) time_untimed(t, n_real, untimed_region);
    split_off_cpu(t, n_real, timed_function);
    dropped += ts->dropped;
    std::unordered_map<const Node *, int> global_of;
    t.global.assign(t.nodes.size(), -1);
    for (size_t i = 0; i < t.nodes.size(); ++i) {
      const Node *n = t.nodes[i];
      // Never visited: a path inherited by a fork child, whose counts were
      // cleared (or, read from a running thread, not yet counted). Its
      // subtree is skipped with it. Adopted base frames (adopt.hpp) are kept:
      // an OpenMP worker's events hang below them.
      if (n->visits == 0 && !n->adopted && n->kind != kSampled) continue;
      int gparent = -1;
      if (n->parent != &ts->cct.root) {
        auto it = global_of.find(n->parent);
        if (it == global_of.end()) continue;
        gparent = it->second;
      }
      uint64_t key = (uint64_t(uint32_t(gparent + 1)) << 32) | (n->region - 1);
      auto [it, inserted] = by_key.emplace(key, int(merged.size()));
      if (inserted) merged.push_back(profile::CallNode{int(n->region - 1), gparent});
      t.global[i] = it->second;
      global_of[n] = it->second;
    }
    per_thread.push_back(std::move(t));
  }
  if (dropped) p.attrs.emplace_back("calls below the depth limit", std::to_string(dropped));

  // Renumber in pre-order, children in order of first appearance.
  std::vector<std::vector<int>> kids(merged.size());
  std::vector<int> roots;
  for (int i = 0; i < int(merged.size()); ++i)
    (merged[i].parent < 0 ? roots : kids[merged[i].parent]).push_back(i);
  std::vector<int> new_id(merged.size(), -1);
  std::vector<int> todo(roots.rbegin(), roots.rend());
  while (!todo.empty()) {
    int m = todo.back();
    todo.pop_back();
    new_id[m] = int(p.cnodes.size());
    p.cnodes.push_back({merged[m].region, merged[m].parent < 0 ? -1 : new_id[merged[m].parent]});
    todo.insert(todo.end(), kids[m].rbegin(), kids[m].rend());
  }

  // threads_snapshot() put the outermost team's threads first, by OpenMP
  // thread number: location l of a team thread is its omp_get_thread_num().
  // The attribute says which locations are team threads ("-": another thread).
  std::string team_numbers;
  bool any_team = false;
  for (size_t l = 0; l < threads.size(); ++l) {
    p.locations.push_back({"thread " + std::to_string(l), 0, int(l)});
    const int32_t k = __atomic_load_n(&threads[l]->team_thread, __ATOMIC_ACQUIRE);
    any_team = any_team || k >= 0;
    team_numbers += (l ? " " : "") + (k >= 0 ? std::to_string(k) : std::string("-"));
  }
  if (any_team) p.attrs.emplace_back("openmp thread numbers", team_numbers);

  // Recursion folded into some call path (fold.hpp): its depth is a metric.
  bool folded_recursion = false;
  for (const ThreadNodes &t : per_thread)
    for (size_t i = 0; i < t.nodes.size() && !folded_recursion; ++i)
      folded_recursion = t.global[i] >= 0 && t.nodes[i]->max_open > 1;
  const size_t depth_metric = p.metrics.size();
  if (folded_recursion) {
    p.metrics.push_back(core_metric(
        "recursion_depth", "Recursion depth", "frames",
        "Most frames of this call path open at once: recursive calls of a region already on the "
        "call path are folded into it (1: no recursion)",
        profile::DType::MaxDouble, profile::CubeType::Exclusive));
    // Of a call path's visits, how many were recursive calls (gprof's "+9"
    // in "1+9"): the depth alone cannot tell five calls of depth 4 from one.
    p.metrics.push_back(core_metric(
        "recursive_visits", "Recursive visits", "occ",
        "Visits of this call path that were recursive calls, made while a frame of its region "
        "was open (direct or through other regions); visits minus these came from its caller",
        profile::DType::UInt64, profile::CubeType::Exclusive));
    // ... and from which call path they were made (A -> B -> A': B's), so a
    // reader can pair callers with callees (hcc-report --gprof).
    p.metrics.push_back(core_metric(
        "recursive_calls", "Recursive calls", "occ",
        "Calls made from this call path to a region already open on it (counted in that region's "
        "recursive_visits)",
        profile::DType::UInt64, profile::CubeType::Exclusive));
  }

  // Values, stored exclusive: time = inclusive - children's inclusive, in
  // ticks and signed, so inclusive = exclusive + children holds exactly.
  const size_t nloc = threads.size(), ncn = p.cnodes.size();
  p.excl.assign(p.metrics.size(), std::vector<double>(ncn * nloc, 0.0));
  for (size_t l = 0; l < nloc; ++l) {
    ThreadNodes &t = per_thread[l];
    const size_t n = t.nodes.size();
    // Exclusive = inclusive - the inclusive values of the children kept in
    // the profile (a kept node's parent is kept).
    auto exclusive = [&](const std::vector<uint64_t> &incl) {
      std::vector<int64_t> ex(incl.begin(), incl.end());
      for (size_t i = 0; i < n; ++i)
        if (t.global[i] >= 0 && t.parent[i] >= 0) ex[size_t(t.parent[i])] -= int64_t(incl[i]);
      return ex;
    };
    const std::vector<int64_t> excl_ticks = exclusive(t.incl);
    const uint32_t n_extra = threads[l]->cct.n_extra;
    for (uint32_t k = 0; k < extras.size() && k < n_extra; ++k) {
      // A counter's own amounts plus what recursion mode charged to its proxy.
      std::vector<uint64_t> own(n), folded(n, 0);
      for (size_t i = 0; i < n; ++i) {
        own[i] = t.nodes[i]->extra()[k];
        if (const Node *px = proxy_of(t.nodes[i])) folded[i] = px->extra()[k];
      }
      for (const ExtraAdd &a : t.extra_adds)
        if (a.metric == int(k) && a.node >= 0 && size_t(a.node) < n) own[size_t(a.node)] += a.amount;
      std::vector<double> v(n);
      if (extras[k].inclusive_counts) {
        const std::vector<int64_t> ex = exclusive(with_folded_shares(t, std::move(own), std::move(folded)));
        for (size_t i = 0; i < n; ++i) v[i] = double(ex[i]);
      } else {
        for (size_t i = 0; i < n; ++i) v[i] = double(own[i] + folded[i]);
      }
      for (size_t i = 0; i < n; ++i)
        if (t.global[i] >= 0) p.at(2 + k, size_t(new_id[t.global[i]]), l) = v[i] * extras[k].scale;
    }
    for (size_t i = 0; i < n; ++i) {
      if (t.global[i] < 0) continue;
      size_t c = size_t(new_id[t.global[i]]);
      const Node *node = t.nodes[i];
      p.at(0, c, l) = double(excl_ticks[i]) * seconds_per_tick;
      p.at(1, c, l) = double(node->visits);
      if (folded_recursion) {
        p.at(depth_metric, c, l) = recursion_depth(node);
        p.at(depth_metric + 1, c, l) = double(t.recursive[i]);
        p.at(depth_metric + 2, c, l) = double(t.recursive_calls[i]);
      }
    }
  }
  if (g_cfg) add_predecessors(p, per_thread, new_id);
  return p;
}

}  // namespace hcc::rt
