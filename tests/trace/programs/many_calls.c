/* fib(28) makes 1028457 calls of fib: 2.1 million trace events, so writing
 * the archive takes a while (the window the shared-directory tests attack). */
#include <stdio.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(void) {
  printf("fib(28) = %d\n", fib(28));
  return 0;
}
