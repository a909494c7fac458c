/* `task` whose statement is `target` (left as written; runs on the host
 * here): the task is measured and the file keeps its instrumentation. */
#include <stdio.h>
int main(void) {
  int s = 1;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task shared(s) // [task]
#pragma omp target map(tofrom: s)
    s += 41;
  }
  printf("s %d\n", s);
  return 0;
}
