/* A recursion shaped like a path tracer's: shade() and bounce() call each
 * other down to depth 10, shade() splits in two near the top (as glass does
 * in a renderer), and both call a small helper at every level. Unfolded,
 * every level would be new call paths; hcc folds the recursion, so the tree
 * is main -> shade -> {mix, bounce -> absorb}. */
#include <stdio.h>

static double mix(double a, double b) { return 0.5 * a + 0.25 * b; }
static double absorb(double x) { return x * 0.9; }

double shade(int depth, double x);

double bounce(int depth, double x) {
  x = absorb(x);
  return depth >= 10 ? x : shade(depth + 1, x);
}

double shade(int depth, double x) {
  x = mix(x, depth);
  if (depth < 3) return bounce(depth, x) + bounce(depth, x + 1);
  return bounce(depth, x);
}

int main(void) {
  double sum = 0;
  for (int i = 0; i < 100; ++i) sum += shade(1, i);
  printf("sum = %.6f\n", sum);
  return 0;
}
