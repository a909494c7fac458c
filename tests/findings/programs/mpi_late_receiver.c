/* Findings stand-in, MPI late receiver: ROUNDS times rank 1 works LATE
 * seconds before it posts its receive, while rank 0 sends at once with
 * MPI_Ssend, which returns only once the receive has started. Rank 0 waits
 * ROUNDS * LATE seconds in MPI_Ssend by construction. Run on 2 ranks. */
#include <mpi.h>
#include <stdio.h>

#include "wall_spin.h"

#define ROUNDS 4
#define LATE 0.15

int main(int argc, char **argv) {
  int rank, got = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int r = 0; r < ROUNDS; ++r) {
    int msg = r;
    if (rank == 0) {
      MPI_Ssend(&msg, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
      wall_spin(LATE);
      MPI_Recv(&msg, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      got += msg == r;
    }
  }
  if (rank == 1) printf("received %d of %d\n", got, ROUNDS);
  MPI_Finalize();
  return 0;
}
