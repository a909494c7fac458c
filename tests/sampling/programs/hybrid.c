/* Instrumented (built through hcc): main -> work -> spin_outer/spin_direct
 * (uninstrumented, spin.c), main -> busy (instrumented, burns CPU itself),
 * main -> work -> spin_calls -> spin_nocfi (no unwind information, nocfi.S).
 * Each part of work burns a set amount of its thread's CPU time (spin.c):
 * 0.4 s, 0.2 s and 0.2 s, 100, 50 and 50 samples at HZ 250 when the run is
 * unpreempted (one per tick), as the test runs it. Prints
 * the wall and CPU time of each part to stderr; stdout is the same on every
 * run. */
#include <stdio.h>

double spin_outer(double cpu);
double spin_direct(double cpu);
void spin_calls(void (*f)(long), long n, double cpu);
double wall_seconds(void);
double cpu_seconds(void);
void spin_nocfi(long n);

/* busy() reads no clock (a sample in the clock's system call would be a
 * sampled frame above it): a fixed number of iterations, 0.55 s of CPU on
 * the 2-core VM. */
#define BUSY_ITERATIONS 150000000L

double busy(long n) {
  double x = 0;
  for (long i = 0; i < n; ++i) x += (double)(i % 5) * 0.125;
  return x;
}

void work(void) {
  double c0 = cpu_seconds(), t0 = wall_seconds();
  double a = spin_outer(0.4);
  double c1 = cpu_seconds(), t1 = wall_seconds();
  double b = spin_direct(0.2);
  double c2 = cpu_seconds(), t2 = wall_seconds();
  spin_calls(spin_nocfi, 1L << 22, 0.2);
  double c3 = cpu_seconds(), t3 = wall_seconds();
  fprintf(stderr, "spin_outer %.6f spin_direct %.6f spin_nocfi %.6f\n", t1 - t0, t2 - t1, t3 - t2);
  fprintf(stderr, "cpu_outer %.6f cpu_direct %.6f cpu_nocfi %.6f cpu_spins %.6f\n", c1 - c0, c2 - c1, c3 - c2, c3 - c0);
  printf("work %s\n", a > 0 && b > 0 ? "ok" : "bad");
}

int main(void) {
  double t0 = wall_seconds();
  work();
  double t1 = wall_seconds();
  double x = busy(BUSY_ITERATIONS);
  double t2 = wall_seconds();
  fprintf(stderr, "work %.6f busy %.6f\n", t1 - t0, t2 - t1);
  printf("busy %s\n", x > 0 ? "ok" : "bad");
  return 0;
}
