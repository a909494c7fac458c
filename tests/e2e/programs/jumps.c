/* longjmp across instrumented frames: after the jump, main's own calls must
 * land directly under main again, not under the frames the jump skipped. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;

__attribute__((noinline)) void deep3(int v) { longjmp(env, v); }
__attribute__((noinline)) void deep2(int v) { deep3(v); }
__attribute__((noinline)) void deep1(int v) { deep2(v); }
__attribute__((noinline)) int after_jump(int v) { return v * 10; }

int main(void) {
  volatile int rounds = 0;
  int r = setjmp(env);
  if (r < 3) {
    rounds++;
    deep1(r + 1);
  }
  printf("jumped back with %d after %d rounds\n", r, (int)rounds);
  printf("after = %d\n", after_jump(r));
  return 0;
}
