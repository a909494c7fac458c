/* gprof_callgraph.c's call graph on every rank of an MPI job, plus one
 * MPI_Allreduce from main (tests/mpi/gprof_mpi_test.cpp). */
#include <mpi.h>
#include <stdio.h>

volatile double sink;

#define WORK 600000L
#define SPIN(n) for (long i = 0; i < (n); ++i) sink += (double)i * 0.5

void leaf(void) { SPIN(WORK / 4); }
void foo(void) { SPIN(2 * WORK); leaf(); }
void bar(void) { SPIN(WORK); leaf(); }
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
