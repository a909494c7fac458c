/* Two pthreads and an OpenMP team each burn CPU in uninstrumented code
 * (spin.c) below an instrumented function / a parallel region. */
#include <pthread.h>
#include <stdio.h>

double spin_outer(long n);

double worker(long n) { return spin_outer(n); }

static void *thread_main(void *arg) {
  worker((long)arg);
  return NULL;
}

void team(long n) {
#pragma omp parallel num_threads(2)
  { spin_outer(n); }
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, thread_main, (void *)60000000L);
  pthread_create(&b, NULL, thread_main, (void *)60000000L);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  team(60000000L);
  printf("done\n");
  return 0;
}
