/* samples/mpi — a deliberate late sender.
 *
 * Every rank does the same amount of "physics" per step, except the last
 * rank, which does LATE_FACTOR times as much before joining MPI_Allreduce.
 * Everybody else waits inside MPI_Allreduce for it: the profile shows that
 * wait as MPI time on the fast ranks (see README.md). The halo exchange
 * before it is balanced. The printed result does not depend on timing. */
#include <mpi.h>
#include <stdio.h>

#ifndef STEPS
#define STEPS 20
#endif
#ifndef WORK
#define WORK 10000000 /* inner iterations per step on a normal rank */
#endif
#ifndef LATE_FACTOR
#define LATE_FACTOR 4
#endif
#define HALO 4096 /* doubles per halo message: 32 KiB */

static int rank, size;

static double physics(long n, int step) {
  double x = 0.0;
  for (long i = 0; i < n; ++i) x += (double)((i + step) % 7) * 1e-9;
  return x;
}

static void halo_exchange(double *out, double *in) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Sendrecv(out, HALO, MPI_DOUBLE, right, 0, in, HALO, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static double global_residual(double local) {
  double global = 0.0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return global;
}

int main(int argc, char **argv) {
  static double out[HALO], in[HALO];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long work = rank == size - 1 ? (long)WORK * LATE_FACTOR : WORK;
  double residual = 0.0;
  for (int step = 0; step < STEPS; ++step) {
    for (int i = 0; i < HALO; ++i) out[i] = rank + step;
    halo_exchange(out, in);
    double local = physics(work, step) > 0 ? in[0] : 0.0; /* the work counts, its value does not */
    residual = global_residual(local);
  }
  if (rank == 0) printf("ranks %d steps %d residual %.1f\n", size, STEPS, residual);
  MPI_Finalize();
  return 0;
}
