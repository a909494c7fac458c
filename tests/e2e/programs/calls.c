/* Control flow that must not disturb attribution: recursion, early returns
 * in loops, a return hidden in a macro, calls through a function pointer and
 * a variadic function. Expected visits are asserted by the e2e test. */
#include <stdarg.h>
#include <stdio.h>

#define RETURN_IF_NEGATIVE(x) \
  do {                        \
    if ((x) < 0) return -1;   \
  } while (0)

int fib(int n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

/* Leaves the loop through `return` on the first multiple of 7. */
int first_multiple_of_seven(int from) {
  for (int i = from;; i++) {
    if (i % 7 == 0) return i;
  }
}

int checked_square(int x) {
  RETURN_IF_NEGATIVE(x);
  return x * x;
}

void nothing(void) {}

void callsvia(void (*fp)(void)) { fp(); }

int sum_ints(int count, ...) {
  va_list ap;
  int total = 0;
  va_start(ap, count);
  for (int i = 0; i < count; i++) total += va_arg(ap, int);
  va_end(ap);
  return total;
}

int main(void) {
  printf("fib(20) = %d\n", fib(20));
  int s = 0;
  for (int i = 1; i <= 10; i++) s += first_multiple_of_seven(i);
  printf("multiples = %d\n", s);
  printf("squares = %d %d\n", checked_square(-3), checked_square(4));
  callsvia(nothing);
  printf("sum = %d\n", sum_ints(4, 1, 2, 3, 4));
  return 0;
}
