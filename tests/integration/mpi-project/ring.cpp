#include <mpi.h>

#include <cstdio>

extern "C" int ring_exchange(int token);

static int total(int value) {
  int sum = 0;
  MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int sum = total(ring_exchange(rank + 1));
  if (rank == 0) std::printf("ranks=%d sum=%d\n", size, sum);
  MPI_Finalize();
  return 0;
}
