#include <stdio.h>

int square(int x);
int fib(int n);
int jump_back(void);
int greet(int times); /* libgreet.so */

int main(void) {
  int s = 0;
  for (int i = 0; i < 10; ++i) s += square(i);
  printf("squares=%d fib(10)=%d jump=%d\n", s, fib(10), jump_back());
  printf("greeted %d\n", greet(3));
  return 0;
}
