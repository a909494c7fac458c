/* hcc-test-flags: -std=c89 -pedantic
 * C89: declarations must come first in a block; the guard is two
 * declarations, so it may go first too. */
#include <stdio.h>

static int counter;

static int bump(step)
    int step;
{
  int old = counter;
  counter += step;
  return old;
}

int main() {
  int i, last = 0;
  for (i = 0; i < 3; ++i) {
    last = bump(i);
  }
  printf("%d\n", last);
  return 0;
}
