/* Findings stand-in, many small messages: rank 0 sends MESSAGES messages of
 * one int to rank 1, one by one, each received at once. The finding counts
 * them exactly (MESSAGES, 4 bytes each on average). Run on 2 ranks. */
#include <mpi.h>
#include <stdio.h>

#define MESSAGES 50000

int main(int argc, char **argv) {
  int rank, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < MESSAGES; ++i) {
    int v = i & 7;
    if (rank == 0) MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1) {
      MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += v;
    }
  }
  if (rank == 1) printf("sum %d\n", sum);
  MPI_Finalize();
  return 0;
}
