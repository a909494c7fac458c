/* Detached tasks: each completes when its event is fulfilled by another
 * task, with and without a taskwait before the region's end. */
#include <omp.h>
#include <stdio.h>
int main(void) {
  int done = 0, waited = 0;
#pragma omp parallel shared(done) // [no taskwait]
  {
#pragma omp single
    for (int i = 0; i < 8; ++i) {
      omp_event_handle_t ev;
#pragma omp task detach(ev) shared(done)
      {
#pragma omp atomic
        done++;
      }
#pragma omp task firstprivate(ev)
      omp_fulfill_event(ev);
    }
  }
#pragma omp parallel for shared(waited) // [taskwait]
  for (int i = 0; i < 8; ++i) {
    omp_event_handle_t ev;
#pragma omp task detach(ev) shared(waited)
    {
#pragma omp atomic
      waited++;
    }
    omp_fulfill_event(ev);
#pragma omp taskwait
  }
  printf("detached tasks done: %d and %d\n", done, waited);
  return 0;
}
