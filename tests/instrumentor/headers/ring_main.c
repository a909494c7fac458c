/* hcc-test-flags: -Iinclude -std=c11 */
#include <stdio.h>
#include "ring.h"
#include "parts.c"
#define TABLE_NAME first
#define TABLE_VALUE 1
#include "table.def"
#undef TABLE_NAME
#undef TABLE_VALUE
#define TABLE_NAME second
#define TABLE_VALUE 2
#include "table.def"
#include "once.h"
#include "ring_all.h"
#if __has_include("once.h") && !__has_include("no_such_header.h")
#define HAS_ONCE 1
#endif

int ring_prev(int i, int n);

int main(void) {
  int i = 0;
  for (int k = 0; k < 10; k++) i = ring_next(i, 4);
  printf("%d %d %d %d %d\n", i, part_twice(i), first() + second(), ring_prev(i, RING_LAST(5)),
         once_value() * HAS_ONCE);
  return 0;
}
