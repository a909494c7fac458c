// hcc runtime — the HCC_SAMPLING service: settings, the signal, one CPU-time
// timer per thread, and the registration hook that tells the handler which
// machine functions are instrumented.
//
// HCC_SAMPLING=on (default, 200 Hz) | off | <Hz>. On by default: every run
// is hybrid, and what hcc does not time (left out, counted, throttled,
// libraries) gets its time from its samples (DESIGN.md). A signal can make
// a program behave differently: a blocking call that SA_RESTART does not
// restart (nanosleep, poll, select, semop with a timeout …) returns EINTR
// when a sample lands while the thread is in it. With
// CLOCK_THREAD_CPUTIME_ID timers that needs CPU time spent inside the call,
// which the kernel's task-work expiry makes not happen (docs/sampling.md,
// with the one documented exception); HCC_SAMPLING=off turns it off.
#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <link.h>
#include <libunwind.h>

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/clock.hpp"
#include "core/elf_symbols.hpp"
#include "core/env.hpp"
#include "core/event_services.hpp"
#include "core/extra_paths.hpp"
#include "core/metrics.hpp"
#include "core/nothing_measured.hpp"
#include "core/registry.hpp"
#include "core/thread_state.hpp"
#include "sampling/paths.hpp"
#include "sampling/sampling.hpp"
#include "sampling/signal_masks.hpp"
#include "config/config.hpp"

namespace hcc::rt::sampling {

namespace {

constexpr unsigned kDefaultHz = 200;
bool g_on = false;
volatile sig_atomic_t g_stopped = 0;
unsigned g_hz = 0;
// The main thread's state was made when the library loaded (a program that
// may enter no region: start_at_load below): its base is not known from a
// first event, so its walks end at `main` instead.
bool g_started_at_load = false;
int g_signal = 0;
int g_metric = -1;
int g_cpu_metric = -1;
int g_measurement_metric = -1;

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
std::vector<Buffer *> &buffers() {
  static auto *v = new std::vector<Buffer *>;  // leaked: read at exit
  return *v;
}

// The switch words (config/switch_words.cpp): off/0/no/false, on/1/yes/true.
bool is_off(const char *v) { return v && *v && config::parse_switch(v) == false; }

// The rate HCC_SAMPLING asks for (unset or empty: the default, on); 0 for
// off and for a bad value.
unsigned rate_of(const char *v) {
  if (!v || !*v) return kDefaultHz;
  if (is_off(v)) return 0;
  if (config::parse_switch(v) == true) return kDefaultHz;
  char *end = nullptr;
  unsigned long hz = std::strtoul(v, &end, 10);
  if (*v >= '0' && *v <= '9' && end && *end == '\0' && hz >= 1 && hz <= 10000) return unsigned(hz);
  return 0;
}

// Parses HCC_SAMPLING; prints the reason and returns 0 (off) when bad.
unsigned parse_rate(const char *v) {
  if (const unsigned hz = rate_of(v)) return hz;
  if (is_off(v)) return 0;
  std::fprintf(stderr,
               "hcc: error: HCC_SAMPLING='%s' is not off, on or a rate in Hz from 1 to 10000; "
               "sampling stays off\n",
               config::shown(v).c_str());
  return 0;
}

// A real-time signal nobody handles yet: SIGRTMIN+4 upwards (glibc keeps
// none above SIGRTMIN for itself, but some libraries take the first few).
int pick_signal() {
  for (int s = SIGRTMIN + 4; s <= SIGRTMAX - 4; ++s) {
    struct sigaction old;
    if (sigaction(s, nullptr, &old) != 0) continue;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) return s;
  }
  return 0;
}

// Populated at once: a page the handler touched first would be a page fault
// of whatever code the sample interrupted, in its perf::PAGE-FAULTS counter
// (sampling is on by default, counters are exact per call path).
void *map_zeroed(size_t bytes) {
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

// --- the first frame of user code above the runtime ----------------------

// hcc's guard at -O0 is a function of its own (FunctionGuard's constructor in
// C++; __hcc_enter_ret in C objects from an older hcc or without bind.h's
// guard calls): the instrumented function is its caller.
bool is_guard(uintptr_t start) {
  static auto *known = new std::unordered_map<uintptr_t, bool>;  // under g_lock
  pthread_mutex_lock(&g_lock);
  auto it = known->find(start);
  bool found = it != known->end(), guard = found && it->second;
  pthread_mutex_unlock(&g_lock);
  if (found) return guard;
  const Symbol s = symbolize(start);
  guard = s.mangled.find("FunctionGuard") != std::string::npos || s.mangled == "__hcc_enter_ret";
  pthread_mutex_lock(&g_lock);
  (*known)[start] = guard;
  pthread_mutex_unlock(&g_lock);
  return guard;
}

// Steps `c` to the first frame outside hcc's code and its guards; returns
// that frame's function start (0 when unwinding fails first).
uintptr_t to_first_user_frame(unw_cursor_t *c) {
  for (int i = 0; i < 64; ++i) {
    unw_word_t pc = 0;
    unw_get_reg(c, UNW_REG_IP, &pc);
    if (!in_hcc_code(uintptr_t(pc))) {
      uintptr_t start = function_start_slow(uintptr_t(pc));
      if (!start || !is_guard(start)) return start;
    }
    if (unw_step(c) <= 0) return 0;
  }
  return 0;
}

// The main thread's base, once main runs: main's CFA, the stack pointer of
// the libc frame that called main and calls `exit` after it. Walks stop at
// main while main is on the stack; after it returns, a sample in exit's
// handlers (a static destructor, ld.so's teardown) ends at `exit` instead of
// showing libc's start-up frames. Found at the first function registered
// on the main thread (the walk that reaches an uninstrumented main sets it
// too, handler.cpp). `c` is at that function's frame, `start` its start.
uintptr_t g_main = 0;
void note_main_base(unw_cursor_t *c, uintptr_t start) {
  Buffer *b = current_buffer();
  if (!g_main || !b || b->base_sp != ~uintptr_t(0) || b->ts->tid != getpid()) return;
  for (int i = 0; i < 64 && start != g_main; ++i) {
    unw_word_t pc = 0;
    if (unw_step(c) <= 0 || unw_get_reg(c, UNW_REG_IP, &pc) != 0) return;
    start = function_start_slow(uintptr_t(pc) - 1);
  }
  unw_word_t sp = 0;
  if (start == g_main && unw_step(c) > 0 && unw_get_reg(c, UNW_REG_SP, &sp) == 0) b->base_sp = uintptr_t(sp);
}

// The region's function: a sample whose anchor it is adds the calls
// inlined into it at the sampled site (handler.cpp's walk). Two regions
// with one machine function (an instrumented function inlined into another
// instrumented one, identical code folded) cannot tell which inlined calls
// are whose: neither gets them. Called under the registry's lock.
void note_instrumented_region(uint32_t region, uintptr_t start) {
  static auto *owner = new std::unordered_map<uintptr_t, uint32_t>;  // start -> region, 0 = shared
  if (!start) return;
  auto [it, fresh] = owner->emplace(start, region);
  if (fresh) {
    note_region_start(region, start);
  } else if (it->second != region) {
    if (it->second) note_region_start(it->second, 0);
    it->second = 0;
  }
}

// Registration of a function descriptor: the function that called hcc_enter
// is instrumented (hooks.cpp reaches register_region by tail calls, so the
// frames between are the runtime's).
void on_function_registered(const hcc_region_desc *d) {
  unw_context_t ctx;
  unw_cursor_t c;
  if (unw_getcontext(&ctx) != 0 || unw_init_local(&c, &ctx) != 0) return;
  uintptr_t start = to_first_user_frame(&c);
  note_instrumented_function(start);
  note_instrumented_region(__atomic_load_n(&d->id, __ATOMIC_ACQUIRE), start);
  note_main_base(&c, start);
}

// The thread's base: the CFA of the first user frame at its first event
// (the caller's stack pointer). Frames whose CFA lies above it belong to
// what started the thread (libc's start-up, the OpenMP runtime).
uintptr_t thread_base() {
  unw_context_t ctx;
  unw_cursor_t c;
  if (unw_getcontext(&ctx) != 0 || unw_init_local(&c, &ctx) != 0) return ~uintptr_t(0);
  if (!to_first_user_frame(&c) || unw_step(&c) <= 0) return ~uintptr_t(0);
  unw_word_t sp = 0;
  unw_get_reg(&c, UNW_REG_SP, &sp);
  return uintptr_t(sp);
}

// The run-time address of the executable's `main`, from its symbol table
// (0 if it has none: a stripped program's samples then show libc's start-up
// frames above main).
int first_module_bias(struct dl_phdr_info *info, size_t, void *out) {
  *static_cast<uintptr_t *>(out) = uintptr_t(info->dlpi_addr);
  return 1;  // the first module is the executable
}
uintptr_t find_main() {
  std::string error;
  for (const ElfFunction &f : read_elf_functions("/proc/self/exe", error))
    if (f.name == "main" && !f.local) {
      uintptr_t bias = 0;
      dl_iterate_phdr(first_module_bias, &bias);
      return bias + uintptr_t(f.addr);
    }
  return 0;
}

// --- the EventService hooks ------------------------------------------------

// HCC_MPI_UNWIND: on (default), off, or exclude:NAME,… (read at start-up).
bool g_mpi_unwind = true;
std::vector<std::string> *g_mpi_excluded = nullptr;

void parse_mpi_unwind(const char *v) {
  const std::optional<bool> on = config::parse_switch(v);
  if (!v || !*v || on == true) return;
  if (on == false) {
    g_mpi_unwind = false;
  } else if (std::strncmp(v, "exclude:", 8) == 0) {
    g_mpi_excluded = new std::vector<std::string>(split_list(v + 8));
  } else {
    std::fprintf(stderr,
                 "hcc: error: HCC_MPI_UNWIND='%s' is not on, off or exclude:NAME,NAME...; using on\n", v);
  }
}

bool init() {
  parse_mpi_unwind(config::text("HCC_MPI_UNWIND"));
  g_hz = parse_rate(config::text("HCC_SAMPLING"));
  if (!g_hz) return false;
  g_signal = pick_signal();
  if (!g_signal) {
    std::fputs("hcc: error: HCC_SAMPLING: every real-time signal has a handler already; sampling stays off\n",
               stderr);
    return false;
  }
  ExtraMetric m;
  m.def.uniq_name = "samples";
  m.def.disp_name = "Samples";
  m.def.uom = "occ";
  m.def.descr = "Samples taken in the call path (HCC_SAMPLING: thread CPU-time timer)";
  m.def.dtype = profile::DType::UInt64;
  m.def.cube_type = profile::CubeType::Exclusive;
  m.inclusive_counts = false;  // counted where they land
  g_metric = register_extra_metric(m);
  if (g_metric < 0) return false;
  // What the samples stand for: CPU time. A call path's time minus its
  // sampled CPU time is time it spent off the CPU (blocked, or waiting for
  // a core) as far as sampling can tell.
  ExtraMetric c;
  c.def.uniq_name = "sampled_cpu";
  c.def.disp_name = "Sampled CPU time";
  c.def.uom = "sec";
  c.def.descr = "Thread CPU time the samples in the call path stand for (each sample: the thread's CPU clock "
                "since its previous sample)";
  c.def.dtype = profile::DType::Double;
  c.def.cube_type = profile::CubeType::Exclusive;
  c.inclusive_counts = false;
  c.scale = 1e-9;
  g_cpu_metric = register_extra_metric(c);
  if (g_cpu_metric < 0) return false;
  // What measuring cost, where it was paid: the CPU time of the samples
  // that landed in hcc's own code (hooks, runtime, trampolines), on the
  // call path that was the innermost open frame. Not in sampled_cpu, so it
  // is no untimed node's own time: it stays in the nearest timed node's
  // exclusive time, as the clock placement of a timed pair charges the
  // runtime's work to the caller.
  ExtraMetric o;
  o.def.uniq_name = "measurement_cpu";
  o.def.disp_name = "Measurement CPU time";
  o.def.uom = "sec";
  o.def.descr = "Thread CPU time the samples that landed in hcc's own code (its hooks and runtime) stand for, on "
                "the call path that was the innermost open frame: what measuring cost there";
  o.def.dtype = profile::DType::Double;
  o.def.cube_type = profile::CubeType::Exclusive;
  o.inclusive_counts = false;
  o.scale = 1e-9;
  g_measurement_metric = register_extra_metric(o);
  if (g_measurement_metric < 0) return false;
  unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
  scan_code_ranges();
  if (g_started_at_load) set_main_start(g_main = find_main());
  set_function_registered_hook(on_function_registered);
  set_region_stopped_hook([](uint32_t region) { note_stopped_function(region_start(region)); });
  set_path_source(&kSampledPaths);
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(g_signal, &sa, nullptr);
  g_on = true;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%u Hz of each thread's CPU time (signal SIGRTMIN+%d)", g_hz,
                g_signal - SIGRTMIN);
  set_profile_attr("hcc.sampling", buf);
  return false;  // needs no per-event hook: the fast paths stay on
}

// The handler and libunwind take several KiB of stack. On the thread's own
// stack, below where the program has been, each new page would be a page
// fault of the code the sample interrupted (its perf::PAGE-FAULTS counter),
// so the handler runs on a stack of its own, populated now: unless the
// thread has one already (the program's own, kept), or a failure, where it
// runs on the thread's stack as before. Given back at the thread's end,
// after its timer is gone and the stack is switched off.
constexpr size_t kSignalStackBytes = 64 * 1024;
void use_own_signal_stack(Buffer *b) {
  stack_t old;
  if (sigaltstack(nullptr, &old) != 0 || !(old.ss_flags & SS_DISABLE)) return;
  void *p = map_zeroed(kSignalStackBytes);
  if (!p) return;
  stack_t ss;
  ss.ss_sp = p;
  ss.ss_size = kSignalStackBytes;
  ss.ss_flags = 0;
  if (sigaltstack(&ss, nullptr) != 0) munmap(p, kSignalStackBytes);
  else b->signal_stack = p;
}

// On the thread itself: the stack is switched off only while it is still
// ours (the program may have installed its own since).
void drop_own_signal_stack(Buffer *b) {
  if (!b->signal_stack) return;
  stack_t now;
  if (sigaltstack(nullptr, &now) != 0 || now.ss_sp != b->signal_stack || (now.ss_flags & SS_ONSTACK)) return;
  stack_t off;
  std::memset(&off, 0, sizeof off);
  off.ss_flags = SS_DISABLE;
  if (sigaltstack(&off, nullptr) == 0) {
    munmap(b->signal_stack, kSignalStackBytes);
    b->signal_stack = nullptr;
  }
}

void thread_start(ThreadState *ts) {
  if (!g_on) return;
  auto *b = new Buffer;
  b->ts = ts;
  b->cap = 1u << 14;
  b->ip_cap = 1u << 12;
  b->table = static_cast<Entry *>(map_zeroed(sizeof(Entry) * b->cap));
  b->by_order = static_cast<uint32_t *>(map_zeroed(sizeof(uint32_t) * b->cap));
  b->ip_key = static_cast<uintptr_t *>(map_zeroed(sizeof(uintptr_t) * b->ip_cap));
  b->ip_start = static_cast<uintptr_t *>(map_zeroed(sizeof(uintptr_t) * b->ip_cap));
  if (!b->table || !b->by_order || !b->ip_key || !b->ip_start) {
    std::fputs("hcc: error: HCC_SAMPLING: no memory for a thread's sample table; this thread is not sampled\n",
               stderr);
    return;
  }
  use_own_signal_stack(b);
  // Started at load, the main thread has no first user frame yet: no base
  // (walks end at main, set_main_start).
  b->base_sp = g_started_at_load && ts->tid == getpid() ? ~uintptr_t(0) : thread_base();
  b->start_tick = clock_now();
  b->last_cpu_ns = thread_cpu_ns();
  pthread_mutex_lock(&g_lock);
  buffers().push_back(b);
  pthread_mutex_unlock(&g_lock);
  set_current_buffer(b);

  struct sigevent sev;
  std::memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = g_signal;
  sev._sigev_un._tid = ts->tid;
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &b->timer) != 0) {
    std::perror("hcc: error: HCC_SAMPLING: timer_create");
    return;
  }
  b->has_timer = true;
  struct itimerspec its;
  const long ns = long(1000000000ull / g_hz);
  its.it_interval.tv_sec = ns / 1000000000L;
  its.it_interval.tv_nsec = ns % 1000000000L;
  its.it_value = its.it_interval;
  timer_settime(b->timer, 0, &its, nullptr);
}

void stop_thread(Buffer *b) {
  b->stopped = 1;
  if (b->has_timer) {
    timer_delete(b->timer);
    b->has_timer = false;
  }
}

void thread_end(ThreadState *ts) {
  Buffer *b = current_buffer();
  if (!b || b->ts != ts) return;
  stop_thread(b);
  flush_pending(b);
  b->end_tick = clock_now();
  drop_own_signal_stack(b);
}

void before_build() {
  // The final build: no more samples (the builder reads the tables).
  if (!g_on) return;
  g_stopped = 1;
  if (Buffer *b = current_buffer()) {
    stop_thread(b);
    flush_pending(b);
  }
}

const EventService kService = {init, thread_start, nullptr, nullptr, thread_end, before_build};

HCC_SERVICE_REGISTRATION void register_service() { register_event_service(&kService); }

}  // namespace

bool active() { return g_on && !g_stopped; }
int signal_number() { return g_on ? g_signal : 0; }

bool mpi_unwind_enabled(const char *mpi_name) {
  if (!g_mpi_unwind) return false;
  if (g_mpi_excluded && mpi_name)
    for (const std::string &n : *g_mpi_excluded)
      if (n == mpi_name) return false;
  return true;
}
int samples_metric() { return g_metric; }
int cpu_metric() { return g_cpu_metric; }
int measurement_metric() { return g_measurement_metric; }
uint64_t thread_cpu_ns() {
  struct timespec t;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
  return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}
uint64_t interval_ns() { return g_hz ? 1000000000ull / g_hz : 0; }

std::vector<Buffer *> all_buffers() {
  pthread_mutex_lock(&g_lock);
  std::vector<Buffer *> copy = buffers();
  pthread_mutex_unlock(&g_lock);
  return copy;
}

}  // namespace hcc::rt::sampling

// A program whose functions hcc left out (--hcc-functions=none, everything
// filtered) enters no region, so the runtime would never start and its
// samples would never be taken. When sampling is asked for, a program hcc
// linked (linked_by_hcc(), nothing_measured.hpp) starts measuring its
// main thread as the library loads; its samples alone make the profile.
// Only the main thread: other threads are sampled from their first event
// (an OpenMP construct, an MPI call, an instrumented function).
__attribute__((constructor)) static void hcc_sampling_start_at_load() {
  using namespace hcc::rt;
  if (!linked_by_hcc() || t_state) return;
  // A bad value is reported at start-up as before, and starts nothing here.
  if (sampling::rate_of(hcc::config::text("HCC_SAMPLING")) == 0) return;
  // With hcc's MPI wrappers, MPI_Init starts the runtime (after the wrappers
  // registered their metrics, for which a started runtime has no room).
  Dl_info where;
  if (void *init = dlsym(RTLD_DEFAULT, "MPI_Init");
      init && dladdr(init, &where) && where.dli_fname && std::strstr(where.dli_fname, "libhcc_mpi"))
    return;
  sampling::g_started_at_load = true;
  thread_state_create();
}
