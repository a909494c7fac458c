/* hcc-test-compilers: gcc
 * OpenMP that GCC 12 accepts and Clang 19 does not parse: flush seq_cst
 * (the directive is timed, the clause kept as written), assume, a
 * metadirective with a target_device selector and declare target inside a
 * function (left as written, with the statement right after them). The
 * rest of the file is instrumented. */
#include <stdio.h>
static int k(void) {
#pragma omp declare target
  static int one = 1;
#pragma omp end declare target
  return one;
}
int main(void) {
  int x = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp flush seq_cst
#pragma omp atomic
    x++;
  }
#pragma omp assume holds(1 < 2)
  {
#pragma omp parallel for reduction(+:x)
    for (int i = 0; i < 8; i++) x += i;
  }
#pragma omp assume holds(2 > 1)
#pragma omp parallel for reduction(+:x)
  for (int i = 0; i < 8; i++) x += i;
#pragma omp metadirective when(target_device={kind(host)}: parallel num_threads(2)) \
    default(nothing)
  { x += k(); }
  printf("%d\n", x);
  return 0;
}
