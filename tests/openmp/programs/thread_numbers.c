// Location numbering (runtime/core/thread_state.hpp): the threads of the
// outermost OpenMP team are locations 0..N-1 by omp_get_thread_num(), every
// other thread comes after them in start order.
//  - A pthread runs instrumented code before any team exists: by start order
//    it would be location 1; it must be location 4 (the first non-team one).
//  - Thread k of the team calls tick() k + 1 times per region, 3 regions.
//  - A second outermost region forks nested teams of 2: their workers (4 with
//    libgomp, libomp may reuse one) are not threads of the outermost team
//    and come after the pthread.
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

int tick(int k) { return 2 * k + 1; }
int nested_tick(int k) { return k + 7; }
int helper_work(void) { return 42; }

static void *helper_thread(void *out) {
  *(int *)out = helper_work();
  return NULL;
}

int main(void) {
  pthread_t t;
  int h = 0;
  if (pthread_create(&t, NULL, helper_thread, &h) != 0) return 1;
  pthread_join(t, NULL);

  long sum = 0;
  for (int rep = 0; rep < 3; ++rep) {
#pragma omp parallel num_threads(4) reduction(+ : sum)
    {
      int k = omp_get_thread_num();
      for (int i = 0; i <= k; ++i) sum += tick(k);
    }
  }

  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(4) reduction(+ : sum)
  {
#pragma omp parallel num_threads(2) reduction(+ : sum)
    sum += nested_tick(omp_get_thread_num());
  }
  printf("sum %ld helper %d\n", sum, h);
  return 0;
}
