/* Findings stand-in, MPI late sender: ROUNDS times rank 0 works LATE
 * seconds, then sends one small message to rank 1, which has posted its
 * receive at once. Rank 1 waits in MPI_Recv ROUNDS * LATE seconds by
 * construction. Run on 2 ranks. */
#include <mpi.h>
#include <stdio.h>

#include "wall_spin.h"

#define ROUNDS 4
#define LATE 0.15

int main(int argc, char **argv) {
  int rank, size, got = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int r = 0; r < ROUNDS; ++r) {
    int msg = r;
    if (rank == 0) {
      wall_spin(LATE);
      MPI_Send(&msg, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
      MPI_Recv(&msg, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      got += msg == r;
    }
  }
  if (rank == 1) printf("received %d of %d\n", got, ROUNDS);
  MPI_Finalize();
  return 0;
}
