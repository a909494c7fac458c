/* HCC_TRACE_SELECT=callsvia: the 50 calls of `nothing` made through
 * `callsvia` are traced; the one made from main and fib's 21891 are not
 * (the profile still counts them all). */
#include <stdio.h>
static volatile int sink;
static void nothing(void) { sink++; }
static void callsvia(void) {
  for (int i = 0; i < 50; ++i) nothing();
}
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(void) {
  callsvia();
  nothing();
  printf("fib(20) = %d, sink = %d\n", fib(20), sink);
  return 0;
}
