// hcc — bytes of collective operations ("buffer rule", wrappers/README.md):
// bytes_sent = the size of the send buffer(s) this rank's call reads,
// bytes_received = the size of the receive buffer(s) it fills, counting this
// rank's own block too. MPI_Allreduce of n doubles: 8n sent and 8n received
// on every rank. Arguments the standard calls "significant only at root" are
// never read elsewhere (they may be garbage there). Intercommunicators: the
// root side (MPI_ROOT) sends/receives the remote group's blocks, MPI_PROC_NULL
// moves nothing, the other group acts as non-root. Collectives count no messages.
#include "mpi_internal.hpp"

using namespace hcc::mpi;

namespace {

struct Comm {
  int rank = 0, size = 1;  // size: the group whose blocks are exchanged
  bool inter = false;
};

Comm info(MPI_Comm comm) {
  Comm c;
  int flag = 0;
  PMPI_Comm_test_inter(comm, &flag);
  c.inter = flag != 0;
  PMPI_Comm_rank(comm, &c.rank);
  if (c.inter) PMPI_Comm_remote_size(comm, &c.size);
  else PMPI_Comm_size(comm, &c.size);
  return c;
}

enum Role { kRoot, kNonRoot, kNothing };
Role role(const Comm &c, int root) {
  if (c.inter) return root == MPI_ROOT ? kRoot : root == MPI_PROC_NULL ? kNothing : kNonRoot;
  return root == c.rank ? kRoot : kNonRoot;
}

uint64_t sum(const int *counts, int n, MPI_Datatype t) {
  long long total = 0;
  for (int i = 0; i < n; ++i) total += counts[i];
  return type_bytes(total, t);
}

void out(uint64_t b) { count(kBytesSent, b); }
void in(uint64_t b) { count(kBytesReceived, b); }

// In- and out-degree of a process topology (neighbourhood collectives).
void degrees(MPI_Comm comm, int &indeg, int &outdeg) {
  indeg = outdeg = 0;
  int topo = MPI_UNDEFINED;
  PMPI_Topo_test(comm, &topo);
  if (topo == MPI_CART) {
    int nd = 0;
    PMPI_Cartdim_get(comm, &nd);
    indeg = outdeg = 2 * nd;
  } else if (topo == MPI_GRAPH) {
    int rank = 0, n = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Graph_neighbors_count(comm, rank, &n);
    indeg = outdeg = n;
  } else if (topo == MPI_DIST_GRAPH) {
    int weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted);
  }
}

}  // namespace

extern "C" {

void hccm_coll_bcast(int n, MPI_Datatype t, int root, MPI_Comm comm) {
  Role r = role(info(comm), root);
  if (r == kRoot) out(type_bytes(n, t));
  else if (r == kNonRoot) in(type_bytes(n, t));
}

void hccm_coll_reduce(const void *, int n, MPI_Datatype t, int root, MPI_Comm comm) {
  Comm c = info(comm);
  Role r = role(c, root);
  if (c.inter) {
    if (r == kRoot) in(type_bytes(n, t));
    else if (r == kNonRoot) out(type_bytes(n, t));
    return;
  }
  out(type_bytes(n, t));  // MPI_IN_PLACE at root: its recvbuf is its contribution
  if (r == kRoot) in(type_bytes(n, t));
}

void hccm_coll_allreduce(int n, MPI_Datatype t) {
  out(type_bytes(n, t));
  in(type_bytes(n, t));
}

void hccm_coll_exscan(int n, MPI_Datatype t, MPI_Comm comm) {
  out(type_bytes(n, t));
  if (info(comm).rank != 0) in(type_bytes(n, t));  // rank 0's recvbuf stays undefined
}

void hccm_coll_reduce_scatter(const int *rcs, MPI_Datatype t, MPI_Comm comm) {
  int size = 1, rank = 0;
  PMPI_Comm_size(comm, &size);  // recvcounts has one entry per local process
  PMPI_Comm_rank(comm, &rank);
  out(sum(rcs, size, t));
  in(type_bytes(rcs[rank], t));
}

void hccm_coll_reduce_scatter_block(int rc, MPI_Datatype t, MPI_Comm comm) {
  int size = 1;
  PMPI_Comm_size(comm, &size);
  out(type_bytes((long long)rc * size, t));
  in(type_bytes(rc, t));
}

void hccm_coll_gather(const void *sendbuf, int sc, MPI_Datatype st, int rc, MPI_Datatype rt, int root,
                      MPI_Comm comm) {
  Comm c = info(comm);
  Role r = role(c, root);
  if (r == kNothing) return;
  if (r == kRoot) in(type_bytes((long long)rc * c.size, rt));
  if (r == kNonRoot || !c.inter) out(sendbuf == MPI_IN_PLACE ? type_bytes(rc, rt) : type_bytes(sc, st));
}

void hccm_coll_gatherv(const void *sendbuf, int sc, MPI_Datatype st, const int *rcs, MPI_Datatype rt, int root,
                       MPI_Comm comm) {
  Comm c = info(comm);
  Role r = role(c, root);
  if (r == kNothing) return;
  if (r == kRoot) in(sum(rcs, c.size, rt));
  if (r == kNonRoot || !c.inter) out(sendbuf == MPI_IN_PLACE ? type_bytes(rcs[c.rank], rt) : type_bytes(sc, st));
}

void hccm_coll_scatter(int sc, MPI_Datatype st, const void *recvbuf, int rc, MPI_Datatype rt, int root,
                       MPI_Comm comm) {
  Comm c = info(comm);
  Role r = role(c, root);
  if (r == kNothing) return;
  if (r == kRoot) out(type_bytes((long long)sc * c.size, st));
  if (r == kNonRoot || !c.inter) in(recvbuf == MPI_IN_PLACE ? type_bytes(sc, st) : type_bytes(rc, rt));
}

void hccm_coll_scatterv(const int *scs, MPI_Datatype st, const void *recvbuf, int rc, MPI_Datatype rt, int root,
                        MPI_Comm comm) {
  Comm c = info(comm);
  Role r = role(c, root);
  if (r == kNothing) return;
  if (r == kRoot) out(sum(scs, c.size, st));
  if (r == kNonRoot || !c.inter) in(recvbuf == MPI_IN_PLACE ? type_bytes(scs[c.rank], st) : type_bytes(rc, rt));
}

void hccm_coll_allgather(const void *sendbuf, int sc, MPI_Datatype st, int rc, MPI_Datatype rt, MPI_Comm comm) {
  Comm c = info(comm);
  out(sendbuf == MPI_IN_PLACE ? type_bytes(rc, rt) : type_bytes(sc, st));
  in(type_bytes((long long)rc * c.size, rt));
}

void hccm_coll_allgatherv(const void *sendbuf, int sc, MPI_Datatype st, const int *rcs, MPI_Datatype rt,
                          MPI_Comm comm) {
  Comm c = info(comm);
  out(sendbuf == MPI_IN_PLACE ? type_bytes(c.inter ? 0 : rcs[c.rank], rt) : type_bytes(sc, st));
  in(sum(rcs, c.size, rt));
}

void hccm_coll_alltoall(const void *sendbuf, int sc, MPI_Datatype st, int rc, MPI_Datatype rt, MPI_Comm comm) {
  Comm c = info(comm);
  out(sendbuf == MPI_IN_PLACE ? type_bytes((long long)rc * c.size, rt) : type_bytes((long long)sc * c.size, st));
  in(type_bytes((long long)rc * c.size, rt));
}

void hccm_coll_alltoallv(const void *sendbuf, const int *scs, MPI_Datatype st, const int *rcs, MPI_Datatype rt,
                         MPI_Comm comm) {
  Comm c = info(comm);
  out(sendbuf == MPI_IN_PLACE ? sum(rcs, c.size, rt) : sum(scs, c.size, st));
  in(sum(rcs, c.size, rt));
}

void hccm_coll_alltoallw(const void *sendbuf, const int *scs, const MPI_Datatype *sts, const int *rcs,
                         const MPI_Datatype *rts, MPI_Comm comm) {
  Comm c = info(comm);
  uint64_t o = 0, i = 0;
  for (int k = 0; k < c.size; ++k) {
    o += sendbuf == MPI_IN_PLACE ? type_bytes(rcs[k], rts[k]) : type_bytes(scs[k], sts[k]);
    i += type_bytes(rcs[k], rts[k]);
  }
  out(o);
  in(i);
}

void hccm_coll_nb_allgather(int sc, MPI_Datatype st, int rc, MPI_Datatype rt, MPI_Comm comm) {
  int indeg, outdeg;
  degrees(comm, indeg, outdeg);
  out(outdeg ? type_bytes(sc, st) : 0);
  in(type_bytes((long long)rc * indeg, rt));
}

void hccm_coll_nb_allgatherv(int sc, MPI_Datatype st, const int *rcs, MPI_Datatype rt, MPI_Comm comm) {
  int indeg, outdeg;
  degrees(comm, indeg, outdeg);
  out(outdeg ? type_bytes(sc, st) : 0);
  in(sum(rcs, indeg, rt));
}

void hccm_coll_nb_alltoall(int sc, MPI_Datatype st, int rc, MPI_Datatype rt, MPI_Comm comm) {
  int indeg, outdeg;
  degrees(comm, indeg, outdeg);
  out(type_bytes((long long)sc * outdeg, st));
  in(type_bytes((long long)rc * indeg, rt));
}

void hccm_coll_nb_alltoallv(const int *scs, MPI_Datatype st, const int *rcs, MPI_Datatype rt, MPI_Comm comm) {
  int indeg, outdeg;
  degrees(comm, indeg, outdeg);
  out(sum(scs, outdeg, st));
  in(sum(rcs, indeg, rt));
}

void hccm_coll_nb_alltoallw(const int *scs, const MPI_Datatype *sts, const int *rcs, const MPI_Datatype *rts,
                            MPI_Comm comm) {
  int indeg, outdeg;
  degrees(comm, indeg, outdeg);
  uint64_t o = 0, i = 0;
  for (int k = 0; k < outdeg; ++k) o += type_bytes(scs[k], sts[k]);
  for (int k = 0; k < indeg; ++k) i += type_bytes(rcs[k], rts[k]);
  out(o);
  in(i);
}

}  // extern "C"
