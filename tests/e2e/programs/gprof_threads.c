/* The gprof view with threads (tests/e2e/gprof_e2e_test.cpp): two threads
 * each call foo and bar 10 times, main calls foo once after joining them. */
#include <pthread.h>
#include <stdio.h>

volatile double sink;

#define WORK 200000L
#define SPIN(n) for (long i = 0; i < (n); ++i) sink += (double)i * 0.5

void leaf(void) { SPIN(WORK / 4); }
void foo(void) { SPIN(2 * WORK); leaf(); }
void bar(void) { SPIN(WORK); leaf(); }

void *worker(void *arg) {
  for (int i = 0; i < 10; ++i) {
    foo();
    bar();
  }
  return arg;
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
  foo();
  printf("sink %.1f\n", sink);
  return 0;
}
