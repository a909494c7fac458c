// hcc — the MPI side of HCC_TRACE: the collectives libhcc's tracer needs to
// write one OTF2 archive for the whole job (runtime/core/service.hpp), on a
// duplicate of MPI_COMM_WORLD through PMPI (never the program's messages,
// never measured). Called at MPI_Finalize before the profile merge, by every
// rank whether it traces or not: the tracer's first step finds out.
// HCC_SNAPSHOT: snapshots wait for MPI_Init, which tells each rank the job's
// output directory.
#include <climits>
#include <cstdio>
#include <vector>

#include "core/service.hpp"
#include "mpi_internal.hpp"

namespace {

MPI_Comm comm_of(void *ctx) { return *static_cast<MPI_Comm *>(ctx); }

bool fits(uint64_t bytes) { return bytes <= uint64_t(INT_MAX); }

int c_barrier(void *ctx) { return PMPI_Barrier(comm_of(ctx)) == MPI_SUCCESS ? 0 : 1; }

int c_bcast(void *ctx, void *data, uint64_t bytes, int root) {
  if (!fits(bytes)) return 1;
  return PMPI_Bcast(data, int(bytes), MPI_BYTE, root, comm_of(ctx)) == MPI_SUCCESS ? 0 : 1;
}

int c_gather(void *ctx, const void *in, void *out, uint64_t bytes, int root) {
  if (!fits(bytes)) return 1;
  return PMPI_Gather(in, int(bytes), MPI_BYTE, out, int(bytes), MPI_BYTE, root, comm_of(ctx)) == MPI_SUCCESS ? 0 : 1;
}

// Counts and displacements in bytes, as MPI's ints (the definitions and
// statistics exchanged are small; a job beyond 2 GiB of them fails cleanly).
bool displacements(const uint64_t *bytes, int n, std::vector<int> &counts, std::vector<int> &displs) {
  uint64_t at = 0;
  for (int r = 0; r < n; ++r) {
    if (!fits(bytes[r]) || !fits(at)) return false;
    counts.push_back(int(bytes[r]));
    displs.push_back(int(at));
    at += bytes[r];
  }
  return true;
}

int c_gatherv(void *ctx, const void *in, uint64_t in_bytes, void *out, const uint64_t *out_bytes, int root) {
  MPI_Comm comm = comm_of(ctx);
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  std::vector<int> counts, displs;
  // A failure must not leave the other ranks waiting: every rank still takes part.
  bool ok = fits(in_bytes) && (rank != root || displacements(out_bytes, size, counts, displs));
  if (!ok && rank == root) counts.assign(size_t(size), 0), displs.assign(size_t(size), 0);
  int rc = PMPI_Gatherv(in, ok ? int(in_bytes) : 0, MPI_BYTE, out, counts.data(), displs.data(), MPI_BYTE, root, comm);
  return ok && rc == MPI_SUCCESS ? 0 : 1;
}

int c_scatter(void *ctx, const void *in, void *out, uint64_t bytes, int root) {
  if (!fits(bytes)) return 1;
  return PMPI_Scatter(in, int(bytes), MPI_BYTE, out, int(bytes), MPI_BYTE, root, comm_of(ctx)) == MPI_SUCCESS ? 0 : 1;
}

int c_scatterv(void *ctx, const void *in, const uint64_t *in_bytes, void *out, uint64_t out_bytes, int root) {
  MPI_Comm comm = comm_of(ctx);
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  std::vector<int> counts, displs;
  bool ok = fits(out_bytes) && (rank != root || displacements(in_bytes, size, counts, displs));
  if (!ok && rank == root) counts.assign(size_t(size), 0), displs.assign(size_t(size), 0);
  int rc = PMPI_Scatterv(in, counts.data(), displs.data(), MPI_BYTE, out, ok ? int(out_bytes) : 0, MPI_BYTE, root, comm);
  return ok && rc == MPI_SUCCESS ? 0 : 1;
}

// The output directory is only known after MPI_Init: hold snapshots until then.
__attribute__((constructor)) void hold_snapshots() { hcc_svc_hold_snapshots(1); }

}  // namespace

extern "C" void hccm_write_trace(int rank, int size) {
  MPI_Comm comm;
  PMPI_Comm_dup(MPI_COMM_WORLD, &comm);
  hcc_svc_collectives c{&comm, rank, size, c_barrier, c_bcast, c_gather, c_gatherv, c_scatter, c_scatterv};
  hcc_svc_write_trace(&c);
  PMPI_Comm_free(&comm);
}

extern "C" void hccm_release_snapshots() { hcc_svc_hold_snapshots(0); }
