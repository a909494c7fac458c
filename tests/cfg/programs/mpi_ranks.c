/* Control flow over MPI ranks: rank r runs foo(); bar(); 4 + r times, then a
   barrier; the merged lists keep every rank's counts on its own location. */
#include <mpi.h>
#include <stdio.h>

static volatile int sink;
void foo(void) { sink += 1; }
void bar(void) { sink += 2; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 4 + rank; ++i) {
    foo();
    bar();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("done\n");
  MPI_Finalize();
  return 0;
}
