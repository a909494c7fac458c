// hcc runtime — the PAPI service: hardware/software counters per call path.
//
// HCC_METRICS=EV1,EV2,… names PAPI preset or native events. At start-up this
// service loads libpapi (dlopen: programs that do not ask for counters never
// load it, and libhcc works where PAPI is not installed), checks every event
// on its own and all of them together, and registers one extra metric per
// event through the metrics seam. It then asks the core for every event
// (event_services.hpp): the fast paths are off, and the general paths call
// on_enter / on_exit below, which read all counters of the thread with ONE
// PAPI_read and add (reading at exit − reading at enter) to the node, exactly
// like time. The builder derives exclusive = inclusive − children.
//
// Any problem (unknown event, unavailable here, cannot be combined, PAPI or
// perf_event unusable) prints one line per event naming it and what works
// here, and the run goes on with time only; HCC_METRICS_STRICT=1 stops it
// with exit status 1 instead. Nothing is ever printed to stdout.
#include <dlfcn.h>
#include <papi.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/event_services.hpp"
#include "core/metrics.hpp"
#include "core/thread_state.hpp"

namespace hcc::rt::papi {
namespace {

// --- libpapi, loaded on demand -------------------------------------------

#define HCC_PAPI_FUNCTIONS(X)                                                          \
  X(PAPI_library_init) X(PAPI_thread_init) X(PAPI_multiplex_init) X(PAPI_register_thread) \
  X(PAPI_unregister_thread) X(PAPI_create_eventset) X(PAPI_add_events)                \
  X(PAPI_assign_eventset_component) X(PAPI_set_multiplex) X(PAPI_start) X(PAPI_stop)  \
  X(PAPI_read) X(PAPI_cleanup_eventset) X(PAPI_destroy_eventset)                      \
  X(PAPI_event_name_to_code) X(PAPI_event_code_to_name) X(PAPI_query_event)           \
  X(PAPI_get_event_info) X(PAPI_enum_event) X(PAPI_strerror)                          \
  X(PAPI_get_component_index) X(PAPI_get_component_info) X(PAPI_get_event_component)

struct Api {
#define HCC_PAPI_MEMBER(f) decltype(&::f) f = nullptr;
  HCC_PAPI_FUNCTIONS(HCC_PAPI_MEMBER)
#undef HCC_PAPI_MEMBER
};
Api P;

// Returns "" or why libpapi could not be loaded.
std::string load_papi() {
  void *h = nullptr;
  for (const char *so : {"libpapi.so.7.0", "libpapi.so.7", "libpapi.so"})
    if ((h = dlopen(so, RTLD_NOW | RTLD_LOCAL))) break;
  if (!h) {
    const char *e = dlerror();
    return std::string("libpapi could not be loaded (") + (e ? e : "not found") + "; install libpapi7.0)";
  }
#define HCC_PAPI_LOAD(f)                                                          \
  P.f = reinterpret_cast<decltype(&::f)>(dlsym(h, #f));                            \
  if (!P.f) return "libpapi has no " #f " (a PAPI older than 7 is not supported)";
  HCC_PAPI_FUNCTIONS(HCC_PAPI_LOAD)
#undef HCC_PAPI_LOAD
  return "";
}

// --- configuration, fixed at start-up ---------------------------------------

constexpr int kMaxEvents = 32;

struct Event {
  std::string name;  // as PAPI names it
  int code = 0;
  int metric = -1;   // extra-counter index (metrics.hpp)
};

std::vector<Event> &events() {
  static auto *v = new std::vector<Event>;  // leaked: read at exit
  return *v;
}
int g_n = 0;                 // events counted; 0 = the service is off
int g_codes[kMaxEvents];
bool g_multiplex = false;
std::atomic<bool> g_off{false};  // fork child: the inherited counters are the parent's

// --- per thread ----------------------------------------------------------

struct PerThread {
  ThreadState *ts = nullptr;
  int evset = PAPI_NULL;
  bool ok = false;
  long long last[kMaxEvents] = {};  // latest reading
  long long *start = nullptr;       // start[d * g_n + k]: reading when stack[d] was pushed
  uint32_t start_frames = 0;        // frames `start` has room for
};

__thread PerThread *t_pt;  // initial-exec like all of libhcc; never on the fast path
pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
std::vector<PerThread *> &all_threads() {
  static auto *v = new std::vector<PerThread *>;  // leaked: read at exit
  return *v;
}

unsigned long thread_id() { return static_cast<unsigned long>(pthread_self()); }

std::string papi_error(int rc) {
  const char *s = P.PAPI_strerror ? P.PAPI_strerror(rc) : nullptr;
  return s ? s : "PAPI error " + std::to_string(rc);
}

// An event set holding `codes`, started; PAPI_NULL and `why` on failure.
int make_started_set(const int *codes, int n, std::string *why) {
  int es = PAPI_NULL;
  int rc = P.PAPI_create_eventset(&es);
  if (rc == PAPI_OK && g_multiplex && n > 0) {
    // A multiplexed set must know its component before it is converted.
    rc = P.PAPI_assign_eventset_component(es, P.PAPI_get_event_component(codes[0]));
    if (rc == PAPI_OK) rc = P.PAPI_set_multiplex(es);
  }
  if (rc == PAPI_OK) rc = P.PAPI_add_events(es, const_cast<int *>(codes), n);
  if (rc == PAPI_OK) rc = P.PAPI_start(es);
  if (rc != PAPI_OK) {
    if (why) *why = papi_error(rc);
    if (es != PAPI_NULL) {
      P.PAPI_cleanup_eventset(es);
      P.PAPI_destroy_eventset(&es);
    }
    return PAPI_NULL;
  }
  return es;
}

void drop_set(int es) {
  long long junk[kMaxEvents];
  P.PAPI_stop(es, junk);
  P.PAPI_cleanup_eventset(es);
  P.PAPI_destroy_eventset(&es);
}

bool counts(const int *codes, int n, std::string *why = nullptr) {
  int es = make_started_set(codes, n, why);
  if (es == PAPI_NULL) return false;
  drop_set(es);
  return true;
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

int g_presets_available = -1;  // presets that really count here (-1: not yet known)

// papi_avail-style: a handful of presets and the software events that really
// count here (each one tried, since "available" in PAPI's tables does not
// mean perf_event_open will succeed in a VM).
const std::string &alternatives() {
  static std::string *text = nullptr;
  if (text) return *text;
  std::vector<std::string> ok;
  g_presets_available = 0;
  int code = PAPI_PRESET_MASK;
  if (P.PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK) {
    do {
      if (P.PAPI_query_event(code) != PAPI_OK || !counts(&code, 1)) continue;
      ++g_presets_available;
      char name[PAPI_MAX_STR_LEN];
      if (ok.size() < 6 && P.PAPI_event_code_to_name(code, name) == PAPI_OK) ok.push_back(name);
    } while (g_presets_available <= 6 && P.PAPI_enum_event(&code, PAPI_PRESET_ENUM_AVAIL) == PAPI_OK);
  }
  for (const char *sw : {"perf::TASK-CLOCK", "perf::CPU-CLOCK", "perf::PAGE-FAULTS", "perf::MINOR-FAULTS",
                         "perf::MAJOR-FAULTS", "perf::CONTEXT-SWITCHES", "perf::CPU-MIGRATIONS"}) {
    int c;
    if (P.PAPI_event_name_to_code(sw, &c) == PAPI_OK && counts(&c, 1)) ok.push_back(sw);
  }
  std::string s;
  for (const std::string &n : ok) s += (s.empty() ? "" : ", ") + n;
  text = new std::string(s.empty() ? "available: none (PAPI can count nothing here)"
                                   : "available: " + s + (g_presets_available > 6 ? ", … (papi_avail -a)" : ""));
  return *text;
}

// --- start-up ------------------------------------------------------------

bool flag(const char *var) {
  const char *v = std::getenv(var);
  if (!v || !*v || std::strcmp(v, "0") == 0) return false;
  if (std::strcmp(v, "1") == 0) return true;
  std::fprintf(stderr, "hcc: error: %s='%s' is not 0 or 1; using 0\n", var, v);
  return false;
}

std::vector<std::string> split_names(const char *spec) {
  std::vector<std::string> out;
  std::string cur;
  for (const char *p = spec;; ++p) {
    if (*p == ',' || *p == '\0') {
      size_t b = cur.find_first_not_of(" \t"), e = cur.find_last_not_of(" \t");
      if (b != std::string::npos) {
        std::string name = cur.substr(b, e - b + 1);
        bool dup = false;
        for (const std::string &n : out) dup |= n == name;
        if (!dup) out.push_back(name);  // a name listed twice is counted once
      }
      cur.clear();
      if (!*p) break;
    } else {
      cur += *p;
    }
  }
  return out;
}

void on_fork_child();

bool service_init() {
  const char *spec = std::getenv("HCC_METRICS");
  g_strict = flag("HCC_METRICS_STRICT");
  g_multiplex = flag("HCC_METRICS_MULTIPLEX");
  if (!spec) return false;
  std::vector<std::string> names = split_names(spec);
  if (names.empty()) return false;
  if (int(names.size()) > kMaxEvents) {
    error_line("more than " + std::to_string(kMaxEvents) + " events listed");
    return false;
  }

  std::string why = load_papi();
  if (why.empty()) {
    int v = P.PAPI_library_init(PAPI_VER_CURRENT);
    if (v != PAPI_VER_CURRENT)
      why = "PAPI could not be initialised (" + (v > 0 ? std::string("version mismatch") : papi_error(v)) + ")";
  }
  if (why.empty() && P.PAPI_thread_init(thread_id) != PAPI_OK) why = "PAPI thread support could not be initialised";
  if (why.empty() && g_multiplex && P.PAPI_multiplex_init() != PAPI_OK) why = "PAPI multiplexing could not be initialised";
  if (why.empty()) {
    // perf_event is PAPI's CPU component; disabled it can count nothing
    // (no perf_event_open: perf_event_paranoid, seccomp, containers).
    int cidx = P.PAPI_get_component_index("perf_event");
    const PAPI_component_info_t *ci = cidx >= 0 ? P.PAPI_get_component_info(cidx) : nullptr;
    if (ci && ci->disabled) {
      why = std::string("PAPI's perf_event component is disabled: ") + ci->disabled_reason;
      if (FILE *f = std::fopen("/proc/sys/kernel/perf_event_paranoid", "r")) {
        int level;
        if (std::fscanf(f, "%d", &level) == 1)
          why += " (/proc/sys/kernel/perf_event_paranoid is " + std::to_string(level) + "; 2 or less is needed)";
        std::fclose(f);
      }
    }
  }
  if (!why.empty()) {
    error_line("'" + std::string(spec) + "' cannot be counted: " + why);
    return false;
  }
  if (g_multiplex) {
    // PAPI_set_multiplex fails where no hardware counters are exposed (seen
    // in a KVM guest: "Event does not exist" even for an empty set). Count
    // without it then: the events may still fit; if not, the combination
    // check below says so.
    int es = PAPI_NULL, cidx = P.PAPI_get_component_index("perf_event");
    int rc = P.PAPI_create_eventset(&es);
    if (rc == PAPI_OK) rc = P.PAPI_assign_eventset_component(es, cidx >= 0 ? cidx : 0);
    if (rc == PAPI_OK) rc = P.PAPI_set_multiplex(es);
    if (es != PAPI_NULL) {
      P.PAPI_cleanup_eventset(es);
      P.PAPI_destroy_eventset(&es);
    }
    if (rc != PAPI_OK) {
      std::fprintf(stderr, "hcc: warning: HCC_METRICS_MULTIPLEX=1: PAPI cannot multiplex here (%s); counting without multiplexing\n",
                   papi_error(rc).c_str());
      g_multiplex = false;
    }
  }

  // Each event alone, then all accepted ones together; every bad one gets
  // exactly one line.
  bool bad = false;
  std::vector<Event> good;
  for (const std::string &name : names) {
    Event ev;
    int code = 0;
    if (P.PAPI_event_name_to_code(name.c_str(), &code) != PAPI_OK) {
      error_line("'" + name + "' is not a PAPI event name (papi_avail, papi_native_avail); " + alternatives());
      bad = true;
      continue;
    }
    std::string alone_why;
    if (P.PAPI_query_event(code) != PAPI_OK || !counts(&code, 1, &alone_why)) {
      const std::string &alt = alternatives();  // also counts the presets available here
      // A preset when no preset counts here: the CPU's counters are not
      // exposed (a VM, a container); else PAPI's own reason.
      const bool preset = (code & PAPI_PRESET_MASK) != 0;
      std::string reason = preset && g_presets_available == 0
                               ? "no hardware counters exposed"
                               : (alone_why.empty() ? "PAPI lists it as unavailable" : "PAPI: " + alone_why);
      error_line("'" + name + "' is not available on this machine (" + reason + "); " + alt);
      bad = true;
      continue;
    }
    std::vector<int> codes;
    for (const Event &g : good) codes.push_back(g.code);
    codes.push_back(code);
    if (!counts(codes.data(), int(codes.size()))) {
      std::string others;
      for (const Event &g : good) others += (others.empty() ? "" : ", ") + g.name;
      error_line("'" + name + "' cannot be counted together with " + others +
                 (g_multiplex ? "" : " (too few counters? HCC_METRICS_MULTIPLEX=1 may help)"));
      bad = true;
      continue;
    }
    char canonical[PAPI_HUGE_STR_LEN];
    ev.name = P.PAPI_event_code_to_name(code, canonical) == PAPI_OK ? canonical : name;
    ev.code = code;
    good.push_back(ev);
  }
  if (bad || good.empty()) return false;  // time only: never a partial, surprising set

  for (Event &ev : good) {
    PAPI_event_info_t info;
    std::memset(&info, 0, sizeof info);
    P.PAPI_get_event_info(ev.code, &info);
    ExtraMetric m;
    m.def.uniq_name = ev.name;
    m.def.disp_name = ev.name;
    m.def.uom = info.units[0] ? info.units : "#";
    std::string descr = info.long_descr[0] ? info.long_descr : (info.short_descr[0] ? info.short_descr : ev.name);
    if (g_multiplex) descr = "Estimate (PAPI multiplexing, scaled by time counted): " + descr;
    m.def.descr = descr;
    // Counts like Score-P's PAPI metrics; multiplexed estimates are scaled
    // and not monotonic, so a child can exceed its parent by a little:
    // signed then, so a slightly negative exclusive value stays visible.
    m.def.dtype = g_multiplex ? profile::DType::Int64 : profile::DType::UInt64;
    // Accumulated enter→exit like time, and written INCLUSIVE like time.
    m.def.cube_type = profile::CubeType::Inclusive;
    m.inclusive_counts = true;
    ev.metric = register_extra_metric(m);
    if (ev.metric < 0) return false;  // too late (cannot happen from init)
  }
  events() = good;
  g_n = int(good.size());
  std::string list;
  for (int k = 0; k < g_n; ++k) {
    g_codes[k] = good[size_t(k)].code;
    list += (k ? "," : "") + good[size_t(k)].name;
  }
  set_profile_attr("hcc.papi.events", list);
  set_profile_attr("hcc.papi.multiplexed", g_multiplex ? "yes: counter values are estimates" : "no");
  pthread_atfork(nullptr, nullptr, on_fork_child);
  return true;
}

// --- per-thread hooks ------------------------------------------------------

bool read_now(PerThread *pt) {
  long long v[kMaxEvents];
  if (P.PAPI_read(pt->evset, v) != PAPI_OK) return false;  // keep the last reading
  std::memcpy(pt->last, v, sizeof(long long) * size_t(g_n));
  return true;
}

void on_thread_start(ThreadState *ts) {
  if (g_n == 0 || g_off) return;
  auto *pt = new PerThread;
  pt->ts = ts;
  P.PAPI_register_thread();
  std::string why;
  pt->evset = make_started_set(g_codes, g_n, &why);
  pt->ok = pt->evset != PAPI_NULL;
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
  std::memcpy(pt->start + size_t(d) * size_t(g_n), pt->last, sizeof(long long) * size_t(g_n));
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
      if (delta > 0) x[events()[size_t(k)].metric] += uint64_t(delta);
      s[k] = pt->last[k];
    }
  }
}

void on_exit(ThreadState *ts, uint32_t target) {
  PerThread *pt = t_pt;
  if (!pt || !pt->ok || g_off.load(std::memory_order_relaxed)) return;
  read_now(pt);  // first, so the work below is not charged to the region
  charge(pt, ts->depth, target);
}

void on_thread_end(ThreadState *) {
  PerThread *pt = t_pt;
  if (!pt || !pt->ok || g_off) return;
  // Frees the thread's perf_event file descriptors (a program that starts
  // thousands of threads would run out of them).
  pthread_mutex_lock(&g_lock);
  pt->ok = false;
  pthread_mutex_unlock(&g_lock);
  drop_set(pt->evset);
  P.PAPI_unregister_thread();
}

// Open frames count up to now, as they do for time: the finalizing thread
// reads its counters; other threads' open frames count up to their latest
// reading (PAPI cannot read another thread's event set). Idempotent.
void before_build() {
  if (g_n == 0) return;
  if (g_off) {
    set_profile_attr("hcc.papi.events", "(not counted in a fork child: the counters belong to the parent)");
    return;
  }
  pthread_mutex_lock(&g_lock);
  for (PerThread *pt : all_threads()) {
    if (!pt->ok || pt->ts->ended) continue;
    if (pt == t_pt) read_now(pt);
    uint32_t depth = __atomic_load_n(&pt->ts->depth, __ATOMIC_RELAXED);
    charge(pt, depth, 0);
  }
  pthread_mutex_unlock(&g_lock);
}

// The child's perf_event descriptors still count the PARENT's thread: the
// child measures time only, and drops counts it inherited. No locks here
// (another thread may have held one at fork); the child has one thread.
void on_fork_child() {
  g_off = true;
  if (ThreadState *ts = t_state) {
    cct_for_each(ts->cct.root, [&](Node *n) {
      for (const Event &ev : events()) n->extra()[ev.metric] = 0;
    });
  }
}

const EventService kService = {service_init, on_thread_start, on_enter, on_exit, on_thread_end, before_build};

// Registration only stores a pointer: nothing is read or loaded before the
// program's first event.
__attribute__((constructor)) void register_service() { register_event_service(&kService); }

}  // namespace
}  // namespace hcc::rt::papi
