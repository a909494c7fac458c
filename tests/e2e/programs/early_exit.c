/* exit(3) from two calls deep: the status is kept and the profile written. */
#include <stdio.h>
#include <stdlib.h>

void level2(int code) {
  printf("leaving with %d\n", code);
  fflush(stdout);
  exit(code);
}

void level1(int code) { level2(code); }

int main(void) {
  level1(3);
  return 0;
}
