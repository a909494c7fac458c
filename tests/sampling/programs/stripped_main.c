/* Instrumented (built through hcc): main -> work -> stripped_entry, a
 * function of a stripped shared library (stripped_lib.c) that burns 0.2 s
 * of CPU in a helper no symbol names. */
#include <stdio.h>

void stripped_entry(double cpu);

void work(void) { stripped_entry(0.2); }

int main(void) {
  work();
  printf("done\n");
  return 0;
}
