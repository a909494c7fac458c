/* Compiled by `hcc -c`, linked by a plain compiler (plain_link.sh). */
#include <setjmp.h>

int square(int x) { return x * x; }

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static jmp_buf env;

static void jumper(int depth) {
  if (depth == 0) longjmp(env, 7);
  jumper(depth - 1);
}

/* Returns what longjmp delivered: the program's result must not change. */
int jump_back(void) {
  int v = setjmp(env);
  if (v == 0) jumper(3);
  return v;
}
