/* Every construct the OpenMP rewriter handles, with results that do not
 * depend on the team size or the schedule (compared with a plain build). */
#include <stdio.h>

#define N 64

static int calls;
static double work(int i) {
  double x = 0.0;
  for (int k = 0; k < (i + 1) * 3000; k++) x += (double)(k % 5);
  return x;
}
void leaf(void) { }
void in_task(void) { }
/* Atomic: the two sections may run at once on two threads, and a plain
 * increment then loses one (sec=1 seen under load, in the plain build too). */
void in_section(int *v) { __atomic_fetch_add(v, 1, __ATOMIC_RELAXED); }
void in_group_task(void) { }
void in_taskloop(void) { }

int main(void) {
  double sum = 0.0;
  int crit = 0, single_runs = 0, master_runs = 0, sec = 0, atom = 0, tasks = 0;
  int masked_runs = 0, pmaster_runs = 0, group_tasks = 0, loop_tasks = 0;
  int nt = 4;
#pragma omp parallel num_threads(nt) default(shared)
  {
    leaf();
#pragma omp for schedule(static) reduction(+:sum)
    for (int i = 0; i < N; i++) sum += work(i);
#pragma omp critical
    crit++;
#pragma omp single
    single_runs++;
#pragma omp master
    master_runs++;
#pragma omp masked filter(1)
    masked_runs++;
#pragma omp atomic
    atom += 2;
#pragma omp barrier
#pragma omp sections
    {
#pragma omp section
      in_section(&sec);
#pragma omp section
      in_section(&sec);
    }
#pragma omp single nowait
    {
      for (int t = 0; t < 8; t++) {
#pragma omp task shared(tasks)
        {
          in_task();
#pragma omp atomic
          tasks++;
        }
      }
#pragma omp taskwait
#pragma omp taskgroup
      {
        for (int t = 0; t < 4; t++) {
#pragma omp task shared(group_tasks)
          {
            in_group_task();
#pragma omp atomic
            group_tasks++;
          }
        }
      }
#pragma omp taskloop grainsize(4) shared(loop_tasks)
      for (int i = 0; i < 16; i++) {
        in_taskloop();
#pragma omp atomic
        loop_tasks++;
      }
    }
  }
#pragma omp parallel master num_threads(nt) shared(pmaster_runs)
  pmaster_runs++;
#pragma omp parallel for num_threads(nt) reduction(+:calls)
  for (int i = 0; i < N; i++) { leaf(); calls++; }
  printf("sum=%.0f crit>0=%d single=%d master=%d sec=%d atomic>0=%d tasks=%d calls=%d\n", sum,
         crit > 0, single_runs, master_runs, sec, atom > 0, tasks, calls);
  printf("masked=%d parallel master=%d taskgroup tasks=%d taskloop iterations=%d\n", masked_runs,
         pmaster_runs, group_tasks, loop_tasks);
  return 0;
}
