/* Trace locations by OpenMP thread number: a pthread enters instrumented
 * code before the team exists (second by start order), then OpenMP thread
 * k of a team of 4 calls tick() k + 1 times. The trace's location k must be
 * thread k, the pthread location 4. */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
int tick(int k) { return 2 * k + 1; }
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
#pragma omp parallel num_threads(4) reduction(+ : sum)
  {
    int k = omp_get_thread_num();
    for (int i = 0; i <= k; ++i) sum += tick(k);
  }
  printf("sum %ld helper %d\n", sum, h);
  return 0;
}
