/* Instrumented (built through hcc): main -> work -> spin_outer/spin_direct
 * (uninstrumented, spin.c), main -> busy (instrumented, burns CPU itself),
 * main -> work -> spin_nocfi (no unwind information, nocfi.S). Prints the
 * wall and CPU time of each part to stderr; stdout is the same on every run. */
#include <stdio.h>
#include <stdlib.h>

double spin_outer(long n);
double spin_direct(long n);
double wall_seconds(void);
double cpu_seconds(void);
void spin_nocfi(long n);

static long scale(void) {
  const char *s = getenv("SPIN_SCALE");
  return s ? atol(s) : 1;
}

double busy(long n) {
  double x = 0;
  for (long i = 0; i < n; ++i) x += (double)(i % 5) * 0.125;
  return x;
}

void work(long n) {
  double c0 = cpu_seconds(), t0 = wall_seconds();
  double a = spin_outer(n);
  double c1 = cpu_seconds(), t1 = wall_seconds();
  double b = spin_direct(n / 2);
  double c2 = cpu_seconds(), t2 = wall_seconds();
  spin_nocfi(n * 4);
  double c3 = cpu_seconds(), t3 = wall_seconds();
  fprintf(stderr, "spin_outer %.6f spin_direct %.6f spin_nocfi %.6f\n", t1 - t0, t2 - t1, t3 - t2);
  fprintf(stderr, "cpu_outer %.6f cpu_direct %.6f cpu_nocfi %.6f cpu_spins %.6f\n", c1 - c0, c2 - c1, c3 - c2, c3 - c0);
  printf("work %s\n", a > 0 && b > 0 ? "ok" : "bad");
}

int main(void) {
  const long n = 150000000L * scale();
  double t0 = wall_seconds();
  work(n);
  double t1 = wall_seconds();
  double x = busy(n);
  double t2 = wall_seconds();
  fprintf(stderr, "work %.6f busy %.6f\n", t1 - t0, t2 - t1);
  printf("busy %s\n", x > 0 ? "ok" : "bad");
  return 0;
}
