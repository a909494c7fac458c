/* gprof_callgraph.c's call graph on every rank of an MPI job, plus one
 * MPI_Allreduce from main (tests/mpi/gprof_mpi_test.cpp). */
#include <mpi.h>
#include <stdio.h>

#include "../../support/cpu_spin.h"

volatile double sink;

/* Own work per call in the thread's CPU time (tests/support/cpu_spin.h):
 * foo's is exactly twice bar's whatever the core's speed, and bar's 21
 * calls add up to 0.21 s, enough time slices that the waits for a core on a
 * busy machine, which land in whichever function runs, leave the ratio of
 * their wall-clock self times within the test's band. */
#define UNIT 0.01
#define SPIN(units) HCC_SPIN_CPU(__func__, (units) * UNIT, for (long i = 0; i < 65536; ++i) sink += (double)i * 0.5)

void leaf(void) { SPIN(0.25); }
void foo(void) { SPIN(2); leaf(); }
void bar(void) { SPIN(1); leaf(); }
void via(void (*f)(void)) { f(); }
int rec(int n) { return n == 0 ? 0 : 1 + rec(n - 1); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 20; ++i) {
    foo();
    bar();
  }
  via(bar);
  int depth = rec(9), sum = 0;
  MPI_Allreduce(&depth, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("rec sum %d\n", sum);
  MPI_Finalize();
  return 0;
}
