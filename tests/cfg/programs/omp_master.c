/* A parallel region whose first loop is followed by a master construct and a
   second loop, run three times: the master's predecessor is the first loop
   (thread 0 only); the second loop's is the master on thread 0 and the first
   loop on the other threads. */
#include <omp.h>
#include <stdio.h>

static double a[400];

int main(void) {
  double sum = 0;
  for (int rep = 0; rep < 3; ++rep) {
#pragma omp parallel
    {
#pragma omp for
      for (int i = 0; i < 400; ++i) a[i] = i * 0.5;
#pragma omp master
      { sum += a[1]; }
#pragma omp for
      for (int i = 0; i < 400; ++i) a[i] += 1.0;
    }
  }
  printf("sum=%.1f a[399]=%.1f\n", sum, a[399]);
  return 0;
}
