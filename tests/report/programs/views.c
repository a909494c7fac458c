/* hcc-report's views (folded stacks, diff) on known numbers: fib(20) makes
   21891 calls of fib, `nothing` is called 50 times through a pointer from
   `callsvia`, and `leaf` as often as argv[1] says. */
#include <stdio.h>
#include <stdlib.h>

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int counter;
static void nothing(void) { counter++; }
static void callsvia(void (*volatile f)(void), int n) {
  for (int i = 0; i < n; ++i) f();
}

static volatile long sink;
static void leaf(long i) { sink += i; }

int main(int argc, char **argv) {
  long leaves = argc > 1 ? atol(argv[1]) : 0;
  printf("fib(20) = %ld\n", fib(20));
  callsvia(nothing, 50);
  for (long i = 0; i < leaves; ++i) leaf(i);
  printf("counter %d, sink %ld\n", counter, (long)sink);
  return 0;
}
