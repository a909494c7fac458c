/* A shared library built from `hcc -c -fPIC` objects by `gcc -shared`: it
 * binds the runtime on its own, and reaches the same one as the program. */
#include <stdio.h>

static void say(int i) { printf("hello %d\n", i); }

int greet(int times) {
  for (int i = 0; i < times; ++i) say(i);
  return times;
}
