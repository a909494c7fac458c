/* Findings stand-in, time off the CPU: NAPS sleeps of NAP seconds in
 * wait_for_input() (a blocking call), after a stretch of computing. The
 * time off the CPU is NAPS * NAP by construction. */
#include <stdio.h>
#include <time.h>

#define NAPS 50
#define NAP 0.01

static double compute(long n) {
  double x = 0;
  for (long i = 0; i < n; ++i) x += (double)(i % 7) * 1e-9;
  return x;
}

static void wait_for_input(void) {
  for (int i = 0; i < NAPS; ++i) {
    struct timespec t = {0, (long)(NAP * 1e9)};
    while (nanosleep(&t, &t) != 0) {
    }
  }
}

int main(void) {
  const double x = compute(300000000L);
  wait_for_input();
  printf("%d naps, %d\n", NAPS, x > 0);
  return 0;
}
