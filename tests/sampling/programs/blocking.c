/* Instrumented (built through hcc): main -> rounds, which in each round
 * sorts (sort_block, uninstrumented, sortwork.c: only sampling sees it) and
 * then blocks 3 ms in poll(). The program measures the CPU time of its own
 * sort_block calls (the thread's CPU clock around each) and the wall time
 * it spent in poll(), and prints both to stderr: sampled time must match
 * the first, and the blocked time must stay with rounds. It runs until the
 * sorts have used SORT_CPU seconds of CPU (an amount of work, not of wall
 * time), so a busy machine gets the same number of samples. */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

long sort_block(int *v, int n, unsigned seed);

#define SORT_CPU 0.6
#define BLOCK_N 40000

static double clock_s(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

long rounds(int *v) {
  double cpu_sort = 0, wall_poll = 0;
  long sum = 0, k = 0;
  while (cpu_sort < SORT_CPU) {
    const double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
    sum += sort_block(v, BLOCK_N, (unsigned)k);
    const double c1 = clock_s(CLOCK_THREAD_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
    poll(NULL, 0, 3);
    wall_poll += clock_s(CLOCK_MONOTONIC) - w0;
    cpu_sort += c1 - c0;
    ++k;
  }
  fprintf(stderr, "rounds %ld cpu_sort %.6f wall_poll %.6f\n", k, cpu_sort, wall_poll);
  return sum;
}

int main(void) {
  int *v = malloc(sizeof(int) * BLOCK_N);
  if (!v) return 1;
  const long s = rounds(v);
  printf("sorted %s\n", s != 0 ? "ok" : "bad");
  free(v);
  return 0;
}
