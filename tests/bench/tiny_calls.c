/* Whole-program overhead: a tiny function that is not inlined, called 10^8
 * times. The plain and the hcc build are timed by whole_program.sh. */
#include <stdio.h>

__attribute__((noinline)) long tiny(long x) { return x ^ (x >> 3); }

int main(void) {
  long s = 0;
  for (long i = 0; i < 100000000L; i++) s += tiny(i);
  printf("%ld\n", s);
  return 0;
}
