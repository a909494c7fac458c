/* OpenMP 5.x constructs through hcc: every one that GCC 12 or Clang 19
 * compiles is measured or left as written, and the program prints the same
 * as its plain build whatever the team size. The `[tag]` comments name the
 * lines the test looks up. HCC_TEST_GCC_ONLY: constructs Clang 19 cannot
 * build (scope), builds wrongly (the combined masked taskloop forms run
 * nothing) or cannot parse (flush seq_cst, assume, declare target inside a
 * function). */
#include <stdio.h>

#define N 64

void in_loop(int *a, int i) { a[i] += 1; }
void in_taskloop(int *a, int i) { a[i] += 2; }
int device_one(void) {
#ifdef HCC_TEST_GCC_ONLY
#pragma omp declare target
  static int one = 1;
#pragma omp end declare target
#else
  static int one = 1;
#endif
  return one;
}

int main(void) {
  int a[N] = {0}, m = 0, t = 0, x = 0, y = 5, s = 0, g = 0;
#pragma omp parallel loop  // [parallel loop]
  for (int i = 0; i < N; i++) in_loop(a, i);
#pragma omp parallel
  {
#pragma omp loop  // [loop]
    for (int i = 0; i < N; i++) a[i] += 1;
#ifdef HCC_TEST_GCC_ONLY
#pragma omp scope reduction(+:t)  // [scope]
    t += 1;
#pragma omp masked taskloop grainsize(strict: 8)  // [masked taskloop]
    for (int i = 0; i < N; i++) in_taskloop(a, i);
#pragma omp flush seq_cst  // [flush seq_cst]
#else
#pragma omp atomic
    t += 1;
#pragma omp masked
    for (int i = 0; i < N; i++) in_taskloop(a, i);
#endif
  }
#pragma omp parallel masked filter(0)  // [parallel masked]
  m += 1;
#pragma omp nothing  // [nothing]
#pragma omp error at(execution) severity(warning) message("omp51: error directive reached")  // [error]
#pragma omp atomic compare  // [atomic compare]
  if (x < y) { x = y; }
#pragma omp atomic compare fail(relaxed)  // [atomic compare fail]
  if (x == 5) { x = 6; }
#pragma omp unroll partial(4)  // [unroll partial]
  for (int i = 0; i < N; i++) a[i] += 1;
#pragma omp unroll full  // [unroll full]
  for (int i = 0; i < 4; i++) a[i] += 1;
#pragma omp parallel for default(firstprivate) reduction(+:s)  // [default firstprivate]
  for (int i = 0; i < N; i++) s += a[i];
#pragma omp parallel for order(reproducible: concurrent)  // [order reproducible]
  for (int i = 0; i < N; i++) a[i] -= 1;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop num_tasks(strict: 4)  // [taskloop strict]
  for (int i = 0; i < N; i++) a[i] += 1;
#pragma omp target thread_limit(4) map(tofrom: x)
  x += device_one();
#ifdef HCC_TEST_GCC_ONLY
#pragma omp assume holds(N > 0)
  { g += 1; }
#pragma omp parallel masked taskloop  // [parallel masked taskloop]
  for (int i = 0; i < N; i++) in_taskloop(a, i);
#else
  g += 1;
  for (int i = 0; i < N; i++) in_taskloop(a, i);
#endif
  int sum = 0;
  for (int i = 0; i < N; i++) sum += a[i];
  printf("sum %d s %d x %d m %d g %d t %d\n", sum, s, x, m, g, t);
  return 0;
}
