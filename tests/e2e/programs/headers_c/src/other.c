#include "ring.h"

int other(void) {
  int i = 0;
  for (int k = 0; k < 5; k++) i = ring_next(i, 3);
  return i;
}
