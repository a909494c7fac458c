/* Findings stand-in, waiting in a collective: ROUNDS times rank r works
 * (r + 1) * UNIT seconds, then the ranks meet in MPI_Allreduce. Rank r waits
 * (size - 1 - r) * UNIT there: ROUNDS * UNIT * size (size - 1) / 2 by
 * construction (2 ranks: 0.6 s), the last rank the late one, in work(). */
#include <mpi.h>
#include <stdio.h>

#include "wall_spin.h"

#define ROUNDS 6
#define UNIT 0.1

static double work(int rank) { return wall_spin((rank + 1) * UNIT); }

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long local = 0, total = 0;
  for (int r = 0; r < ROUNDS; ++r) {
    local += work(rank) > -1;
    MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) printf("total %ld\n", total);
  MPI_Finalize();
  return 0;
}
