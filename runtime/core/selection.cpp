// hcc runtime — selective measurement (see selection.hpp).
#include "selection.hpp"

#include "env.hpp"

#include <strings.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "auto_throttle.hpp"
#include "clock.hpp"
#include "event_services.hpp"
#include "filter/filter.hpp"
#include "fold.hpp"
#include "hcc/region.h"
#include "metrics.hpp"
#include "thread_state.hpp"
#include "config/config.hpp"
#include "site_patch.hpp"

namespace hcc::rt {

bool g_selective = false;
bool g_select_active = false;
bool g_throttle = false;

namespace {

// Leaked like the registry: read while the process ends.
filter::Filter *g_filter = nullptr;   // HCC_FILTER + HCC_INCLUDE + HCC_EXCLUDE
filter::Filter *g_select = nullptr;   // HCC_SELECT names (as includes)
filter::Filter *g_prune = nullptr;    // HCC_PRUNE names
uint64_t g_throttle_calls = 0;
double g_throttle_usec = 0;
uint64_t g_throttle_ticks = 0;        // the bound in clock ticks

// Flags per region id, readable without a lock from every thread: one
// zero-filled mapping, written once per region under the registry lock
// (pages are touched only as ids grow). Regions beyond it get no flags.
constexpr uint32_t kMaxFlagged = 1u << 22;
uint8_t *g_flags = nullptr;

std::mutex g_throttle_lock;
std::string *g_throttled_text = nullptr;  // "name (after N calls, X us/call); ..."
std::string *g_throttled_calls = nullptr;  // "N name; ..." per throttled region
std::string *g_stopped_text = nullptr;  // "name (count stopped at N visits: ...); ..."

filter::Filter *names_filter(const char *var) {
  const char *v = config::nonempty(var);
  if (!v) return nullptr;
  auto *f = new filter::Filter;
  std::string error;
  for (const std::string &n : split_list(v))
    if (!f->add_include(n, error)) std::fprintf(stderr, "hcc: error: %s: %s; that name is ignored\n", var, error.c_str());
  if (f->empty()) {
    std::fprintf(stderr, "hcc: error: %s='%s' names no region; ignored\n", var, config::shown(v).c_str());
    delete f;
    return nullptr;
  }
  return f;
}

// HCC_THROTTLE=calls:usec. USEC becomes a number of clock ticks (uint64_t):
// out of range (1e30, inf) that conversion would be undefined, so USEC is
// bounded here, and CALLS must fit without wrapping. "" when accepted, else why not.
constexpr double kMaxThrottleUsec = 1e9;  // 1000 s: no call's mean is a throttling threshold beyond that
std::string parse_throttle(const char *v) {
  if (*v < '0' || *v > '9') return "is not auto, off or CALLS:USEC (e.g. 100000:10)";  // no sign, no blanks
  char *end = nullptr;
  errno = 0;
  unsigned long long calls = std::strtoull(v, &end, 10);
  if (*end != ':') return "is not CALLS:USEC (e.g. 100000:10)";
  if (errno == ERANGE) return "has a CALLS too large for a count";
  if (calls == 0) return "has CALLS 0 (at least 1)";
  const char *u = end + 1;
  double usec = std::strtod(u, &end);
  if (end == u || *end != '\0') return "is not CALLS:USEC (e.g. 100000:10)";
  if (!(usec > 0) || !(usec <= kMaxThrottleUsec)) return "has a USEC out of range (more than 0, at most 1e9)";
  g_throttle_calls = calls;
  g_throttle_usec = usec;
  return "";
}

bool selection_init() {
  // Run-time filter: a bad file is reported (naming the variable, the file
  // and the line) and the program runs unfiltered.
  auto *f = new filter::Filter;
  std::string error;
  bool ok = true;
  if (const char *v = config::nonempty("HCC_FILTER")) {
    if (!f->add_file(v, error)) {
      std::fprintf(stderr, "hcc: error: HCC_FILTER=%s: %s; running unfiltered\n", config::shown(v).c_str(), error.c_str());
      ok = false;
    }
  }
  for (const char *var : {"HCC_INCLUDE", "HCC_EXCLUDE"}) {
    const char *v = config::nonempty(var);
    if (!ok || !v) continue;
    for (const std::string &p : split_list(v))
      if (ok && !(var[4] == 'I' ? f->add_include(p, error) : f->add_exclude(p, error))) {
        std::fprintf(stderr, "hcc: error: %s: %s; running unfiltered\n", var, error.c_str());
        ok = false;
      }
  }
  if (ok && !f->empty()) g_filter = f;
  else delete f;

  g_select = names_filter("HCC_SELECT");
  g_prune = names_filter("HCC_PRUNE");
  // HCC_THROTTLE: unset, `auto` or on: throttling by default
  // (auto_throttle.cpp); off; or CALLS:USEC, decided at each exit on the
  // general paths, exactly at the CALLS-th call.
  // A bad value means the default, as for every other variable: a typo must
  // not turn off what keeps the run's cost down.
  bool automatic = true;
  if (const char *v = config::nonempty("HCC_THROTTLE"); v && strcasecmp(v, "auto") != 0) {
    const std::optional<bool> on = config::parse_switch(v);
    automatic = on.value_or(true);
    if (!on) {
      const std::string bad = parse_throttle(v);
      if (bad.empty()) {
        automatic = false;
        g_throttle = true;
        g_throttle_ticks = uint64_t(g_throttle_usec * 1e-6 / clock_seconds_per_tick());
        set_profile_attr("hcc.throttle", v);
      } else {
        std::fprintf(stderr, "hcc: error: HCC_THROTTLE='%s' %s; throttling as by default (auto)\n",
                     config::shown(v).c_str(), bad.c_str());
      }
    }
  }
  if (automatic) auto_throttle_start();
  g_select_active = g_select != nullptr;
  g_selective = g_select || g_prune || g_throttle;
  if (g_selective || g_filter) {
    void *m = mmap(nullptr, kMaxFlagged, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    g_flags = m == MAP_FAILED ? nullptr : static_cast<uint8_t *>(m);
  }
  if (const char *v = config::nonempty("HCC_FILTER"); v && g_filter) set_profile_attr("hcc.filter", v);
  if (const char *v = config::nonempty("HCC_SELECT"); v && g_select) set_profile_attr("hcc.select", v);
  if (const char *v = config::nonempty("HCC_PRUNE"); v && g_prune) set_profile_attr("hcc.prune", v);
  // Select, prune and throttle decide per event: every event takes the
  // general paths then (event_services.hpp).
  return g_selective;
}

// The calibration's region id: positive as an int32_t (negative ids are
// excluded or throttled, selection.hpp), below kStoppedBit (a throttled one
// with that bit is stopped) and far above any registered region.
constexpr uint32_t kCalibrationRegion = 0x3FFFFFF0u;
constexpr uint32_t kCalibrationThrottled = 0x3FFFFFF1u;

// A scratch state, kept for the rest of the process like every thread's
// state (arenas are never freed) and reachable from this list (one per
// caller: the end of the run, the throttling thread), so not a leak.
ThreadState *kept_scratch_state() {
  static std::mutex lock;
  static auto *kept = new std::vector<ThreadState *>;
  ThreadState *ts = thread_state_alloc();
  if (ts) {
    std::lock_guard<std::mutex> hold(lock);
    kept->push_back(ts);
  }
  return ts;
}

}  // namespace

// The cost of one enter/exit pair, measured on a scratch thread state (not a
// location, not in the profile) with a region id no descriptor has, so
// nothing the program recorded is touched. Needs the fast paths (no per-event
// service); each call makes its own scratch state, so the end of the run and
// the throttling thread (auto_throttle.cpp) never share one.
PairCost measure_pair_cost() {
  PairCost out;
  if (!g_fast_events) return out;  // the general paths call services: not on a scratch state
  ThreadState *saved = t_state;
  ThreadState *ts = kept_scratch_state();
  if (!ts) return out;
  cct_init(ts->cct, 0);
  ts->capacity = 64;
  ts->stack = static_cast<Frame *>(std::calloc(ts->capacity, sizeof(Frame)));
  if (!ts->stack) return out;
  ts->stack[0].node = &ts->cct.root;
  ts->succ = &ts->cct.root.after_enter;
  ts->max_depth = 32;
  ts->fast_limit = 32;
  ts->depth_region = kNoRegion;
  hcc_region_desc d{"hcc calibration", nullptr, "", -1, -1, HCC_KIND_ARTIFICIAL, kCalibrationRegion};
  t_state = ts;
  ts->stack[1].node = cct_child(ts->cct, &ts->cct.root, d.id);
  ts->cct.root.cache = ts->stack[1].node;
  // Every instrumented program pays this at exit: 21 000 pairs (~0.4 ms;
  // 102 000 were 2 ms, a fifth of what start plus exit may cost), rounds of
  // 80 us that a preemption rarely hits, and the best of five anyway.
  constexpr int kWarm = 1000, kPairs = 4000;
  for (int i = 0; i < kWarm; ++i) hcc_enter(&d), hcc_exit(&d);
  // Both figures are the best of the rounds: a round the thread was
  // preempted in is slower, never faster.
  // The inside part: what lands between the region's own two timestamps,
  // i.e. what an empty function's exclusive time per visit shows; hcc-report
  // takes it off a region's exclusive time to see the region's own work.
  const Node *n = ts->stack[1].node;
  double best = 1e30, best_inside = 1e30;
  for (int round = 0; round < 5; ++round) {
    const uint64_t incl0 = n ? n->incl : 0, visits0 = n ? n->visits : 0;
    uint64_t t0 = monotonic_ns();
    for (int i = 0; i < kPairs; ++i) hcc_enter(&d), hcc_exit(&d);
    double ns = double(monotonic_ns() - t0) / kPairs;
    if (ns < best) best = ns;
    if (n && n->visits > visits0) {
      const double inside = double(n->incl - incl0) * clock_seconds_per_tick() * 1e9 / double(n->visits - visits0);
      if (inside < best_inside) best_inside = inside;
    }
  }
  // ns per pair of `pair()`: warmed up, then the best of five rounds.
  auto best_of_rounds = [](auto pair) {
    for (int i = 0; i < kWarm; ++i) pair();
    double best_ns = 1e30;
    for (int round = 0; round < 5; ++round) {
      const uint64_t t0 = monotonic_ns();
      for (int i = 0; i < kPairs; ++i) pair();
      best_ns = std::min(best_ns, double(monotonic_ns() - t0) / kPairs);
    }
    return best_ns;
  };
  // A counted pair on the same node (count mode's lane: no clock), for the
  // plans' budget, which counts regions instead of timing them.
  const double best_count = best_of_rounds([&] { hcc_count_enter(&d), hcc_count_exit(&d); });
  // A throttled region's enter and exit (its visit counted on the node below
  // the calibration's frame; the exit finds no frame of it).
  hcc_region_desc dt{"hcc calibration (throttled)", nullptr, "", -1, -1, HCC_KIND_ARTIFICIAL,
                     kCalibrationThrottled | kThrottledBit};
  hcc_enter(&d);
  const double best_throttled = best_of_rounds([&] { hcc_enter(&dt), hcc_exit(&dt); });
  hcc_exit(&d);
  t_state = saved;
  out.ok = true;
  out.throttled = best_throttled;
  out.timed = best;
  out.counted = best_count;
  out.inside = best_inside < 1e30 ? best_inside : -1;
  return out;
}

namespace {

// At the end of the run: the pair's costs as the attributes hcc.pair_cost_ns
// (hcc-report --suggest-filter, --plan), hcc.count_pair_ns and
// hcc.pair_inside_ns, and the process CPU time so far.
void calibrate_pair_cost() {
  static bool done = false;
  if (done || !g_fast_events) return;
  done = true;
  // The process's CPU time so far (before the calibration's own): measured
  // times are wall-clock, and on a busy machine a region's time includes the
  // time its thread waited for a CPU; hcc-report scales by CPU / measured.
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) == 0) {
    char cpu[32];
    std::snprintf(cpu, sizeof cpu, "%.6f",
                  double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec));
    set_profile_attr("hcc.process_cpu_s", cpu);
  }
  const PairCost c = measure_pair_cost();
  if (!c.ok) return;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", c.timed);
  set_profile_attr("hcc.pair_cost_ns", buf);
  std::snprintf(buf, sizeof buf, "%.2f", c.counted);
  set_profile_attr("hcc.count_pair_ns", buf);
  if (c.inside >= 0) {
    std::snprintf(buf, sizeof buf, "%.2f", c.inside);
    set_profile_attr("hcc.pair_inside_ns", buf);
  }
  std::snprintf(buf, sizeof buf, "%.2f", c.throttled);
  set_profile_attr("hcc.throttled_pair_ns", buf);
}

void selection_before_build() {
  auto_throttle_stop();
  calibrate_pair_cost();
  std::lock_guard<std::mutex> lock(g_throttle_lock);
  if (g_throttled_text) set_profile_attr("hcc.throttled", *g_throttled_text);
  if (g_throttled_calls) set_profile_attr("hcc.throttled_calls", *g_throttled_calls);
  if (g_stopped_text) {
    set_profile_attr("hcc.count_stopped", *g_stopped_text);
    set_profile_attr("hcc.stopped_sites", std::to_string(patched_guard_calls()));
  }
}

const EventService kSelectionService = {selection_init, nullptr, nullptr, nullptr, nullptr, selection_before_build};

HCC_SERVICE_REGISTRATION void register_selection_service() { register_event_service(&kSelectionService); }

}  // namespace

bool selection_excludes(const RegionInfo &info) {
  if (!g_filter) return false;
  // MPI, OpenMP and the runtime's own regions are not filtered (as in Score-P).
  if (info.kind != HCC_KIND_FUNCTION && info.kind != HCC_KIND_USER && info.kind != HCC_KIND_LOOP) return false;
  return g_filter->excludes(filter::Region{info.name, info.mangled, info.file, false});
}

bool selection_counts(const RegionInfo &info) {
  if (!g_filter) return false;
  if (info.kind != HCC_KIND_FUNCTION && info.kind != HCC_KIND_USER && info.kind != HCC_KIND_LOOP) return false;
  return g_filter->counts(filter::Region{info.name, info.mangled, info.file, false});
}

void selection_set_flags(uint32_t id, const RegionInfo &info) {
  if (!g_flags || id >= kMaxFlagged || (!g_select && !g_prune)) return;
  filter::Region r{info.name, info.mangled, info.file, false};
  uint8_t f = 0;
  if (g_select && !g_select->excludes(r)) f |= kFlagSelect;
  if (g_prune && !g_prune->excludes(r)) f |= kFlagPrune;
  __atomic_store_n(&g_flags[id], f, __ATOMIC_RELEASE);
}

uint8_t region_flags(uint32_t id) {
  return g_flags && id < kMaxFlagged ? __atomic_load_n(&g_flags[id], __ATOMIC_ACQUIRE) : 0;
}

uint32_t *selection_saved_slot(ThreadState *ts, uint32_t depth) {
  if (depth >= ts->sel_saved_cap) {
    uint32_t cap = ts->sel_saved_cap ? ts->sel_saved_cap : 256;
    while (cap <= depth) cap *= 2;
    auto *p = static_cast<uint32_t *>(std::realloc(ts->sel_saved, cap * sizeof(uint32_t)));
    if (!p) std::abort();
    ts->sel_saved = p;
    ts->sel_saved_cap = cap;
  }
  return ts->sel_saved + depth;
}

// After frames were closed by a repair (skipped exits, longjmp): the counters
// are recomputed from the stack that is left.
void selection_resync(ThreadState *ts) {
  uint32_t inside = 0;
  for (uint32_t d = 1; d <= ts->depth; ++d)
    if (region_flags(frame_region(ts->stack[d])) & kFlagSelect) ++inside;
  ts->sel_inside = inside;
  if (ts->prune_depth > ts->depth) ts->prune_depth = 0;
  ts->sel_skipped = 0;
}

// Per thread, per region: calls and ticks. The first thread whose count of a
// region reaches N with a mean under the bound disables the region for
// every thread (its descriptors get kExcludedId). Frames of it still open
// (recursion, other threads) are closed by the exit repair at their caller's
// exit.
void throttle_account(ThreadState *ts, uint32_t region, uint64_t ticks) {
  if (region >= ts->throttle_cap) {
    uint32_t cap = ts->throttle_cap ? ts->throttle_cap : 256;
    while (cap <= region) cap *= 2;
    auto *p = static_cast<uint64_t *>(std::realloc(ts->throttle_stats, 2 * cap * sizeof(uint64_t)));
    if (!p) std::abort();
    std::memset(p + 2 * ts->throttle_cap, 0, 2 * (cap - ts->throttle_cap) * sizeof(uint64_t));
    ts->throttle_stats = p;
    ts->throttle_cap = cap;
  }
  uint64_t *s = ts->throttle_stats + 2 * region;
  uint64_t calls = ++s[0];
  s[1] += ticks;
  if (calls != g_throttle_calls) return;
  if (s[1] >= g_throttle_ticks * calls) return;  // mean at or above the bound: keep it
  double mean_us = double(s[1]) / double(calls) * clock_seconds_per_tick() * 1e6;
  std::string name = throttle_region_descriptors(region);
  if (name.empty()) return;  // already throttled by another thread
  char buf[96];
  std::snprintf(buf, sizeof buf, " (after %" PRIu64 " calls in thread %u, %.3f us/call)", calls, ts->location, mean_us);
  record_throttled(name, calls, buf);
}

void record_throttled(const std::string &name, uint64_t timed_calls, const std::string &evidence) {
  std::lock_guard<std::mutex> lock(g_throttle_lock);
  if (!g_throttled_text) g_throttled_text = new std::string, g_throttled_calls = new std::string;
  if (!g_throttled_text->empty()) *g_throttled_text += "; ";
  *g_throttled_text += name + evidence;
  if (!g_throttled_calls->empty()) *g_throttled_calls += "; ";
  *g_throttled_calls += std::to_string(timed_calls) + ' ' + name;
}

void record_count_stopped(const std::string &line) {
  std::lock_guard<std::mutex> lock(g_throttle_lock);
  if (!g_stopped_text) g_stopped_text = new std::string;
  if (!g_stopped_text->empty()) *g_stopped_text += "; ";
  *g_stopped_text += line;
}

}  // namespace hcc::rt
