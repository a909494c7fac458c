/* Nesting: a directive as another's statement, orphaned worksharing, nested
 * parallel regions, ordered, untied tasks, collapse, an empty region,
 * atomic capture. */
#include <stdio.h>
#include <omp.h>
static int total;
static void orphan(void) {
#pragma omp single
  total += 100;
#pragma omp for
  for (int i = 0; i < 8; i++) {
#pragma omp atomic
    total++;
  }
}
int main(void) {
  int out[16], k = 0, v = 0;
#pragma omp parallel for ordered schedule(dynamic, 1)
  for (int i = 0; i < 16; i++) {
#pragma omp ordered
    out[k++] = i;
  }
#pragma omp parallel
  orphan();
  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
  {
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      v++;
    }
  }
#pragma omp parallel
#pragma omp single
  {
#pragma omp task untied
    {
#pragma omp atomic
      v += 10;
    }
  }
  int c2 = 0;
#pragma omp parallel for collapse(2) reduction(+:c2)
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) c2++;
#pragma omp parallel
  ;
  int cap;
#pragma omp atomic capture
  cap = v++;
  printf("%d %d %d %d %d %d\n", out[15], k, total > 100, v, c2, cap);
  return 0;
}
