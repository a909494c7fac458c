/* Fürlinger & Moore, Fig. 4: A(); B(); C(); five times; A calls X and Y, C calls Z. */
#include <stdio.h>

static volatile int sink;
void X(void) { sink += 1; }
void Y(void) { sink += 2; }
void Z(void) { sink += 3; }
void A(void) { X(); Y(); }
void B(void) { sink += 4; }
void C(void) { Z(); }

int main(void) {
  for (int i = 0; i < 5; ++i) {
    A();
    B();
    C();
  }
  printf("sink=%d\n", sink);
  return 0;
}
