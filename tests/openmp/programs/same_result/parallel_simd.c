/* `parallel` whose statement is `simd` (left as written): the region is
 * measured and the file keeps its instrumentation. Each of the two threads
 * sums the whole range. */
#include <stdio.h>
int main(void) {
  long s = 0;
#pragma omp parallel num_threads(2) reduction(+: s) // [parallel]
#pragma omp simd reduction(+: s)
  for (int i = 0; i < 256; ++i) s += i * 3;
  printf("sum %ld\n", s);
  return 0;
}
