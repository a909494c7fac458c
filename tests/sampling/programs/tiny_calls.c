/* Mostly hcc's own work: an instrumented one-line function called in a tight
 * loop (built with --hcc-functions=all), so many samples land inside the
 * runtime's enter/exit. */
#include <stdio.h>

__attribute__((noinline)) int tiny(int x) { return x * 3 + 1; }

int loop(long n) {
  int acc = 0;
  for (long i = 0; i < n; ++i) acc ^= tiny((int)i);
  return acc;
}

int main(void) {
  printf("%d\n", loop(40000000L));
  return 0;
}
