/* Count mode inside an OpenMP parallel region: each of the three threads
 * calls the counted function 100 + 10 * (its thread number) times, so the
 * visits per thread are exact and differ. */
#include <omp.h>
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) int counted_tick(int i) { sink = i; return i & 1; }

__attribute__((noinline)) int team_work(void) {
  int odd = 0;
#pragma omp parallel num_threads(3) reduction(+ : odd)
  {
    const int n = 100 + 10 * omp_get_thread_num();
    for (int i = 0; i < n; ++i) odd += counted_tick(i);
  }
  return odd;
}

int main(void) {
  printf("%d\n", team_work());
  return 0;
}
