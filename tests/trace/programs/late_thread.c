/* main computes fib(12) (465 calls), waits half a second, then a thread
 * computes fib(15) (1973 calls): with a small HCC_TRACE_BUFFER the thread's
 * first flush (its spill file) comes well after main's (the spill directory). */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static void *worker(void *arg) {
  *(int *)arg = fib(15);
  return NULL;
}
int main(void) {
  int m = fib(12), r = 0;
  struct timespec half = {0, 500000000L};
  nanosleep(&half, NULL);
  pthread_t t;
  pthread_create(&t, NULL, worker, &r);
  pthread_join(t, NULL);
  printf("%d %d\n", m, r);
  return 0;
}
