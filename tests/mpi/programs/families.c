/* One call of several MPI families per function, with known sizes, on 2
 * ranks: persistent requests, rooted and all-to-all collectives, a
 * neighbourhood collective, RMA and MPI-IO (see mpi_e2e_test.cpp for the
 * expected bytes of every call). */
#include <mpi.h>
#include <stdio.h>

static int rank, size, right, left;

static void persistent(void) {
  int out[50], in[50];
  MPI_Request rq[2];
  for (int i = 0; i < 50; ++i) out[i] = i + rank;
  MPI_Send_init(out, 50, MPI_INT, right, 5, MPI_COMM_WORLD, &rq[0]);
  MPI_Recv_init(in, 50, MPI_INT, left, 5, MPI_COMM_WORLD, &rq[1]);
  for (int k = 0; k < 3; ++k) {
    MPI_Startall(2, rq);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&rq[0]);
  MPI_Request_free(&rq[1]);
}

static void rooted(void) {
  int g[4] = {1, 2, 3, 4}, all[8];
  double s[6] = {0}, mine[3];
  MPI_Gather(g, 4, MPI_INT, all, 4, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatter(s, 3, MPI_DOUBLE, mine, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

static void all_to_all(void) {
  int a[4] = {rank, rank, rank, rank}, b[4], v[3] = {1, 2, 3}, w[3];
  int counts[2] = {1, 2}, displs[2] = {0, 1};
  double rs[4] = {1, 2, 3, 4}, rr[2];
  MPI_Alltoall(a, 2, MPI_INT, b, 2, MPI_INT, MPI_COMM_WORLD);
  MPI_Allgatherv(v, rank + 1, MPI_INT, w, counts, displs, MPI_INT, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(rs, rr, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void neighbours(void) {
  MPI_Comm ring;
  int dims[1] = {size}, periods[1] = {1}, out[2] = {rank, rank}, in[2];
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring);
  MPI_Comm_free(&ring);
}

static void one_sided(void) {
  int mem[10] = {0}, src[3] = {7, 8, 9}, got[2];
  MPI_Win win;
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Put(src, 3, MPI_INT, right, 0, 3, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Get(got, 2, MPI_INT, right, 5, 2, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
}

static void file_io(void) {
  char name[64];
  int data[64], back[64];
  MPI_File f;
  snprintf(name, sizeof name, "families-%d.dat", rank);
  for (int i = 0; i < 64; ++i) data[i] = i * rank;
  MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &f);
  MPI_File_write_at(f, 0, data, 64, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_read_at(f, 0, back, 64, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_close(&f);
  MPI_File_delete(name, MPI_INFO_NULL);
}

static void replace(void) {
  int buf[10] = {0};
  MPI_Sendrecv_replace(buf, 10, MPI_INT, right, 9, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size, left = (rank + size - 1) % size;
  persistent();
  rooted();
  all_to_all();
  neighbours();
  one_sided();
  file_io();
  replace();
  if (rank == 0) printf("families done on %d ranks\n", size);
  MPI_Finalize();
  return 0;
}
