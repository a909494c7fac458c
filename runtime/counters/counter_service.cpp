// hcc runtime — the HCC_METRICS service: counters per call path and thread.
//
// HCC_METRICS=EV1,EV2,… names events. At start-up each event goes to the
// first source that counts it here: PAPI (presets and native events) and,
// where PAPI cannot count it, the kernel's perf_event interface directly
// (perf:: software and generic hardware events). Then the service asks the
// core for every event (event_services.hpp): the fast paths are off, and the
// general paths call on_enter / on_exit below, which read all counters of
// the thread (one read per source) and add (reading at exit − reading at
// enter) to the node, exactly like time. The builder derives
// exclusive = inclusive − children. In recursion mode (core/fold.hpp) the
// counts are charged per event to the running frame, again like time.
//
// Any problem (unknown event, unavailable here, cannot be combined) prints
// one line per event naming it, the cause and what works here, and the run
// goes on with time only; HCC_METRICS_STRICT=1 stops it with exit status 1
// instead. Nothing is ever printed to stdout.
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/env.hpp"
#include "core/event_services.hpp"
#include "core/metrics.hpp"
#include "core/thread_state.hpp"
#include "counters/source.hpp"
#include "config/config.hpp"

namespace hcc::rt::counters {
namespace {

constexpr int kMaxEvents = 32;

// --- configuration, fixed at start-up ---------------------------------------

// The sources in use, each with its slice of the readings: source s fills
// last[first[s] .. first[s] + count[s]).
struct Used {
  Source *src = nullptr;
  int first = 0;
  int count = 0;
};
constexpr int kMaxSources = 2;
Used g_used[kMaxSources];
int g_nsources = 0;
int g_n = 0;                     // events counted; 0 = the service is off
int g_metric[kMaxEvents];        // extra-counter index (metrics.hpp) of reading k
std::atomic<bool> g_off{false};  // fork child: the inherited counters are the parent's

// --- per thread ----------------------------------------------------------

struct PerThread {
  ThreadState *ts = nullptr;
  void *handle[kMaxSources] = {};
  bool ok = false;
  long long last[kMaxEvents] = {};  // latest reading, all sources
  long long *start = nullptr;       // start[d * g_n + k]: reading when stack[d] was pushed
  uint32_t start_frames = 0;        // frames `start` has room for
};

__thread PerThread *t_pt;  // initial-exec like all of libhcc; never on the fast path
pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
std::vector<PerThread *> &all_threads() {
  static auto *v = new std::vector<PerThread *>;  // leaked: read at exit
  return *v;
}

// --- messages ------------------------------------------------------------

bool g_strict = false;

// Prints one complete line; with HCC_METRICS_STRICT=1 the first error ends
// the process. _exit, not exit: we are inside the runtime's one-time
// initialisation (pthread_once) at the program's first event, and exit()
// would run static destructors that may enter regions and wait on it forever.
void error_line(const std::string &what) {
  std::string line = "hcc: error: HCC_METRICS: " + what +
                     (g_strict ? "; stopping (HCC_METRICS_STRICT=1)\n" : "; measuring time only\n");
  std::fflush(stdout);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  if (g_strict) _exit(1);
}

bool flag(const char *var) { return config::flag(var, "using 0"); }

// The HCC_METRICS list; a name listed twice is counted once.
std::vector<std::string> event_names(const char *spec) {
  std::vector<std::string> out;
  for (const std::string &n : split_list(spec))
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  return out;
}

// One source as the selection sees it: usable or why not.
struct Candidate {
  Source *src;
  std::string unusable;  // "" = usable
};

// papi_avail-style: what really counts here, from every usable source.
std::string alternatives(const std::vector<Candidate> &cands) {
  static std::string *text = nullptr;
  if (text) return *text;
  std::vector<std::string> ok;
  for (const Candidate &c : cands) {
    if (!c.unusable.empty()) continue;
    for (const std::string &e : c.src->working_events()) {
      bool dup = false;
      for (const std::string &o : ok) dup |= o == e;
      if (!dup) ok.push_back(e);
    }
  }
  std::string s;
  for (const std::string &n : ok) s += (s.empty() ? "" : ", ") + n;
  text = new std::string(s.empty() ? "available: none (nothing can be counted here)" : "available: " + s);
  return *text;
}

// HCC_METRICS_SOURCE: auto (PAPI first, then perf_event_open), papi, perf.
bool source_choice(bool *papi, bool *perf) {
  const char *v = config::text("HCC_METRICS_SOURCE");
  *papi = *perf = true;
  if (!v || !*v || std::strcmp(v, "auto") == 0) return true;
  if (std::strcmp(v, "papi") == 0) *perf = false;
  else if (std::strcmp(v, "perf") == 0) *papi = false;
  else {
    std::fprintf(stderr, "hcc: error: HCC_METRICS_SOURCE='%s' is not auto, papi or perf; using auto\n", config::shown(v).c_str());
  }
  return true;
}

// --- start-up ------------------------------------------------------------

void on_fork_child();

bool service_init() {
  const char *spec = config::text("HCC_METRICS");
  g_strict = flag("HCC_METRICS_STRICT");
  const bool multiplex = flag("HCC_METRICS_MULTIPLEX");
  bool use_papi, use_perf;
  source_choice(&use_papi, &use_perf);
  if (!spec) return false;
  std::vector<std::string> names = event_names(spec);
  if (names.empty()) return false;
  // Before any source (PAPI's parser) sees a name: one line per name too long.
  bool too_long = false;
  for (const std::string &n : names) {
    if (n.size() <= kMaxEventName) continue;
    error_line("an event name of " + std::to_string(n.size()) + " characters ('" + n.substr(0, 32) +
               "…') is longer than the " + std::to_string(kMaxEventName) + " characters an event name can have");
    too_long = true;
  }
  if (too_long) return false;
  if (int(names.size()) > kMaxEvents) {
    error_line("more than " + std::to_string(kMaxEvents) + " events listed");
    return false;
  }

  std::vector<Candidate> cands;
  if (use_papi) {
    papi_request_multiplex(multiplex);
    cands.push_back({&papi_source(), papi_source().open()});
  }
  if (use_perf) cands.push_back({&perf_source(), perf_source().open()});
  bool any_usable = false;
  for (const Candidate &c : cands) any_usable |= c.unusable.empty();
  if (!any_usable) {
    std::string why;
    for (const Candidate &c : cands) why += (why.empty() ? "" : "; ") + c.unusable;
    error_line("'" + std::string(spec) + "' cannot be counted: " + why);
    return false;
  }

  // Each event to the first source that counts it (alone and with the
  // events that source already has); every bad one gets exactly one line.
  struct Accepted {
    EventDef def;
    int cand;
  };
  std::vector<Accepted> good;
  bool bad = false;
  for (const std::string &name : names) {
    bool known = false, together_failed = false;
    std::string reasons;
    int taken = -1;
    EventDef def;
    for (size_t c = 0; c < cands.size() && taken < 0; ++c) {
      if (!cands[c].unusable.empty()) continue;  // named below if it knew the event
      std::string why;
      switch (cands[c].src->add(name, &def, &why)) {
        case Verdict::Counts: taken = int(c); break;
        case Verdict::Unknown: break;
        case Verdict::Unavailable:
          known = true;
          reasons += (reasons.empty() ? "" : "; ") + why;
          break;
        case Verdict::NotTogether:
          known = together_failed = true;
          reasons += (reasons.empty() ? "" : "; ") + why;
          break;
      }
    }
    if (taken >= 0) {
      good.push_back({def, taken});
      continue;
    }
    bad = true;
    // The sources that cannot count at all: did they know the name?
    std::string unusable;
    bool cannot_tell = false;
    const Source *said_unknown = nullptr;
    for (const Candidate &c : cands) {
      const int k = c.unusable.empty() ? 0 : c.src->knows(name);
      if (k != 0) unusable += (unusable.empty() ? "" : "; ") + c.unusable;
      known |= k == 1;
      cannot_tell |= k < 0;
      if (k == 0 && !said_unknown) said_unknown = c.src;
    }
    const std::string alt = alternatives(cands);
    if (together_failed) {
      std::string others;
      for (const Accepted &g : good) others += (others.empty() ? "" : ", ") + g.def.name;
      error_line("'" + name + "' cannot be counted together with " + others + " (" + reasons + ")");
    } else if (known) {
      std::string all = reasons + (reasons.empty() || unusable.empty() ? "" : "; ") + unusable;
      error_line("'" + name + "' is not available on this machine (" + all + "); " + alt);
    } else if (cannot_tell) {
      error_line("'" + name + "' is not available on this machine (" + unusable + "; it is " +
                 said_unknown->unknown_hint() + "); " + alt);
    } else {
      error_line("'" + name + "' is " + said_unknown->unknown_hint() + "; " + alt);
    }
  }
  if (bad || good.empty()) return false;  // time only: never a partial, surprising set

  // Readings are laid out source by source.
  std::string list, sources;
  for (size_t c = 0; c < cands.size(); ++c) {
    Used u;
    u.src = cands[c].src;
    u.first = g_n;
    for (const Accepted &a : good) {
      if (a.cand != int(c)) continue;
      ExtraMetric m;
      m.def.uniq_name = a.def.name;
      m.def.disp_name = a.def.name;
      m.def.uom = a.def.uom.empty() ? "#" : a.def.uom;
      m.def.descr = a.def.descr + " [counted by " + u.src->label() + "]";
      m.def.dtype = a.def.estimate ? profile::DType::Int64 : profile::DType::UInt64;
      // Accumulated enter→exit like time, and written INCLUSIVE like time.
      m.def.cube_type = profile::CubeType::Inclusive;
      m.inclusive_counts = true;
      const int metric = register_extra_metric(m);
      if (metric < 0) return false;  // too late (cannot happen from init)
      g_metric[g_n++] = metric;
      list += (list.empty() ? "" : ",") + a.def.name;
      sources += (sources.empty() ? "" : ", ") + a.def.name + ": " + u.src->label();
      ++u.count;
    }
    if (u.count) g_used[g_nsources++] = u;
  }
  set_profile_attr("hcc.metrics.events", list);
  set_profile_attr("hcc.metrics.sources", sources);
  bool estimates = false;
  for (const Accepted &a : good) estimates |= a.def.estimate;
  set_profile_attr("hcc.metrics.multiplexed", estimates ? "yes: counter values are estimates" : "no");
  pthread_atfork(nullptr, nullptr, on_fork_child);
  return true;
}

// --- per-thread hooks ------------------------------------------------------

bool read_now(PerThread *pt) {
  long long v[kMaxEvents];
  for (int s = 0; s < g_nsources; ++s)
    if (!g_used[s].src->read(pt->handle[s], v + g_used[s].first)) return false;  // keep the last reading
  std::memcpy(pt->last, v, sizeof(long long) * size_t(g_n));
  return true;
}

// Touches the stack pages below the current frame once, so that the
// runtime's own reads (which run deeper than the program may have been yet)
// never take a first-touch page fault between two readings: such a fault
// would be counted in the user's region (seen: 4097 faults for 4096 pages).
__attribute__((noinline)) void prefault_stack() {
  volatile char pad[32 * 1024];
  for (size_t i = 0; i < sizeof pad; i += 512) pad[i] = 0;
}

void on_thread_start(ThreadState *ts) {
  if (g_n == 0 || g_off) return;
  prefault_stack();
  auto *pt = new PerThread;
  pt->ts = ts;
  pt->ok = true;
  std::string why;
  for (int s = 0; s < g_nsources && pt->ok; ++s) {
    pt->handle[s] = g_used[s].src->thread_start(&why);
    pt->ok = pt->handle[s] != nullptr;
  }
  if (!pt->ok)
    std::fprintf(stderr, "hcc: error: HCC_METRICS: counters could not be started on thread %u (%s); its counter values stay 0\n",
                 ts->location, why.c_str());
  else
    read_now(pt);
  pthread_mutex_lock(&g_lock);
  all_threads().push_back(pt);
  pthread_mutex_unlock(&g_lock);
  t_pt = pt;
}

// Adds (reading − start) to frames stack[from] .. stack[target + 1] and
// moves their start to the reading (so a later flush counts nothing twice).
void charge(PerThread *pt, uint32_t from, uint32_t target) {
  const Frame *stack = __atomic_load_n(&pt->ts->stack, __ATOMIC_ACQUIRE);
  long long *start = __atomic_load_n(&pt->start, __ATOMIC_ACQUIRE);
  for (uint32_t d = from; d > target; --d) {
    if (d >= pt->start_frames) continue;
    uint64_t *x = stack[d].node->extra();
    long long *s = start + size_t(d) * size_t(g_n);
    for (int k = 0; k < g_n; ++k) {
      long long delta = pt->last[k] - s[k];
      if (delta > 0) x[g_metric[k]] += uint64_t(delta);
      s[k] = pt->last[k];
    }
  }
}

// Recursion mode (core/fold.hpp) charges exclusively: the counts since the
// last event go to the running frame stack[d] alone (to the frame below
// the pause marker when that is on top), whose node is a proxy then; the
// builder adds proxies' counts up the tree as it does for time.
void charge_running(PerThread *pt, uint32_t d) {
  const ThreadState *ts = pt->ts;
  const Frame *stack = __atomic_load_n(&ts->stack, __ATOMIC_ACQUIRE);
  long long *start = __atomic_load_n(&pt->start, __ATOMIC_ACQUIRE);
  if (d >= pt->start_frames) return;
  const uint32_t who = d > ts->fold_base && stack[d].node == ts->pause_node ? d - 1 : d;
  uint64_t *x = stack[who].node->extra();
  long long *s = start + size_t(d) * size_t(g_n);
  for (int k = 0; k < g_n; ++k) {
    long long delta = pt->last[k] - s[k];
    if (delta > 0) x[g_metric[k]] += uint64_t(delta);
    s[k] = pt->last[k];
  }
}

// The frames stack[1 .. d] run from now on (recursion mode ended, or
// stack[d] became the running frame in it).
void restart(PerThread *pt, uint32_t from, uint32_t to) {
  for (uint32_t d = from; d <= to && d < pt->start_frames; ++d)
    std::memcpy(pt->start + size_t(d) * size_t(g_n), pt->last, sizeof(long long) * size_t(g_n));
}

void on_enter(ThreadState *ts) {
  PerThread *pt = t_pt;
  if (!pt || !pt->ok || g_off.load(std::memory_order_relaxed)) return;
  const uint32_t d = ts->depth;
  if (d >= pt->start_frames) {
    // Grows like the shadow stack; the old array is kept, a finalizer on
    // another thread may be reading it.
    uint32_t frames = pt->start_frames ? pt->start_frames * 2 : 256;
    while (frames <= d) frames *= 2;
    auto *s = static_cast<long long *>(std::calloc(size_t(frames) * size_t(g_n), sizeof(long long)));
    if (!s) return;
    if (pt->start) std::memcpy(s, pt->start, sizeof(long long) * size_t(pt->start_frames) * size_t(g_n));
    __atomic_store_n(&pt->start, s, __ATOMIC_RELEASE);
    pt->start_frames = frames;
  }
  read_now(pt);  // last, so the work above is charged to the caller
  if (ts->fold_base == d) {
    charge(pt, d - 1, 0);  // recursion mode begins: the older frames' share ends here
  } else if (ts->fold_base != 0 && d > ts->fold_base) {
    charge_running(pt, d - 1);  // in recursion mode: the caller's share since the last event
  }
  std::memcpy(pt->start + size_t(d) * size_t(g_n), pt->last, sizeof(long long) * size_t(g_n));
}

void on_exit(ThreadState *ts, uint32_t target, uint64_t) {
  PerThread *pt = t_pt;
  if (!pt || !pt->ok || g_off.load(std::memory_order_relaxed)) return;
  read_now(pt);  // first, so the work below is not charged to the region
  const uint32_t base = ts->fold_base;
  if (base == 0) {
    charge(pt, ts->depth, target);
    return;
  }
  // Recursion mode: only the running frame ran since the last event; frames
  // older than the mode that close now (a repair) had their share when it
  // began.
  charge_running(pt, ts->depth);
  if (target >= base)
    restart(pt, target, target);  // the caller runs again
  else
    restart(pt, 1, target);  // the mode ends: the older frames run again
}

void on_thread_end(ThreadState *) {
  PerThread *pt = t_pt;
  if (!pt || !pt->ok || g_off) return;
  // Frees the thread's file descriptors (a program that starts thousands of
  // threads would run out of them).
  pthread_mutex_lock(&g_lock);
  pt->ok = false;
  pthread_mutex_unlock(&g_lock);
  for (int s = 0; s < g_nsources; ++s) g_used[s].src->thread_end(pt->handle[s]);
}

// Open frames count up to now, as they do for time: the finalizing thread
// reads its counters; other threads' open frames count up to their latest
// reading (a thread's counters can only be read by that thread). Idempotent.
void before_build() {
  if (g_n == 0) return;
  if (g_off) {
    set_profile_attr("hcc.metrics.events", "(not counted in a fork child: the counters belong to the parent)");
    return;
  }
  pthread_mutex_lock(&g_lock);
  for (PerThread *pt : all_threads()) {
    if (!pt->ok || pt->ts->ended) continue;
    if (pt == t_pt) read_now(pt);
    uint32_t depth = __atomic_load_n(&pt->ts->depth, __ATOMIC_RELAXED);
    const uint32_t base = __atomic_load_n(&pt->ts->fold_base, __ATOMIC_RELAXED);
    if (base != 0 && depth >= base)
      charge_running(pt, depth);  // recursion mode (see charge_running)
    else
      charge(pt, depth, 0);
  }
  pthread_mutex_unlock(&g_lock);
}

// The child's counters still count the PARENT's thread (perf_event file
// descriptors are per thread, not per process): the child measures time
// only, and drops counts it inherited. No locks here (another thread may
// have held one at fork); the child has one thread.
void on_fork_child() {
  g_off = true;
  if (ThreadState *ts = t_state) {
    cct_for_each(ts->cct.root, [&](Node *n) {
      for (int k = 0; k < g_n; ++k) n->extra()[g_metric[k]] = 0;
    });
  }
}

const EventService kService = {service_init, on_thread_start, on_enter, on_exit, on_thread_end, before_build};

// Registration only stores a pointer: nothing is read or loaded before the
// program's first event.
HCC_SERVICE_REGISTRATION void register_service() { register_event_service(&kService); }

}  // namespace
}  // namespace hcc::rt::counters
