/* hcc-test-compilers: gcc clang19
 * OpenMP 5.1 clauses on rewritten directives, re-issued as written:
 * atomic compare/fail, default(firstprivate|private) (the split-off loop's
 * reduction variable shared in the parallel part), order modifiers, strict
 * grainsize/num_tasks; target with thread_limit and in_reduction is left
 * as written. A task reduction (5.0) forbids nowait: those loops keep
 * their own barrier. */
#include <stdio.h>
int main(void) {
  int x = 0, y = 5, s = 0, r = 0, t = 0, u = 0, a[64];
  for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp parallel num_threads(2)
  {
#pragma omp atomic compare
    if (x < y) { x = y; }
#pragma omp atomic compare fail(relaxed) seq_cst
    if (x == 5) { x = 6; }
  }
#pragma omp parallel for default(firstprivate) reduction(+:s)
  for (int i = 0; i < 64; i++) s += a[i];
#pragma omp parallel default(private) shared(a)
  {
    int q = 1;
    a[0] += 0 * q;
  }
#pragma omp parallel for order(reproducible: concurrent)
  for (int i = 0; i < 64; i++) a[i] += 1;
#pragma omp parallel
  {
#pragma omp for order(unconstrained: concurrent)
    for (int i = 0; i < 64; i++) a[i] -= 1;
#pragma omp single
    {
#pragma omp taskloop grainsize(strict: 8)
      for (int i = 0; i < 64; i++) a[i] += 1;
#pragma omp taskloop num_tasks(strict: 4)
      for (int i = 0; i < 64; i++) a[i] -= 1;
    }
  }
#pragma omp parallel for reduction(task, +: t)
  for (int i = 0; i < 64; i++) t += a[i];
#pragma omp parallel
  {
#pragma omp for reduction(task, +: u)
    for (int i = 0; i < 64; i++) u += a[i];
  }
#pragma omp taskgroup task_reduction(+:r)
  {
#pragma omp target in_reduction(+:r) map(tofrom: x)
    r += 1;
  }
#pragma omp target thread_limit(4) map(tofrom: x)
  x += 1;
  printf("%d %d %d %d %d %d\n", x, s, r, t, u, a[63]);
  return 0;
}
