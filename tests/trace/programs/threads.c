/* Two pthreads compute fib(15) (1973 calls each) while main computes
 * fib(12) (465 calls): three locations, each with its own events. */
#include <pthread.h>
#include <stdio.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static void *worker(void *arg) {
  *(int *)arg = fib(15);
  return NULL;
}
int main(void) {
  pthread_t t[2];
  int r[2];
  for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, worker, &r[i]);
  int m = fib(12);
  for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
  printf("%d %d %d\n", r[0], r[1], m);
  return 0;
}
