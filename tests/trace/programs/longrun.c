/* Calls work() in a loop while snapshots are taken (HCC_SNAPSHOT) and
 * watched (hcc-report --watch). With LONGRUN_STOP=FILE it runs until that
 * file exists, which the test creates once it has seen what it waits for
 * (issue 29: a test waits for events, not for a span of wall time that a
 * busy machine can outlast); then it makes one more round of calls, so the
 * final profile counts calls made after anything the test read, and prints
 * its number of calls on stderr. No stop file within 120 s: status 3.
 * Without LONGRUN_STOP it runs for 4 s of wall time. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define ROUND 1000 /* calls of work() between two looks for the stop file */

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
  const char *stop = getenv("LONGRUN_STOP");
  const double start = now(), limit = stop ? 120.0 : 4.0;
  long calls = 0;
  int stopped = 0;
  while (!stopped) {
    for (int i = 0; i < ROUND; ++i) work();
    calls += ROUND;
    if (now() - start > limit) {
      if (stop) {
        fprintf(stderr, "longrun: no %s after %.0f s (%ld calls)\n", stop, limit, calls);
        return 3;
      }
      stopped = 1;
    }
    if (stop && access(stop, F_OK) == 0) {
      for (int i = 0; i < ROUND; ++i) work();
      calls += ROUND;
      stopped = 1;
    }
  }
  if (stop) fprintf(stderr, "longrun: %ld calls\n", calls);
  printf("done: %s\n", calls > 0 ? "yes" : "no");
  return 0;
}
