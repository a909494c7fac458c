// hcc runtime — life cycle (see lifecycle.hpp).
#include "lifecycle.hpp"

#include "cfg.hpp"

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "clock.hpp"
#include "cubex_writer.hpp"
#include "env.hpp"
#include "fold.hpp"
#include "extra_paths.hpp"
#include "gmon_out.hpp"
#include "hooks.hpp"
#include "metrics.hpp"
#include "nothing_measured.hpp"
#include "output.hpp"
#include "plan_update.hpp"
#include "profile_builder.hpp"
#include "registry.hpp"
#include "event_services.hpp"
#include "thread_state.hpp"
#include "io/regular_file.hpp"

namespace hcc::rt {

namespace {

// Created on first use and leaked, like every global of the runtime that
// has a destructor: it is read after static destructors have run.
RunInfo &run() {
  static RunInfo *r = new RunInfo;
  return *r;
}
std::atomic<uint32_t> g_max_depth{1024};
// The one finalize: open; claimed by a service (libhcc_mpi's merge at
// MPI_Finalize) that has not finished its own write yet; or done. The middle
// state exists because a merge waits for every rank: when one dies, the
// launcher kills the others while they wait in it, and the signal must still
// write their own profile (finalize() does, under the claim's file tag).
enum FinalizeState : int { kOpen, kClaimed, kDone };
std::atomic<int> g_finalize{kOpen};
// The file tag when the service claimed (profile.rank-<r>.cubex): the merge
// may have set another one for its own file when a signal interrupts it.
std::string *g_claim_tag = nullptr;
pthread_once_t g_init_once = PTHREAD_ONCE_INIT;
std::terminate_handler g_prev_terminate = nullptr;

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGINT, SIGTERM};
struct sigaction g_prev_action[NSIG];

// --- fatal signals (best effort: the writer is not async-signal-safe) ---

std::atomic<int> g_sigterm_linger_ms{0};

// Waits `ms` (a deadline, so the signals that interrupt it do not stretch it).
void linger(int ms) {
  struct timespec until;
  clock_gettime(CLOCK_MONOTONIC, &until);
  until.tv_sec += ms / 1000;
  until.tv_nsec += long(ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) until.tv_sec += 1, until.tv_nsec -= 1000000000L;
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
  }
}

void on_fatal_signal(int sig) {
  int saved_errno = errno;
  // Back to the disposition we found (SIG_DFL) and unblocked BEFORE writing:
  // should the writer hang (the signal interrupted malloc) or crash, a second
  // Ctrl-C, or the crash itself, ends the process as it would have without us.
  sigaction(sig, &g_prev_action[sig], nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  cubex_writer::skip_fsync();  // the launcher's SIGKILL may be a second away (cubex_writer.hpp)
  finalize();
  // An MPI rank stays until the launcher's SIGKILL (at most the linger): Open
  // MPI's mpirun SIGKILLs all ranks as soon as one of them exits after its
  // SIGTERM, which would cut short the others still writing their profiles.
  if (sig == SIGTERM && g_sigterm_linger_ms.load() > 0) linger(g_sigterm_linger_ms.load());
  raise(sig);  // now does what the signal would have done
  errno = saved_errno;
}

void install_signal_handlers() {
  // An alternate stack lets the handler run after a stack overflow (deep
  // recursion) on the thread that initialised the runtime, normally main.
  stack_t old_ss;
  if (sigaltstack(nullptr, &old_ss) == 0 && (old_ss.ss_flags & SS_DISABLE)) {
    stack_t ss{};
    ss.ss_size = 256 * 1024;
    ss.ss_sp = new (std::nothrow) char[ss.ss_size];
    if (ss.ss_sp) sigaltstack(&ss, nullptr);
  }
  for (int sig : kSignals) {
    struct sigaction cur;
    if (sigaction(sig, nullptr, &cur) != 0) continue;
    // Never replace a handler (or SIG_IGN) the program set itself.
    bool is_default = !(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_DFL;
    if (!is_default) continue;
    struct sigaction sa{};
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_ONSTACK;
    g_prev_action[sig] = cur;
    sigaction(sig, &sa, nullptr);
  }
}

// --- uncaught exceptions ---

[[noreturn]] void on_terminate() {
  finalize();
  if (g_prev_terminate) g_prev_terminate();
  std::abort();
}

// --- fork ---

void before_fork() {
  // The child writes next to the parent: choose (and create) the default
  // directory now, so both use the same one.
  if (any_thread()) prepare_output_dir();
  output_lock();
  threads_lock();
  registry_lock();
}

void after_fork_parent() {
  registry_unlock();
  threads_unlock();
  output_unlock();
}

void after_fork_child() {
  run().fork_child = true;
  run().pid = int(getpid());
  ThreadState *self = t_state;
  threads_keep_only(self);
  if (self) {
    // The child's profile covers the child's life: counts inherited from the
    // parent are cleared, every open frame counts as one visit starting now.
    cct_for_each(self->cct.root, [](Node *n) {
      n->visits = 0;
      n->incl = 0;
      n->max_open = n->open;
      cfg_clear(n);
      if (n->kind == kReal && n->link) n->link->incl = 0;  // its proxy (fold.hpp)
    });
    cfg_clear(&self->cct.root);  // its slots count the roots' first predecessor
    uint64_t now = clock_now();
    for (uint32_t d = 1; d <= self->depth; ++d) {
      self->stack[d].start = now;
      ++attributed(self->stack[d].node)->visits;
    }
    self->fold_t0 = self->fold_last = now;  // recursion mode, if on, begins now too
    self->dropped = self->overflow;
  }
  registry_unlock();
  threads_unlock();
  output_unlock();
}

// --- run information ---

std::string read_command_line() {
  std::string raw;
  // ARG_MAX is a quarter of the stack limit: with a large one, a command line
  // past the limit is recorded as the program's name alone.
  if (!io::read_regular_file("/proc/self/cmdline", io::kProcFileLimit, raw)) return program_invocation_short_name;
  while (!raw.empty() && raw.back() == '\0') raw.pop_back();
  for (char &c : raw)
    if (c == '\0') c = ' ';
  return raw;
}

void init() {
  settings_init();
  const Settings &s = settings();
  g_max_depth = s.max_depth;
  g_cfg = s.cfg;
  std::string warning = clock_init(s.clock);
  if (!warning.empty()) std::fprintf(stderr, "%s\n", warning.c_str());
  services_init();  // registers their metrics; may turn the fast paths off

  run().program = program_invocation_short_name;
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd)) run().start_dir = cwd;
  run().command_line = read_command_line();
  run().start_time = time(nullptr);
  run().pid = int(getpid());

  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
  g_prev_terminate = std::set_terminate(on_terminate);
  if (s.signals) install_signal_handlers();
}

}  // namespace

void runtime_init_once() { pthread_once(&g_init_once, init); }

const RunInfo &run_info() { return run(); }

uint32_t max_depth_for_new_threads() { return g_max_depth; }
void set_max_depth_for_new_threads(uint32_t n) { g_max_depth = n; }

bool claim_finalize() noexcept {
  // The tag first: a signal right after the exchange reads it.
  if (g_finalize.load() == kOpen && !g_claim_tag) g_claim_tag = new (std::nothrow) std::string(current_file_tag());
  int open = kOpen;
  return g_finalize.compare_exchange_strong(open, kClaimed);
}

void finalize_claim_done() noexcept { g_finalize.store(kDone); }

void set_sigterm_linger(int ms) noexcept { g_sigterm_linger_ms.store(ms > 0 ? ms : 0); }

void finalize() noexcept {
  const int was = g_finalize.exchange(kDone);
  if (was == kDone) return;
  // A claimed finalize that never finished (a signal while the merge waits for
  // a rank that died, an error in the merge): this process's own profile,
  // named as before the claim.
  if (was == kClaimed && g_claim_tag) set_file_tag(*g_claim_tag);
  // Nothing was measured — no thread made a state, or (sampling on, the
  // main thread started at load) no region was entered and no sample
  // taken, as in a configure test's program: no profile, at most one line.
  const PathSource *samples = path_source();
  if (!any_thread() || (regions_snapshot().empty() && (!samples || samples->samples_taken() == 0))) {
    note_nothing_measured();
    return;
  }
  try {
    profile::Profile p = build_local_profile();
    for (auto &kv : own_file_attrs_snapshot()) p.attrs.push_back(std::move(kv));
    write_gmon_if_requested(p);  // HCC_GPROF=1
    update_plan_if_requested(p, write_profile(p));  // HCC_PLAN_UPDATE=FILE
  } catch (const std::exception &e) {
    std::fprintf(stderr, "hcc: error: the profile could not be written: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "hcc: error: the profile could not be written\n");
  }
}

}  // namespace hcc::rt

// Library destructors run in _dl_fini, after exit() has run the program's
// atexit handlers and static destructors, so their regions are measured too.
__attribute__((destructor)) static void hcc_rt_at_unload() { hcc::rt::finalize(); }
