// flush with a list (`flush(x)`, as the OpenMP validation suite writes it
// with variables named release/acquire) and with a memory-order clause:
// each one measured (POMP2 flush enter/exit), its argument kept.
#include <omp.h>
#include <stdio.h>

static int release = 0, acquire = 0;

int main(void) {
  int data = 0, seen[64] = {0}, n = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) {
      data = 42;
#pragma omp flush(data) // [flush data]
      release = 1;
#pragma omp flush (release) // [flush release]
      n = omp_get_num_threads();
    }
#pragma omp barrier
#pragma omp flush(acquire, data) // [flush acquire data]
    seen[omp_get_thread_num() % 64] = data + release + acquire;
#pragma omp flush acq_rel // [flush acq_rel]
  }
  int sum = 0;
  for (int i = 0; i < 64; ++i) sum += seen[i];
  printf("threads %d, sum %d\n", n, sum);
  return 0;
}
