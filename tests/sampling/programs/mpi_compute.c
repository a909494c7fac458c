/* MPI with no function measured (run with HCC_EXCLUDE='*'): each rank burns
 * CPU in spin_outer (spin.c, built plainly) between collectives. Sampling
 * must find those frames from main, and the measured MPI time plus the
 * sampled time must make up each rank's time. Prints each rank's time from
 * MPI_Init's return to MPI_Finalize's call on stderr. */
#include <mpi.h>
#include <stdio.h>

double spin_outer(long n);
double wall_seconds(void);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double t0 = wall_seconds();
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double sum = 0;
  for (int round = 0; round < 4; ++round) {
    double local = spin_outer(20000000L * (rank + 1)), total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    sum += total;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  fprintf(stderr, "rank %d seconds %.6f\n", rank, wall_seconds() - t0);
  if (rank == 0) printf("sum %s\n", sum > 0 ? "ok" : "bad");
  MPI_Finalize();
  return 0;
}
