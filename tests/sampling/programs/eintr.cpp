// Does a sample's signal make a blocking call fail with EINTR?  Built
// through hcc (--hcc-functions=all: each call kind's loop is its own
// instrumented function, so the profile's `samples` under it counts the
// samples taken while that kind ran). Each loop makes CALLS calls, each after
// an amount of CPU work (spin: an amount of work, not of time), so the
// thread's CPU-time timer keeps expiring between and around the calls, and
// counts the calls that failed with EINTR. Prints one line per kind:
//   <kind> calls <n> eintr <e>
// With `--control-timer` the program first arms its own CLOCK_MONOTONIC timer
// (every 100-300 us of wall time, an SA_RESTART handler that only re-arms
// it): a real-time timer does fire while a thread is blocked, so it shows
// which calls the harness sees fail with EINTR and which SA_RESTART restarts.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <thread>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

// No anonymous namespace: the profile names the loops loop_poll and so on.

constexpr int CALLS = 300;
constexpr long SPIN = 300000;     // about 0.3-0.5 ms of CPU per call
constexpr int POLL_ENTRIES = 1000;  // one never-ready fd, repeated: the kernel scans them all before it sleeps
constexpr int SELECT_PIPES = 120;
constexpr int FORKS = 100;  // a fork costs milliseconds

volatile double sink;

// SPIN/2 to 3*SPIN/2 iterations a call, from a fixed pseudo-random
// sequence (the same in every run): iterations all alike could lock onto the
// kernel tick's phase and be sampled only while blocked (a select loop of 300
// calls once took 3 samples, 35 as a rule).
__attribute__((noinline)) void spin() {
  static unsigned long state = 12345;
  state = state * 6364136223846793005ul + 1442695040888963407ul;
  const long n = SPIN / 2 + long((state >> 33) % SPIN);
  double x = 1.0;
  for (long k = 0; k < n; ++k) x = x * 1.0000001 + 1e-9;
  sink = x;
}

int never_ready[2];  // a pipe nobody writes to
int fail = 0;

// Wall time of each loop goes to stderr (for the test's log; nothing
// depends on it).
double last_report_s = 0;
double wall_s() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

void report(const char *kind, int eintr, int calls = CALLS) {
  std::printf("%s calls %d eintr %d\n", kind, calls, eintr);
  std::fflush(stdout);
  const double now = wall_s();
  std::fprintf(stderr, "%s wall %.3f s\n", kind, now - last_report_s);
  last_report_s = now;
}

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "eintr: unexpected result of %s: %s\n", what, std::strerror(errno));
    fail = 1;
  }
}

// A call failed with error `err`: EINTR is counted in `e`; `expected` (a
// timeout) is fine; anything else is an error of the program.
void tally(int err, int &e, const char *what, int expected = 0) {
  if (err == EINTR)
    ++e;
  else if (err != expected) {
    errno = err;
    check(false, what);
  }
}

timespec after_us(long us) {
  timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  t.tv_nsec += us * 1000;
  t.tv_sec += t.tv_nsec / 1000000000;
  t.tv_nsec %= 1000000000;
  return t;
}

__attribute__((noinline)) void loop_nanosleep() {
  int e = 0;
  for (int i = 0; i < CALLS; ++i) {
    spin();
    const timespec d{0, 50000};
    if (nanosleep(&d, nullptr) != 0) tally(errno, e, "nanosleep");
  }
  report("nanosleep", e);
}

__attribute__((noinline)) void loop_clock_nanosleep() {
  int e = 0;
  for (int i = 0; i < CALLS; ++i) {
    spin();
    const timespec d{0, 50000};
    const int r = clock_nanosleep(CLOCK_MONOTONIC, 0, &d, nullptr);
    if (r != 0) tally(r, e, "clock_nanosleep");
  }
  report("clock_nanosleep", e);
}

__attribute__((noinline)) void loop_usleep() {
  int e = 0;
  for (int i = 0; i < CALLS; ++i) {
    spin();
    if (usleep(50) != 0) tally(errno, e, "usleep");
  }
  report("usleep", e);
}

__attribute__((noinline)) void loop_poll() {
  static pollfd fds[POLL_ENTRIES];
  for (pollfd &p : fds) p = pollfd{never_ready[0], POLLIN, 0};
  int e = 0;
  for (int i = 0; i < CALLS; ++i) {
    spin();
    const int r = poll(fds, POLL_ENTRIES, 1);
    if (r < 0) tally(errno, e, "poll");
    else check(r == 0, "poll");
  }
  report("poll", e);
}

__attribute__((noinline)) void loop_select() {
  int rd[SELECT_PIPES], wr[SELECT_PIPES], top = 0;
  for (int k = 0; k < SELECT_PIPES; ++k) {
    int p[2];
    check(pipe(p) == 0, "pipe");
    rd[k] = p[0], wr[k] = p[1];
    if (p[0] > top) top = p[0];
  }
  check(top < FD_SETSIZE, "select's FD_SETSIZE");
  int e = 0;
  for (int i = 0; i < CALLS; ++i) {
    spin();
    fd_set set;
    FD_ZERO(&set);
    for (int k = 0; k < SELECT_PIPES; ++k) FD_SET(rd[k], &set);
    timeval t{0, 200};
    const int r = select(top + 1, &set, nullptr, nullptr, &t);
    if (r < 0) tally(errno, e, "select");
    else check(r == 0, "select");
  }
  for (int k = 0; k < SELECT_PIPES; ++k) close(rd[k]), close(wr[k]);
  report("select", e);
}

__attribute__((noinline)) void loop_epoll_wait() {
  const int ep = epoll_create1(0);
  epoll_event ev{};
  ev.events = EPOLLIN;
  check(ep >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, never_ready[0], &ev) == 0, "epoll_ctl");
  int e = 0;
  for (int i = 0; i < CALLS; ++i) {
    spin();
    epoll_event out;
    const int r = epoll_wait(ep, &out, 1, 1);
    if (r < 0) tally(errno, e, "epoll_wait");
    else check(r == 0, "epoll_wait");
  }
  close(ep);
  report("epoll_wait", e);
}

__attribute__((noinline)) void loop_sem_timedwait() {
  sem_t s;
  sem_init(&s, 0, 0);  // never posted: each wait times out (or is interrupted)
  int e = 0;
  for (int i = 0; i < CALLS; ++i) {
    spin();
    const timespec until = after_us(200);
    if (sem_timedwait(&s, &until) != 0) tally(errno, e, "sem_timedwait", ETIMEDOUT);
  }
  sem_destroy(&s);
  report("sem_timedwait", e);
}

__attribute__((noinline)) void loop_pthread_cond_timedwait() {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t c = PTHREAD_COND_INITIALIZER;
  int e = 0;
  pthread_mutex_lock(&m);
  for (int i = 0; i < CALLS; ++i) {
    spin();
    const timespec until = after_us(200);
    const int r = pthread_cond_timedwait(&c, &m, &until);  // never signalled
    if (r != 0) tally(r, e, "pthread_cond_timedwait", ETIMEDOUT);
  }
  pthread_mutex_unlock(&m);
  report("pthread_cond_timedwait", e);
}

// sleep_for retries nanosleep on EINTR itself (libstdc++), so an
// interruption cannot be seen as an error: what would show one is a sleep
// shorter than asked, which the standard forbids.
__attribute__((noinline)) void loop_sleep_for() {
  int e = 0;
  for (int i = 0; i < CALLS; ++i) {
    spin();
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::microseconds(50));
    if (std::chrono::steady_clock::now() - t0 < std::chrono::microseconds(50)) ++e;
  }
  report("sleep_for", e);
}

// A read of a pipe that blocks until a writer thread answers: the request
// goes on one pipe, the writer sleeps 100 us, and the answer comes on
// another.
int ask[2], answer[2];
void *writer(void *) {
  char c;
  while (read(ask[0], &c, 1) == 1 && c == 'r') {
    usleep(100);
    if (write(answer[1], "a", 1) != 1) break;
  }
  return nullptr;
}

__attribute__((noinline)) void loop_pipe_read() {
  check(pipe(ask) == 0 && pipe(answer) == 0, "pipe");
  pthread_t w;
  pthread_create(&w, nullptr, writer, nullptr);
  int e = 0;
  for (int i = 0; i < CALLS; ++i) {
    check(write(ask[1], "r", 1) == 1, "write");
    spin();
    char c;
    ssize_t r;
    while ((r = read(answer[0], &c, 1)) < 0 && errno == EINTR) ++e;  // retried, but counted
    check(r == 1 && c == 'a', "read");
  }
  check(write(ask[1], "q", 1) == 1, "write");
  pthread_join(w, nullptr);
  for (int fd : {ask[0], ask[1], answer[0], answer[1]}) close(fd);
  report("pipe_read", e);
}

__attribute__((noinline)) void loop_waitpid() {
  int e = 0;
  for (int i = 0; i < FORKS; ++i) {
    const pid_t child = fork();
    if (child == 0) {
      usleep(200);
      _exit(7);
    }
    check(child > 0, "fork");
    // As much CPU work as each other loop's 300 calls, so that its samples
    // are as many (with one spin per fork this loop took 2-13 samples).
    for (int k = 0; k < CALLS / FORKS; ++k) spin();
    int status = 0;
    pid_t r;
    while ((r = waitpid(child, &status, 0)) < 0 && errno == EINTR) ++e;  // retried, but counted
    check(r == child && WIFEXITED(status) && WEXITSTATUS(status) == 7, "waitpid");
  }
  report("waitpid", e, FORKS);
}

// The control timer fires after 100-300 us of wall time (mean 200), drawn
// afresh at each expiry: with a fixed period, a loop whose iterations last
// nearly a multiple of it locks onto its phase and the ticks keep landing in
// the spin, not in the call (measured: 1-21 EINTR of 300 nanosleeps with a
// fixed 200 us). The handler re-arms it; timer_settime is async-signal-safe.
timer_t control_timer;
unsigned control_seed = 12345;

void arm_control_once() {
  control_seed = control_seed * 1103515245u + 12345u;  // any spread will do
  const long us = 100 + long((control_seed >> 16) % 201);
  itimerspec once{{0, 0}, {0, us * 1000}};
  timer_settime(control_timer, 0, &once, nullptr);
}

void rearm(int) {
  const int saved = errno;
  arm_control_once();
  errno = saved;
}

void arm_control_timer() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = rearm;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, nullptr);
  sigevent ev;
  std::memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SIGALRM;
  ev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));  // this (the main) thread
  check(timer_create(CLOCK_MONOTONIC, &ev, &control_timer) == 0, "timer_create");
  arm_control_once();
}

// --- Waits that let signals in ------------------------------------------
// The thread blocks every signal while it works, so a signal that comes
// meanwhile (a sample, the control timer's) stays pending; then it waits
// with a mask that lets them in, which is what these masks are for. A
// signal pending then is delivered at once and the call fails with EINTR.
// hcc withholds its own signal from such masks (runtime/sampling/
// signal_masks.cpp): the sample stays pending until the thread restores
// its mask after the call, and is taken there.
sigset_t all_signals, no_signals;
bool control = false;

// The program's own wake-up for the waits that have no timeout (sigsuspend,
// sigwait, sigwaitinfo, a signalfd read): SIGUSR1 50 us after it is armed,
// to this thread. Armed with every signal blocked, so it cannot be missed.
timer_t wake_timer;
volatile sig_atomic_t woken = 0;
void on_wake(int) { woken = 1; }

void arm_wake() {
  woken = 0;
  itimerspec once{{0, 0}, {0, 50000}};
  check(timer_settime(wake_timer, 0, &once, nullptr) == 0, "timer_settime");
}

void make_wake_timer() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_wake;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &sa, nullptr);
  sigevent ev;
  std::memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SIGUSR1;
  ev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  check(timer_create(CLOCK_MONOTONIC, &ev, &wake_timer) == 0, "timer_create");
}

// A wait by set took signal `sig`, which the program did not wait for (the
// wake-up is its own): the control timer's SIGALRM, whose handler then did
// not run to re-arm it, or a sample.
void took_foreign(int sig) {
  if (control && sig == SIGALRM) arm_control_once();
}

// CALLS times: work with every signal blocked, then `wait()` (1 when the
// program saw what it did not wait for: EINTR, or a foreign signal), then
// the thread's mask again.
template <class Wait>
void after_blocked_work(const char *kind, Wait wait) {
  int e = 0;
  for (int i = 0; i < CALLS; ++i) {
    sigset_t old;
    pthread_sigmask(SIG_BLOCK, &all_signals, &old);
    spin();
    e += wait();
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
  }
  report(kind, e);
}

int ppoll_once(const char *what) {
  pollfd p{never_ready[0], POLLIN, 0};
  const timespec t{0, 50000};
  int e = 0;
  if (ppoll(&p, 1, &t, &no_signals) < 0) tally(errno, e, what);
  return e;
}

__attribute__((noinline)) void loop_ppoll_after_blocked_work() {
  after_blocked_work("ppoll_after_blocked_work", [] { return ppoll_once("ppoll"); });
}

// The same ppoll as a system call of its own, which no interposed function
// sees: what the program gets without hcc's mitigation, in the same run
// (samples do become pending in the blocked work, and would interrupt).
__attribute__((noinline)) void loop_raw_ppoll_after_blocked_work() {
  after_blocked_work("raw_ppoll_after_blocked_work", [] {
    pollfd p{never_ready[0], POLLIN, 0};
    timespec t{0, 50000};
    int e = 0;
    if (syscall(SYS_ppoll, &p, 1, &t, &no_signals, _NSIG / 8) < 0) tally(errno, e, "ppoll system call");
    return e;
  });
}

__attribute__((noinline)) void loop_pselect_after_blocked_work() {
  after_blocked_work("pselect_after_blocked_work", [] {
    fd_set set;
    FD_ZERO(&set);
    FD_SET(never_ready[0], &set);
    const timespec t{0, 50000};
    int e = 0;
    if (pselect(never_ready[0] + 1, &set, nullptr, nullptr, &t, &no_signals) < 0) tally(errno, e, "pselect");
    return e;
  });
}

__attribute__((noinline)) void loop_epoll_pwait_after_blocked_work() {
  static int ep = -1;
  ep = epoll_create1(0);
  epoll_event ev{};
  ev.events = EPOLLIN;
  check(ep >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, never_ready[0], &ev) == 0, "epoll_ctl");
  after_blocked_work("epoll_pwait_after_blocked_work", [] {
    epoll_event out;
    int e = 0;
    if (epoll_pwait(ep, &out, 1, 1, &no_signals) < 0) tally(errno, e, "epoll_pwait");
    return e;
  });
  close(ep);
}

#if __GLIBC_PREREQ(2, 35)
__attribute__((noinline)) void loop_epoll_pwait2_after_blocked_work() {
  static int ep = -1;
  ep = epoll_create1(0);
  epoll_event ev{};
  ev.events = EPOLLIN;
  check(ep >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, never_ready[0], &ev) == 0, "epoll_ctl");
  after_blocked_work("epoll_pwait2_after_blocked_work", [] {
    epoll_event out;
    const timespec t{0, 50000};
    int e = 0;
    if (epoll_pwait2(ep, &out, 1, &t, &no_signals) < 0) tally(errno, e, "epoll_pwait2");
    return e;
  });
  close(ep);
}
#endif

// sigsuspend always returns with EINTR, after a handler ran: what counts is
// whether it returned before the program's own wake-up came.
__attribute__((noinline)) void loop_sigsuspend_after_blocked_work() {
  after_blocked_work("sigsuspend_after_blocked_work", [] {
    arm_wake();
    int foreign = 0;
    while (!woken) {
      check(sigsuspend(&no_signals) == -1 && errno == EINTR, "sigsuspend");
      if (!woken) foreign = 1;
    }
    return foreign;
  });
}

// A thread that takes its signals by waiting for any of them (all blocked,
// a full set): what it takes besides its own wake-up is foreign.
__attribute__((noinline)) void loop_sigwait_full_set() {
  after_blocked_work("sigwait_full_set", [] {
    arm_wake();
    int sig = 0, foreign = 0;
    while (true) {
      const int r = sigwait(&all_signals, &sig);
      if (r != 0) {
        errno = r;
        check(false, "sigwait");
        break;
      }
      if (sig == SIGUSR1) break;
      foreign = 1;
      took_foreign(sig);
    }
    return foreign;
  });
}

__attribute__((noinline)) void loop_sigwaitinfo_full_set() {
  after_blocked_work("sigwaitinfo_full_set", [] {
    arm_wake();
    int foreign = 0;
    siginfo_t si;
    int sig;
    while ((sig = sigwaitinfo(&all_signals, &si)) != SIGUSR1) {
      if (sig < 0) {
        check(errno == EINTR, "sigwaitinfo");
        continue;
      }
      foreign = 1;
      took_foreign(sig);
    }
    return foreign;
  });
}

// With a 50 us timeout: normally EAGAIN.
__attribute__((noinline)) void loop_sigtimedwait_full_set() {
  after_blocked_work("sigtimedwait_full_set", [] {
    siginfo_t si;
    const timespec t{0, 50000};
    const int sig = sigtimedwait(&all_signals, &si, &t);
    int e = 0;
    if (sig < 0) {
      tally(errno, e, "sigtimedwait", EAGAIN);
      return e;
    }
    took_foreign(sig);
    return 1;
  });
}

// A signalfd for every signal, read until the wake-up arrives.
__attribute__((noinline)) void loop_signalfd_full_set() {
  static int fd = -1;
  fd = signalfd(-1, &all_signals, SFD_CLOEXEC);
  check(fd >= 0, "signalfd");
  after_blocked_work("signalfd_full_set", [] {
    arm_wake();
    int foreign = 0;
    signalfd_siginfo si;
    while (true) {
      const ssize_t r = read(fd, &si, sizeof si);
      if (r != ssize_t(sizeof si)) {
        check(false, "read of the signalfd");
        break;
      }
      if (si.ssi_signo == SIGUSR1) break;
      foreign = 1;
      took_foreign(int(si.ssi_signo));
    }
    return foreign;
  });
  close(fd);
}

// A thread that keeps every signal blocked and lets them in only while it
// waits: the signal's only way in is ppoll's mask. hcc withholds its sample
// there too, and lets it in just before the wait instead, so this loop is
// sampled like the others (without that, its first pending sample would be
// its last: a pending timer signal is not queued again).
__attribute__((noinline)) void loop_ppoll_signals_always_blocked() {
  sigset_t old;
  pthread_sigmask(SIG_BLOCK, &all_signals, &old);
  int e = 0;
  for (int i = 0; i < CALLS; ++i) {
    spin();
    e += ppoll_once("ppoll");
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  report("ppoll_signals_always_blocked", e);
}


int main(int argc, char **argv) {
  sigfillset(&all_signals);
  sigemptyset(&no_signals);
  make_wake_timer();
  control = argc > 1 && std::strcmp(argv[1], "--control-timer") == 0;
  if (control) arm_control_timer();
  if (pipe(never_ready) != 0) return 2;
  last_report_s = wall_s();
  loop_nanosleep();
  loop_clock_nanosleep();
  loop_usleep();
  loop_poll();
  loop_select();
  loop_epoll_wait();
  loop_sem_timedwait();
  loop_pthread_cond_timedwait();
  loop_sleep_for();
  loop_pipe_read();
  loop_waitpid();
  loop_ppoll_after_blocked_work();
  loop_raw_ppoll_after_blocked_work();
  loop_pselect_after_blocked_work();
  loop_epoll_pwait_after_blocked_work();
#if __GLIBC_PREREQ(2, 35)
  loop_epoll_pwait2_after_blocked_work();
#endif
  loop_sigsuspend_after_blocked_work();
  loop_sigwait_full_set();
  loop_sigwaitinfo_full_set();
  loop_sigtimedwait_full_set();
  loop_signalfd_full_set();
  loop_ppoll_signals_always_blocked();
  return fail;
}
