/* hcc-test-compilers: gcc clang19
 * What must not be split, given nowait or a barrier: inscan reductions
 * (kept whole, timed around), clauses from a macro, a directive left as
 * written as another's statement (re-issued as _Pragma), cancel inside a
 * loop and detached tasks (no barrier the program did not have). */
#include <omp.h>
#define FOR_CLAUSE nowait
#define PAR_CLAUSES num_threads(2) schedule(static)
void prefix(const int *a, int *b, int n) {
  int x = 0;
#pragma omp parallel for reduction(inscan, +: x)
  for (int i = 0; i < n; ++i) {
    x += a[i];
#pragma omp scan inclusive(x)
    b[i] = x;
  }
}
void shapes(int *a, int n) {
#pragma omp parallel num_threads(2)
#pragma omp simd \
    safelen(8)
  for (int i = 0; i < n; ++i) a[i] = i;
#pragma omp parallel
  {
#pragma omp for FOR_CLAUSE
    for (int i = 0; i < n; ++i) a[i]++;
#pragma omp for
    for (int i = 0; i < n; ++i) {
      if (a[i] < 0) {
#pragma omp cancel for
      }
      a[i]++;
    }
#pragma omp single
#pragma omp task
#pragma omp target map(tofrom: a[0:1])
    a[0]++;
  }
#pragma omp parallel for PAR_CLAUSES
  for (int i = 0; i < n; ++i) a[i]--;
}
int detached(void) {
  int done = 0;
#pragma omp parallel shared(done)
  {
    omp_event_handle_t ev;
#pragma omp task detach(ev) shared(done)
    {
#pragma omp atomic
      done++;
    }
    omp_fulfill_event(ev);
  }
  return done;
}
