/* Fürlinger & Moore, version B: all foo calls, then all bar calls. */
#include <stdio.h>

static volatile int sink;
void foo(void) { sink += 1; }
void bar(void) { sink += 2; }

int main(void) {
  for (int i = 0; i < 20; ++i) foo();
  for (int i = 0; i < 20; ++i) bar();
  printf("sink=%d\n", sink);
  return 0;
}
