/* Nested parallel regions: an outer team of 2, each member forks an inner
   team of 2 whose members run a loop and then a single construct; twice. */
#include <omp.h>
#include <stdio.h>

static int hits[2][2];

int main(void) {
  omp_set_max_active_levels(2);
  for (int rep = 0; rep < 2; ++rep) {
#pragma omp parallel num_threads(2)
    {
      int outer = omp_get_thread_num();
#pragma omp parallel num_threads(2)
      {
#pragma omp for
        for (int i = 0; i < 2; ++i) hits[outer][i] += 1;
#pragma omp single
        { hits[outer][0] += 10; }
      }
    }
  }
  printf("%d %d %d %d\n", hits[0][0], hits[0][1], hits[1][0], hits[1][1]);
  return 0;
}
