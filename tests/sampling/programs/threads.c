/* Two pthreads and an OpenMP team each burn CPU in uninstrumented code
 * (spin.c) below an instrumented function / a parallel region: 0.25 s of
 * each thread's own CPU time, about 60 samples at HZ 250 (25 at HZ 100),
 * however long the threads wait for a core. */
#include <pthread.h>
#include <stdio.h>

double spin_outer(double cpu);

#define CPU_PER_THREAD 0.25

double worker(double cpu) { return spin_outer(cpu); }

static void *thread_main(void *arg) {
  (void)arg;
  worker(CPU_PER_THREAD);
  return NULL;
}

void team(double cpu) {
#pragma omp parallel num_threads(2)
  { spin_outer(cpu); }
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, thread_main, NULL);
  pthread_create(&b, NULL, thread_main, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  team(CPU_PER_THREAD);
  printf("done\n");
  return 0;
}
