/* Ends without MPI_Finalize (mode "exit") or with MPI_Abort from rank 1
 * (mode "abort"): every rank must write its own profile.rank-<r>.cubex and
 * nothing may hang. In mode "abort" a rank 2 ignores SIGTERM, so it writes
 * nothing before the launcher's SIGKILL: a rank hcc-report must name. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void work(int rank) {
  int x = rank, y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  work(rank);
  if (argc > 1 && strcmp(argv[1], "abort") == 0) {
    if (rank == 2) signal(SIGTERM, SIG_IGN); /* replaces hcc's handler */
    if (rank == 1) MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 waits here until the launcher ends it */
    sleep(30);
  }
  return 0; /* no MPI_Finalize */
}
