#include <stdio.h>
#include "ring.h"
#include "parts.c"

int other(void);

int main(void) {
  int i = 0;
  for (int k = 0; k < 10; k++) i = ring_next(i, 4);
  printf("%d %d %d\n", i, part_twice(i), other());
  return 0;
}
