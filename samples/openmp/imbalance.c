/* OpenMP sample for hcc: a loop with deliberate load imbalance (iteration i
 * costs i units and the schedule is static, so the last thread gets the
 * most work and the others wait at the loop's implicit barrier) and a
 * critical section every thread hammers (contention: time waiting to enter
 * it shows as the critical's time outside its body).
 *
 *   hcc -fopenmp -O2 imbalance.c -o imbalance     (OpenMP rewriting is on by default)
 *   OMP_NUM_THREADS=4 ./imbalance
 *   hcc-report --tree        # worker threads under main → parallel region
 */
#include <stdio.h>

#define N 400
#define UPDATES 2000

/* Work proportional to i, kept from being optimised away. */
static double work(int i) {
  double x = 0.0;
  for (int k = 0; k < i * 400; k++) x += (double)(k % 7) * 0.5;
  return x;
}

int main(void) {
  double total = 0.0;
  long hits = 0;
#pragma omp parallel
  {
#pragma omp for schedule(static) reduction(+ : total)
    for (int i = 0; i < N; i++) total += work(i);

    for (int u = 0; u < UPDATES; u++) {
#pragma omp critical(counter)
      hits++;
    }
  }
  /* The same with every thread: hits is threads * UPDATES, so print it
   * per thread to keep the output independent of the team size. */
  printf("total = %.1f\n", total);
  printf("hits per thread = %d\n", hits % UPDATES == 0 ? UPDATES : -1);
  return 0;
}
