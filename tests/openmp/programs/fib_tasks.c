/* Task-parallel Fibonacci: every call above the cutoff makes two tasks and
 * waits for them, so tasks run inside other tasks' taskwaits on whatever
 * thread picks them up. Without recursion folding every task instance got
 * its own call path; folded, the tree stays a handful of paths. */
#include <stdio.h>
#include <stdlib.h>

long fib(int n) {
  if (n < 2) return n;
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 25;
  long r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(n);
  printf("fib(%d) = %ld\n", n, r);
  return 0;
}
