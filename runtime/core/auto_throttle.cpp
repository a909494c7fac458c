// hcc runtime — throttling by default (HCC_THROTTLE unset, `auto` or `on`).
//
// TAU's rule, priced in this run's pairs: a function whose visits reach
// 100 000 (summed over threads and call paths) while its mean inclusive time
// per visit is under 10 timed pairs stops being timed. Its frames are still
// pushed without a clock (hooks.cpp, throttled_enter), so its visits are
// exact on their call paths and its callees stay below it; its time is the
// CPU time of the samples that land in it (untimed_time.hpp), its caller's
// when no sample does. `hcc.throttled` names it with the evidence.
//
// Decided off the measured threads, so the fast paths carry no instruction
// for it: a thread of our own wakes after 10 ms, then at doubling intervals up
// to 250 ms, and reads every thread's call tree as the snapshot thread does
// (runtime/snapshot: counters only grow, are written by one thread and are
// whole 64-bit words; nodes are published with release). It never enters a
// region, is not a location and blocks every signal. The pair is measured once
// on this thread (selection.cpp, measure_pair_cost), when the first function
// reaches 100 000 visits, so a short program pays nothing.
//
// Counting has a price too: a throttled visit runs the guard, the trampoline
// and the counted lane (~7 ns here), and in a memory-bound loop those
// instructions crowd out the next iterations' loads. So once a throttled
// function's counted visits cost more than kStopShare of the process's CPU
// time between two turns (visits x the throttled pair measured with the
// timed one), its count stops (HCC_COUNT_STOP, on by default): its
// descriptors get kStoppedBit, its hooks record nothing and each guard call
// through which one arrives becomes a nop (site_patch.hpp). Only leaves stop
// (no call path of it has a child yet): a callee of a stopped region would
// hang below its caller. Its visits are then the count at the stop, a lower
// bound the profile says is one (hcc.count_stopped, the region's
// description); the samples carry its time as before.
//
// The pair as this run pays it: samples that land in hcc's code are charged
// to the innermost open frame (measurement_cpu, the sampling service), so a
// function's own nodes hold what its events cost where they ran. Among cache
// misses that is several times the pair timed on this thread. Once a
// region's nodes hold four samples' worth of it (the plan's rule,
// report::in_run_price_trusted), the dearer of the two prices its visits:
// it is throttled when its visits cost under kPairs in-run pairs, and a
// throttled region's count stops when the measurement CPU its nodes gained
// since it was throttled exceeds kStopShare of the process's CPU time since
// then (as when its visits times the throttled pair's price do in one
// turn). `hcc.throttled` and the count-stopped note say which price decided.
//
// Left alone: `main`, OpenMP, MPI and user regions (not functions), counted
// regions, and recursive functions (a fold link, or a call path open twice at
// once in recursion mode), whose open frames a throttled exit could not tell
// from its own, with one exception: a function that recurses only through
// another (its call paths' one kind of child is a fold link back to an
// ancestor of another region, as `diffuse_bounce` in radiance ↔
// diffuse_bounce). Throttling it would gain nothing (inside a recursion a
// throttled frame takes the general paths, a timed pair's price), so at the
// same price test its count stops at once: its frames go, and its callees
// fold onto the node they already folded onto, so no path moves. Its exits
// close only a frame of it on top of the stack (hooks.cpp, stopped_exit), so a
// visit without a frame never closes one opened before the stop. A function
// called inside a recursion without recursing is throttled like any other.
// Nothing is throttled while a per-event service runs (tracing, counters,
// HCC_SELECT/HCC_PRUNE: it asks for every event), nor in a fork child (the
// thread is not copied).
#include "auto_throttle.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cct.hpp"
#include "clock.hpp"
#include "config/config.hpp"
#include "event_services.hpp"
#include "extra_paths.hpp"
#include "hcc/region.h"
#include "plans/judge.hpp"
#include "registry.hpp"
#include "selection.hpp"
#include "service_thread.hpp"
#include "thread_state.hpp"

namespace hcc::rt {

namespace {

constexpr uint64_t kCalls = 100000;  // visits before a function is judged
constexpr double kPairs = 10;        // under this many timed pairs per visit: throttled
constexpr double kFirstTick = 0.010, kMaxTick = 0.250;  // seconds between turns
constexpr double kStopShare = 0.02;  // counted visits may cost this share of the CPU time
constexpr double kMinCountedNs = 2;  // the least a counted visit is priced at

ServiceThread g_thread;
double g_pair_ns = 0;       // measured at the first candidate; -1: could not be
std::vector<bool> g_decided;  // regions throttled, or left alone for good (not functions, main, counted)
double g_counted_ns = 0;      // a throttled visit's price (measure_pair_cost's throttled pair)
bool g_count_stop = true;     // HCC_COUNT_STOP
// Throttled regions whose count may stop, with their visits at the last turn.
struct Counted {
  uint32_t region;
  uint64_t visits;
  uint64_t measured_ns;  // measurement CPU on its nodes when it was throttled
  double cpu_s;          // the process's CPU seconds then (-1: unknown)
  std::string name;
};
std::vector<Counted> g_counted;
double g_last_cpu = -1;  // the process's CPU seconds at the last turn

struct Sum {
  uint64_t visits = 0, incl = 0;
  uint64_t measured_ns = 0;  // measurement CPU on its nodes (samples in hcc's code), ns
  bool recursive = false;
  bool calls = false;       // a call path of it has a child: it calls an instrumented region
  bool real_child = false;  // ... a child that is not a fold link
  bool self_fold = false;   // ... a fold link of its own region: it calls itself
};

// The sampling service's measurement_cpu counter and the CPU time one sample
// stands for, or -1 and 0 when no sampling runs.
int measurement_metric() {
  const PathSource *src = path_source();
  return src && src->measurement_metric ? src->measurement_metric() : -1;
}
double sample_ns() {
  const PathSource *src = path_source();
  return src && src->interval_ns ? double(src->interval_ns()) : 0;
}

// Visits, inclusive ticks of closed visits and measurement CPU per region
// id, over every thread's call paths. A sample in hcc's code is charged to
// the innermost open frame, which is the caller's before an enter's push and
// after an exit's pop: a node's measurement CPU is split between its own
// visits and its children's, in proportion to their visits (one pair each).
std::vector<Sum> region_sums() {
  std::vector<Sum> sums;
  auto at = [&](uint32_t r) -> Sum & {
    if (r >= sums.size()) sums.resize(size_t(r) + 1);
    return sums[r];
  };
  struct Measured {
    uint64_t ns = 0, visits = 0;
    uint32_t region = 0;
    std::vector<std::pair<uint32_t, uint64_t>> children;  // region, visits
  };
  const int mm = measurement_metric();
  for (ThreadState *ts : threads_snapshot()) {
    const bool has_mm = mm >= 0 && uint32_t(mm) < ts->cct.n_extra;
    std::unordered_map<const Node *, Measured> measured;  // nodes holding measurement CPU
    cct_for_each(ts->cct.root, [&](Node *n) {
      const uint32_t r = n->region;
      if (r == 0 || int32_t(r) < 0) return;
      at(r);
      if (const Node *up = n->parent; up && up->region != 0 && int32_t(up->region) > 0) {
        Sum &caller = at(up->region);
        caller.calls = true;
        caller.real_child |= n->kind == kReal;
        caller.self_fold |= n->kind == kForward && up->region == r;
      }
      Sum &s = sums[r];
      // A fold link, or a call path open twice at once in recursion mode:
      // the function recursed (a leaf called inside a recursion has 1).
      if (n->kind == kForward || __atomic_load_n(&n->max_open, __ATOMIC_RELAXED) > 1) s.recursive = true;
      if (n->kind != kReal) return;
      const uint64_t visits = __atomic_load_n(&n->visits, __ATOMIC_RELAXED);
      s.visits += visits;
      s.incl += __atomic_load_n(&n->incl, __ATOMIC_RELAXED);
      // What recursion mode charged to its frames (fold.hpp): all of a
      // folds-only function's time below a recursion.
      if (const Node *px = __atomic_load_n(&n->link, __ATOMIC_ACQUIRE))
        s.incl += __atomic_load_n(&px->incl, __ATOMIC_RELAXED);
      if (!has_mm) return;
      // Written by the thread's signal handler, whole words (as `visits`);
      // parents come before children here.
      if (auto it = measured.find(n->parent); it != measured.end()) it->second.children.push_back({r, visits});
      if (const uint64_t ns = __atomic_load_n(&n->extra()[mm], __ATOMIC_RELAXED)) measured[n] = {ns, visits, r, {}};
    });
    for (const auto &kv : measured) {
      const Measured &m = kv.second;
      double all = double(m.visits);
      for (const auto &c : m.children) all += double(c.second);
      if (all <= 0) continue;
      at(m.region).measured_ns += uint64_t(double(m.ns) * double(m.visits) / all);
      for (const auto &c : m.children) at(c.first).measured_ns += uint64_t(double(m.ns) * double(c.second) / all);
    }
  }
  return sums;
}

bool decided(uint32_t r) { return r < g_decided.size() && g_decided[r]; }

void decide(uint32_t r) {
  if (r >= g_decided.size()) g_decided.resize(size_t(r) + 1);
  g_decided[r] = true;
}

bool eligible(uint32_t r) {
  RegionInfo info;
  return region_info(r, &info) && info.kind == HCC_KIND_FUNCTION && !info.counted && info.name != "main";
}

double process_cpu_seconds() {
  timespec t;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return -1;
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// The counts of throttled regions that cost more than kStopShare of the CPU
// time since the last turn stop; the rest carry their visits forward. The
// in-run price is taken over the whole time since the region was throttled
// (samples are few in one turn).
void stop_costly_counts(const std::vector<Sum> &sums) {
  const double cpu = process_cpu_seconds();
  const double spent = g_last_cpu >= 0 && cpu >= 0 ? cpu - g_last_cpu : 0;
  g_last_cpu = cpu;
  const double per_sample_ns = sample_ns();
  std::vector<Counted> kept;
  for (Counted &c : g_counted) {
    const uint64_t now = c.region < sums.size() ? sums[c.region].visits : c.visits;
    const uint64_t measured = c.region < sums.size() ? sums[c.region].measured_ns : c.measured_ns;
    const double cost_s = double(now - std::min(now, c.visits)) * g_counted_ns * 1e-9;
    const double in_run_s = double(measured - std::min(measured, c.measured_ns)) * 1e-9;
    const double since_s = cpu >= 0 && c.cpu_s >= 0 ? cpu - c.cpu_s : 0;
    const bool priced_over = spent > 0 && cost_s > kStopShare * spent;
    const bool in_run_over = report::in_run_price_trusted(in_run_s * 1e9, per_sample_ns) && since_s > 0 &&
                             in_run_s > kStopShare * since_s;
    // Only a leaf: what a stopped region calls would hang below its caller,
    // on a path the program never took (its frames are gone).
    const bool leaf = c.region >= sums.size() || !sums[c.region].calls;
    if (leaf && (priced_over || in_run_over) && !stop_region_descriptors(c.region).empty()) {
      char buf[200];
      if (priced_over)
        std::snprintf(buf, sizeof buf,
                      " (count stopped at %" PRIu64 " visits: %.0f visits per CPU second at %.1f ns each cost %.1f%%"
                      " of the CPU time, over %g%%)",
                      now, double(now - c.visits) / spent, g_counted_ns, 100 * cost_s / spent, 100 * kStopShare);
      else
        std::snprintf(buf, sizeof buf,
                      " (count stopped at %" PRIu64 " visits: since it was throttled, %.1f%% of the CPU time was"
                      " spent in hcc's code on its call paths, over %g%%)",
                      now, 100 * in_run_s / since_s, 100 * kStopShare);
      record_count_stopped(c.name + buf);
      continue;
    }
    c.visits = now;
    kept.push_back(std::move(c));
  }
  g_counted = std::move(kept);
}

// Returns whether a region was throttled in this turn (its count is judged
// at the next, which then comes after kFirstTick).
bool tick() {
  if (!g_fast_events || g_pair_ns < 0) return false;
  const std::vector<Sum> sums = region_sums();
  if (g_count_stop) stop_costly_counts(sums);
  const double per_sample_ns = sample_ns();
  bool throttled = false;
  for (uint32_t r = 1; r < sums.size(); ++r) {
    const Sum &s = sums[r];
    // Recursing only through another region: stopped instead (see above).
    const bool folds_only = s.recursive && !s.real_child && !s.self_fold;
    if ((s.recursive && !(folds_only && g_count_stop)) || s.visits < kCalls || decided(r)) continue;
    if (g_pair_ns == 0) {
      const PairCost c = measure_pair_cost();
      g_pair_ns = c.ok && c.timed > 0 ? c.timed : -1;
      g_counted_ns = std::max(c.throttled, kMinCountedNs);
      if (g_pair_ns < 0) return false;
    }
    const double mean_ns = double(s.incl) * clock_seconds_per_tick() * 1e9 / double(s.visits);
    // The in-run pair: measurement CPU per visit, once enough samples say so.
    const double in_run_ns = double(s.measured_ns) / double(s.visits);
    const bool in_run = report::in_run_price_trusted(double(s.measured_ns), per_sample_ns) && in_run_ns > g_pair_ns;
    const double pair_ns = in_run ? in_run_ns : g_pair_ns;
    if (mean_ns >= kPairs * pair_ns) continue;
    decide(r);  // throttled now, or never: each region is looked up once
    const std::string name = eligible(r) ? throttle_region_descriptors(r) : std::string();
    if (name.empty()) continue;
    char buf[200];
    std::snprintf(buf, sizeof buf, " (after %" PRIu64 " calls, %.3f us/call, under %g pairs of %.1f ns%s)", s.visits,
                  mean_ns * 1e-3, kPairs, pair_ns, in_run ? " as paid in this run" : "");
    record_throttled(name, s.visits, buf);
    if (folds_only) {
      if (!stop_region_descriptors(r).empty())
        record_count_stopped(name + " (count stopped at " + std::to_string(s.visits) +
                             " visits: it recurses through another function, where a throttled frame costs a"
                             " timed pair)");
      continue;
    }
    if (g_count_stop) g_counted.push_back({r, s.visits, s.measured_ns, process_cpu_seconds(), name});
    throttled = true;
  }
  return throttled;
}

void *loop(void *) {
  double period = kFirstTick;
  timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  while (!g_thread.sleep_until(next = after(next, period))) {
    const bool throttled = tick();
    clock_gettime(CLOCK_MONOTONIC, &next);  // the next turn a period after this one's end
    period = throttled && g_count_stop ? kFirstTick : period * 2 < kMaxTick ? period * 2 : kMaxTick;
  }
  return nullptr;
}

void after_fork_child() { g_thread.forget(); }

}  // namespace

void auto_throttle_start() {
  g_count_stop = config::flag("HCC_COUNT_STOP", "stopping counts as by default (on)");
  if (g_thread.start(loop)) pthread_atfork(nullptr, nullptr, after_fork_child);  // else nothing is throttled
}

// A tick in progress finishes first (it holds the thread-list lock at times).
void auto_throttle_stop() { g_thread.stop(); }

}  // namespace hcc::rt
