#include "config.h"
#include <math.h>
#include <stdio.h>
static double half_turn(void) { return cos(0.0) * 180.0; }
int main(void) {
#if defined(HAVE_MATH_H) && defined(HAVE_STRDUP) && !defined(HAVE_NO_SUCH_FUNCTION_XYZ)
  printf("sizeof(long)=%d half_turn=%.1f\n", SIZEOF_LONG, half_turn());
  return 0;
#else
  return 1;
#endif
}
