/* Compiled WITHOUT hcc: only sampling can see these functions. Each one
 * burns a given amount of the calling thread's CPU time, read on its own
 * clock (CLOCK_THREAD_CPUTIME_ID, the clock the sampling timer runs on), not
 * a number of iterations nor a span of wall time: a test that needs N
 * samples gets the CPU time for them however busy the machine is (issue
 * 29). A thread that has not had that much CPU within SPIN_WALL_LIMIT
 * seconds of wall time ends the program (status 3), saying how much it got.
 * The clock helpers let the program report how long each part took (wall,
 * CPU), to compare with the time sampling gives. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

volatile double spin_sink;

/* Iterations between two looks at the clock (a system call): well under a
 * millisecond, so the overshoot is small and the look costs nothing. */
#define SPIN_CHUNK (1L << 18)
#define SPIN_WALL_LIMIT 60.0

static inline __attribute__((always_inline)) double read_clock(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double wall_seconds(void) { return read_clock(CLOCK_MONOTONIC); }

/* The calling thread's CPU time: what sampling counts (its timer runs on
 * CLOCK_THREAD_CPUTIME_ID), whatever else runs on the machine. */
double cpu_seconds(void) { return read_clock(CLOCK_THREAD_CPUTIME_ID); }

/* Whether the thread has used `cpu` seconds since `cpu0`; past the wall
 * limit since `wall0`, ends the program instead. Inlined: its frame must not
 * sit between the spinning function and the samples taken in it. */
static inline __attribute__((always_inline)) int spun(const char *who, double cpu0, double wall0, double cpu) {
  const double used = read_clock(CLOCK_THREAD_CPUTIME_ID) - cpu0;
  if (used >= cpu) return 1;
  const double waited = read_clock(CLOCK_MONOTONIC) - wall0;
  if (waited > SPIN_WALL_LIMIT) {
    fprintf(stderr, "%s: this thread got %.3f s of CPU in %.1f s of wall time; it needed %.3f s\n", who, used, waited,
            cpu);
    exit(3);
  }
  return 0;
}

__attribute__((noinline)) double spin_inner(double cpu) {
  const double cpu0 = read_clock(CLOCK_THREAD_CPUTIME_ID), wall0 = read_clock(CLOCK_MONOTONIC);
  double x = 0;
  do
    for (long i = 0; i < SPIN_CHUNK; ++i) x += (double)(i & 7) * 0.5;
  while (!spun("spin_inner", cpu0, wall0, cpu));
  spin_sink = x;
  return x;
}

__attribute__((noinline)) double spin_outer(double cpu) { return spin_inner(cpu) + 1.0; }

__attribute__((noinline)) double spin_direct(double cpu) {
  const double cpu0 = read_clock(CLOCK_THREAD_CPUTIME_ID), wall0 = read_clock(CLOCK_MONOTONIC);
  double x = 1;
  do
    for (long i = 0; i < SPIN_CHUNK; ++i) x += (double)(i & 3) * 0.25;
  while (!spun("spin_direct", cpu0, wall0, cpu));
  spin_sink = x;
  return x;
}

/* Calls f(n) until the thread has used `cpu` seconds: for code that cannot
 * read the clock itself (nocfi.S). */
__attribute__((noinline)) void spin_calls(void (*f)(long), long n, double cpu) {
  const double cpu0 = read_clock(CLOCK_THREAD_CPUTIME_ID), wall0 = read_clock(CLOCK_MONOTONIC);
  do f(n);
  while (!spun("spin_calls", cpu0, wall0, cpu));
}
