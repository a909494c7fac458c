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

// The one way a CPU-time sample can interrupt a blocking call: the thread
// blocks every signal while it works (the sample stays pending), then waits
// in ppoll with a mask that unblocks them, which is what ppoll's mask is for.
// The pending sample is delivered at once and ppoll fails with EINTR.
__attribute__((noinline)) void loop_ppoll_after_blocked_work() {
  sigset_t all, none, old;
  sigfillset(&all);
  sigemptyset(&none);
  int e = 0;
  for (int i = 0; i < CALLS; ++i) {
    pthread_sigmask(SIG_BLOCK, &all, &old);
    spin();
    pollfd p{never_ready[0], POLLIN, 0};
    const timespec t{0, 50000};
    const int r = ppoll(&p, 1, &t, &none);
    if (r < 0) tally(errno, e, "ppoll");
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
  }
  report("ppoll_after_blocked_work", e);
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

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "--control-timer") == 0) arm_control_timer();
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
  return fail;
}
