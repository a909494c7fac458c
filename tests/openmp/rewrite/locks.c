/* omp_*_lock calls in user code: measured through the wrappers, one visit per call. */
#include <stdio.h>
#include <omp.h>
int main(void) {
  omp_lock_t l;
  omp_nest_lock_t nl;
  int c = 0, tries = 0;
  omp_init_lock(&l);
  omp_init_nest_lock(&nl);
#pragma omp parallel num_threads(4) reduction(+:tries)
  {
    for (int i = 0; i < 100; i++) {
      omp_set_lock(&l);
      c++;
      omp_unset_lock(&l);
    }
    while (!omp_test_lock(&l)) tries++;
    omp_unset_lock(&l);
#pragma omp critical
    omp_set_nest_lock(&nl);
    omp_set_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
  }
  omp_destroy_lock(&l);
  omp_destroy_nest_lock(&nl);
  printf("%d\n", c);
  return 0;
}
