/* Fürlinger & Moore, version A: foo and bar alternate in one loop. */
#include <stdio.h>

static volatile int sink;
void foo(void) { sink += 1; }
void bar(void) { sink += 2; }

int main(void) {
  for (int i = 0; i < 20; ++i) {
    foo();
    bar();
  }
  printf("sink=%d\n", sink);
  return 0;
}
