/* MPI ring exchange with known sizes: every byte and message the wrappers
 * count is known in advance (see tests/mpi/mpi_e2e_test.cpp). Each rank also
 * runs one worker thread, so the profile has ranks x 2 locations. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define NB 1000 /* ints per blocking message: 4000 bytes */
#define NN 500  /* doubles per non-blocking message: 4000 bytes */
#define ROUNDS 3
#define NR 16 /* doubles per allreduce: 128 bytes */
#define NBC 10 /* ints per bcast: 40 bytes */

static int rank, size;
static long long checksum;

static void ring_blocking(void) {
  int out[NB], in[NB];
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int i = 0; i < NB; ++i) out[i] = rank * 1000 + i;
  /* even ranks send first, odd ranks receive first: no deadlock */
  if (rank % 2 == 0) {
    MPI_Send(out, NB, MPI_INT, right, 1, MPI_COMM_WORLD);
    MPI_Recv(in, NB, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(in, NB, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, NB, MPI_INT, right, 1, MPI_COMM_WORLD);
  }
  for (int i = 0; i < NB; ++i) checksum += in[i];
}

static void ring_nonblocking(void) {
  double out[NN], in[NN];
  MPI_Request reqs[2];
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int r = 0; r < ROUNDS; ++r) {
    for (int i = 0; i < NN; ++i) out[i] = rank + i * 0.5 + r;
    /* the receive buffer is larger than the message: bytes come from the status */
    MPI_Irecv(in, NN, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(out, NN, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    for (int i = 0; i < NN; ++i) checksum += (long long)in[i];
  }
}

/* MPI_Test is in XREQTEST, off by default: no region, but the completed
 * receive's 400 bytes are still counted (at ring_polling, the caller). */
static void ring_polling(void) {
  int out[100], in[100], done = 0;
  MPI_Request rr, sr;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int i = 0; i < 100; ++i) out[i] = i;
  MPI_Irecv(in, 100, MPI_INT, left, 3, MPI_COMM_WORLD, &rr);
  MPI_Isend(out, 100, MPI_INT, right, 3, MPI_COMM_WORLD, &sr);
  while (!done) MPI_Test(&rr, &done, MPI_STATUS_IGNORE);
  MPI_Wait(&sr, MPI_STATUS_IGNORE);
  checksum += in[99];
}

static void collectives(void) {
  double v[NR], s[NR];
  int b[NBC];
  for (int i = 0; i < NR; ++i) v[i] = rank + i;
  MPI_Allreduce(v, s, NR, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < NBC; ++i) b[i] = rank == 0 ? 7 * i : 0;
  MPI_Bcast(b, NBC, MPI_INT, 0, MPI_COMM_WORLD);
  for (int i = 0; i < NR; ++i) checksum += (long long)s[i];
  for (int i = 0; i < NBC; ++i) checksum += b[i];
}

static void only_rank_one(void) { checksum += 1; }

static double worker_sum;
static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 100000; ++i) worker_sum += i * 1e-6;
  return NULL;
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  ring_blocking();
  ring_nonblocking();
  ring_polling();
  collectives();
  if (rank == 1) only_rank_one();
  pthread_join(t, NULL);
  long long total = 0;
  MPI_Reduce(&checksum, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("ranks %d checksum %lld worker %.3f\n", size, total, worker_sum);
  MPI_Finalize();
  return 0;
}
