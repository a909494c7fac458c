/* Rank 2 dies by SIGKILL before MPI_Finalize; the others go on, and the
 * launcher ends them. Every rank first calls step() 100 + 10 * rank times,
 * so each survivor's own profile has a visit count of its own.
 * "computing": rank 2 dies at once, while the others wait for a message
 * from it in their own code (MPI_Recv), outside MPI_Finalize.
 * "finalizing": rank 2 dies only after every other rank has told it that it
 * is about to call MPI_Finalize, and 2 s later, so they wait inside hcc's
 * merge (which needs rank 2) when the launcher's SIGTERM comes. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile double sink;

void step(int i) {
  for (int k = 0; k < 100; ++k) sink += (double)i * k;
}

void work(int rank) {
  for (int i = 0; i < 100 + 10 * rank; ++i) step(i);
}

int main(int argc, char **argv) {
  int rank, size, token = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int finalizing = argc > 1 && strcmp(argv[1], "finalizing") == 0;
  work(rank);
  if (rank == 2) {
    if (finalizing) {
      for (int r = 0; r < size; ++r)
        if (r != 2) MPI_Recv(&token, 1, MPI_INT, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sleep(2);
    }
    raise(SIGKILL);
  }
  if (finalizing)
    MPI_Send(&token, 1, MPI_INT, 2, 1, MPI_COMM_WORLD);
  else
    MPI_Recv(&token, 1, MPI_INT, 2, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never comes */
  MPI_Finalize();
  printf("rank %d finished\n", rank); /* not reached: the merge waits for rank 2 */
  return 0;
}
