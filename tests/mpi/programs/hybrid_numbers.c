/* MPI + OpenMP location numbering: on every rank, OpenMP thread k of the
 * team calls tick() k + 1 times; the merged profile's location of (rank r,
 * thread k) must hold exactly those visits, whatever order the threads
 * started in. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int tick(int k) { return 3 * k + 1; }

int main(int argc, char **argv) {
  int provided, rank;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long local = 0;
  for (int rep = 0; rep < 2; ++rep) {
#pragma omp parallel num_threads(3) reduction(+ : local)
    {
      int k = omp_get_thread_num();
      for (int i = 0; i <= k; ++i) local += tick(k);
    }
  }
  long total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("total %ld\n", total);
  MPI_Finalize();
  return 0;
}
