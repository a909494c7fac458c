/* The gprof view's reference program (tests/e2e/gprof_e2e_test.cpp): main
 * calls foo and bar 20 times each, both call leaf, via calls bar once
 * through a pointer, rec(9) recurses nine times. foo does twice bar's work
 * in its own body, so its self time is about 40/21 of bar's. */
#include <stdio.h>

volatile double sink;

#define WORK 800000L
#define SPIN(n) for (long i = 0; i < (n); ++i) sink += (double)i * 0.5

void leaf(void) { SPIN(WORK / 4); }
void foo(void) { SPIN(2 * WORK); leaf(); }
void bar(void) { SPIN(WORK); leaf(); }
void via(void (*f)(void)) { f(); }
int rec(int n) { return n == 0 ? 0 : 1 + rec(n - 1); }

int main(void) {
  for (int i = 0; i < 20; ++i) {
    foo();
    bar();
  }
  via(bar);
  printf("rec %d sink %.1f\n", rec(9), sink);
  return 0;
}
