/* MPI_THREAD_MULTIPLE: two threads per rank communicate at the same time
 * (own tags), so the request table and the per-thread counts are exercised
 * concurrently. Each worker: 20 x (Irecv + Isend + Waitall of 100 ints) and
 * 20 x Sendrecv of 100 ints, to the right neighbour, from the left one. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define N 100
#define ITER 20

static int rank, size;
static long long sums[2];

static void *worker(void *arg) {
  int t = (int)(long)arg;
  int out[N], in[N];
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int it = 0; it < ITER; ++it) {
    MPI_Request rq[2];
    for (int i = 0; i < N; ++i) out[i] = rank + i + it + t;
    MPI_Irecv(in, N, MPI_INT, left, t, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(out, N, MPI_INT, right, t, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    sums[t] += in[N - 1];
    MPI_Sendrecv(out, N, MPI_INT, right, 10 + t, in, N, MPI_INT, left, 10 + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sums[t] += in[0];
  }
  return NULL;
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) printf("no MPI_THREAD_MULTIPLE\n");
    MPI_Finalize();
    return 0;
  }
  pthread_t th[2];
  for (long t = 0; t < 2; ++t) pthread_create(&th[t], NULL, worker, (void *)t);
  for (int t = 0; t < 2; ++t) pthread_join(th[t], NULL);
  long long mine = sums[0] + sums[1], total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("ranks %d total %lld\n", size, total);
  MPI_Finalize();
  return 0;
}
