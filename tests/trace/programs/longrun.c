/* Runs for about 4 seconds calling work() in a loop: long enough to take
 * several snapshots (HCC_SNAPSHOT) and to watch (hcc-report --watch). */
#include <stdio.h>
#include <time.h>
static volatile double sink;
static void work(void) {
  for (int i = 0; i < 2000; ++i) sink += i * 0.5;
}
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
int main(void) {
  double end = now() + 4.0;
  long calls = 0;
  while (now() < end) {
    work();
    ++calls;
  }
  printf("done: %s\n", calls > 0 ? "yes" : "no");
  return 0;
}
