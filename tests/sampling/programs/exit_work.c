/* Work after main returns: main (instrumented) registers an exit handler
 * (exit_spin.c, not instrumented) that burns 0.1 s of CPU, so samples land
 * in exit's handlers with no instrumented frame and no main on the stack.
 * Their path must end at `exit`, not at libc's start-up frames. */
#include <stdio.h>

void register_exit_work(void);

int main(void) {
  register_exit_work();
  printf("main done\n");
  return 0;
}
