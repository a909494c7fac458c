/* Findings stand-in, allocation in a hot loop: CALLS blocks of 2 to 64 KiB
 * (above the thread cache, below the mmap threshold: malloc's bins do the
 * work) allocated, touched once and freed, after a stretch of computing.
 * The program times its allocating phase on its own CPU clock and prints it
 * on stderr ("allocating: S s"): the allocation finding's cost must match. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CALLS 6000000L

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static double compute(long n) {
  double x = 0;
  for (long i = 0; i < n; ++i) x += (double)(i % 7) * 1e-9;
  return x;
}

static long churn(long calls) {
  long sum = 0;
  char *keep[4] = {0, 0, 0, 0};
  for (long i = 0; i < calls; ++i) {
    char *p = malloc(2048 + (size_t)(i * 7919 % 63) * 1024);
    p[0] = (char)i;
    sum += p[0];
    free(keep[i & 3]);
    keep[i & 3] = p;
  }
  for (int k = 0; k < 4; ++k) free(keep[k]);
  return sum;
}

int main(void) {
  const double x = compute(300000000L);
  const double t0 = cpu_now();
  const long s = churn(CALLS);
  const double t1 = cpu_now();
  fprintf(stderr, "allocating: %.6f s\n", t1 - t0);
  printf("%ld, %d\n", s, x > 0);
  return 0;
}
