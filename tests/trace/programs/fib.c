/* fib(20) makes 21891 calls of fib: the trace must hold every one of them. */
#include <stdio.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(void) {
  printf("fib(20) = %d\n", fib(20));
  return 0;
}
