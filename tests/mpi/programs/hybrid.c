/* MPI + OpenMP: every rank runs a parallel loop, then the ranks reduce. */
#include <mpi.h>
#include <stdio.h>

double work(int i) {
  double s = 0;
  for (int k = 0; k < 1000 * (i + 1); k++) s += k * 0.5;
  return s;
}

int main(int argc, char **argv) {
  int provided, rank;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double local = 0;
#pragma omp parallel for schedule(static) reduction(+ : local)
  for (int i = 0; i < 8; i++) local += work(i);
  double total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("total %.1f\n", total);
  MPI_Finalize();
  return 0;
}
