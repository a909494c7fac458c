/* MPI with no function measured (run with HCC_EXCLUDE='*'): each rank burns
 * CPU in spin_outer (spin.c, built plainly) between collectives. Sampling
 * must find those frames from main, and the measured MPI time plus the
 * sampled time must make up each rank's time. Rank r burns (r + 1) x 0.05 s
 * of its own CPU time per round (spin.c), 0.2 s or more in all: about 50
 * samples at HZ 250, however long the ranks wait for a core. Prints each
 * rank's time from MPI_Init's return to MPI_Finalize's call on stderr. */
#include <mpi.h>
#include <stdio.h>

double spin_outer(double cpu);
double wall_seconds(void);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double t0 = wall_seconds();
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double sum = 0;
  for (int round = 0; round < 4; ++round) {
    double local = spin_outer(0.05 * (rank + 1)), total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    sum += total;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  fprintf(stderr, "rank %d seconds %.6f\n", rank, wall_seconds() - t0);
  if (rank == 0) printf("sum %s\n", sum > 0 ? "ok" : "bad");
  MPI_Finalize();
  return 0;
}
