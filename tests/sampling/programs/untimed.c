// Functions hcc does not time, each with a known share of the CPU
// (sampling_e2e_test.cpp, UntimedFunctionsGetTheTimeOfTheirSamples): all
// called by `caller`, which is timed, in three phases whose thread CPU time
// the program measures itself (printed to stderr):
//   own      caller's own loop;
//   counted  calls of counted_work (built as counted: visits, no clock);
//   tiny     calls of tiny, cheap and frequent, so the default throttling
//            stops timing it after a short nap that gives the deciding
//            thread its turn; about 100 ns of work a call, so the hooks'
//            own cost (measurement_cpu, not tiny's time) is a small part
//            of the phase the program measures.
// The profile must give counted_work and tiny the CPU time of their phases
// (their samples), and caller keep its own. Prints a checksum on stdout.
#include <stdio.h>
#include <time.h>

static volatile unsigned sink;

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

unsigned counted_work(unsigned x) {
  for (int i = 0; i < 200000; ++i) x = x * 1664525u + 1013904223u + (unsigned)i;
  return x;
}

unsigned tiny(unsigned x) {
  for (int i = 0; i < 100; ++i) x = x * 2654435761u + (unsigned)i;
  return x;
}

static void nap(void) {
  for (int i = 0; i < 200; ++i) {
    struct timespec t = {0, 1000000L};
    nanosleep(&t, NULL);
  }
}

unsigned caller(unsigned s) {
  // Warm-up: tiny past the throttling's 100 000 visits, then the nap.
  for (int i = 0; i < 150000; ++i) s = tiny(s);
  nap();
  double t0 = cpu_now();
  for (long i = 0; i < 300000000L; ++i) s = s * 22695477u + 1u;
  double t1 = cpu_now();
  for (int i = 0; i < 1500; ++i) s = counted_work(s);
  double t2 = cpu_now();
  for (int i = 0; i < 4000000; ++i) s = tiny(s);
  double t3 = cpu_now();
  fprintf(stderr, "cpu_own %.6f\ncpu_counted %.6f\ncpu_tiny %.6f\n", t1 - t0, t2 - t1, t3 - t2);
  return s;
}

int main(void) {
  sink = caller(1);
  printf("done\n");
  return 0;
}
