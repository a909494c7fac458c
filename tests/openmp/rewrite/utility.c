/* hcc-test-compilers: gcc clang19
 * OpenMP 5.1 utility directives: `error` at execution time is counted, at
 * compile time left alone; `nothing` is timed where a block may stand. */
#include <stdio.h>
int main(void) {
  int x = 1;
#pragma omp nothing
#pragma omp error at(execution) severity(warning) message("hcc rewrite test")
  if (x)
#pragma omp nothing
    x++;
  {
#pragma omp nothing
  }
  printf("%d\n", x);
  return 0;
}
