#include <mpi.h>
/* Passes a token once around the ring of ranks; returns what came back. */
int ring_exchange(int token) {
  int rank, size, got = token;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Sendrecv(&token, 1, MPI_INT, next, 0, &got, 1, MPI_INT, prev, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  return got;
}
