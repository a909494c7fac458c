/* hcc — what the generated wrappers call (implemented in mpi_state.cpp).
 *
 * The wrappers are C (generated from mpi_functions.txt); the helpers are
 * C++ with C linkage. Everything here runs inside an MPI call, so a few
 * nanoseconds of bookkeeping are far below the call's own cost. */
#ifndef HCC_MPI_HELPERS_H
#define HCC_MPI_HELPERS_H

#include <mpi.h>
#include <stdint.h>

#include "hcc/region.h"

#ifdef __cplusplus
extern "C" {
#endif

/* libhcc (runtime/core/service.hpp): the MPI region's enter/exit, with the
 * caller's unwound frames around it when HCC_SAMPLING and HCC_MPI_UNWIND ask. */
void hcc_svc_mpi_enter(hcc_region_desc *d);
void hcc_svc_mpi_exit(hcc_region_desc *d);

/* Group bits, Score-P's names. */
enum {
  HCCM_G_CG = 1u << 0, HCCM_G_COLL = 1u << 1, HCCM_G_ENV = 1u << 2, HCCM_G_ERR = 1u << 3,
  HCCM_G_EXT = 1u << 4, HCCM_G_IO = 1u << 5, HCCM_G_MISC = 1u << 6, HCCM_G_P2P = 1u << 7,
  HCCM_G_RMA = 1u << 8, HCCM_G_SPAWN = 1u << 9, HCCM_G_TOPO = 1u << 10, HCCM_G_TYPE = 1u << 11,
  HCCM_G_XNONBLOCK = 1u << 12, HCCM_G_XREQTEST = 1u << 13
};

/* The enabled groups; written once in the library constructor (before
 * main), read by every wrapper: the one load of a disabled call. */
extern uint32_t hccm_groups;

/* --- life cycle --- */
void hccm_after_init(int *argc, char ***argv);
void hccm_before_finalize(void);
void hccm_before_abort(MPI_Comm comm, int errorcode);

/* --- point to point --- */
void hccm_sent(int count, MPI_Datatype type, int dest);
void hccm_received(const MPI_Status *status);

/* Request table: non-blocking receives are counted at completion, from the
 * status; handles are remembered before the completion call resets them. */
enum { HCCM_REQ_SEND = 1, HCCM_REQ_RECV = 2, HCCM_REQ_PERSISTENT = 4 };
int hccm_tracking(void); /* 1 when some request is tracked */
void hccm_track(MPI_Request req, int kind);
void hccm_track_persistent_send(MPI_Request req, int count, MPI_Datatype type, int dest);
void hccm_untrack(MPI_Request req);
void hccm_started(int n, const MPI_Request *reqs);
void hccm_save(int n, const MPI_Request *reqs);
void hccm_done_one(int i, const MPI_Status *status);
void hccm_done_all(int n, const MPI_Status *statuses);
void hccm_done_some(int n, const int *indices, const MPI_Status *statuses);
MPI_Status *hccm_scratch_statuses(int n);

/* A status the completion can read even when the caller ignores it. */
#define HCCM_STATUS(s)                  \
  MPI_Status hccm_status_;              \
  if ((s) == MPI_STATUS_IGNORE) (s) = &hccm_status_
#define HCCM_STATUSES(a, n) \
  if ((a) == MPI_STATUSES_IGNORE) (a) = hccm_scratch_statuses(n)

/* --- collectives: bytes in/out per wrappers/README.md --- */
void hccm_coll_bcast(int count, MPI_Datatype t, int root, MPI_Comm comm);
void hccm_coll_reduce(const void *sendbuf, int count, MPI_Datatype t, int root, MPI_Comm comm);
void hccm_coll_allreduce(int count, MPI_Datatype t);
void hccm_coll_exscan(int count, MPI_Datatype t, MPI_Comm comm);
void hccm_coll_reduce_scatter(const int *recvcounts, MPI_Datatype t, MPI_Comm comm);
void hccm_coll_reduce_scatter_block(int recvcount, MPI_Datatype t, MPI_Comm comm);
void hccm_coll_gather(const void *sendbuf, int sc, MPI_Datatype st, int rc, MPI_Datatype rt, int root,
                      MPI_Comm comm);
void hccm_coll_gatherv(const void *sendbuf, int sc, MPI_Datatype st, const int *rcs, MPI_Datatype rt,
                       int root, MPI_Comm comm);
void hccm_coll_scatter(int sc, MPI_Datatype st, const void *recvbuf, int rc, MPI_Datatype rt, int root,
                       MPI_Comm comm);
void hccm_coll_scatterv(const int *scs, MPI_Datatype st, const void *recvbuf, int rc, MPI_Datatype rt,
                        int root, MPI_Comm comm);
void hccm_coll_allgather(const void *sendbuf, int sc, MPI_Datatype st, int rc, MPI_Datatype rt,
                         MPI_Comm comm);
void hccm_coll_allgatherv(const void *sendbuf, int sc, MPI_Datatype st, const int *rcs,
                          MPI_Datatype rt, MPI_Comm comm);
void hccm_coll_alltoall(const void *sendbuf, int sc, MPI_Datatype st, int rc, MPI_Datatype rt,
                        MPI_Comm comm);
void hccm_coll_alltoallv(const void *sendbuf, const int *scs, MPI_Datatype st, const int *rcs,
                         MPI_Datatype rt, MPI_Comm comm);
void hccm_coll_alltoallw(const void *sendbuf, const int *scs, const MPI_Datatype *sts, const int *rcs,
                         const MPI_Datatype *rts, MPI_Comm comm);
void hccm_coll_nb_allgather(int sc, MPI_Datatype st, int rc, MPI_Datatype rt, MPI_Comm comm);
void hccm_coll_nb_allgatherv(int sc, MPI_Datatype st, const int *rcs, MPI_Datatype rt, MPI_Comm comm);
void hccm_coll_nb_alltoall(int sc, MPI_Datatype st, int rc, MPI_Datatype rt, MPI_Comm comm);
void hccm_coll_nb_alltoallv(const int *scs, MPI_Datatype st, const int *rcs, MPI_Datatype rt,
                            MPI_Comm comm);
void hccm_coll_nb_alltoallw(const int *scs, const MPI_Datatype *sts, const int *rcs,
                            const MPI_Datatype *rts, MPI_Comm comm);

/* --- one-sided (origin side) and MPI-IO --- */
void hccm_rma_out(int count, MPI_Datatype t);
void hccm_rma_in(int count, MPI_Datatype t);
void hccm_io_read(int count, MPI_Datatype t);
void hccm_io_read_status(const MPI_Status *status, int count, MPI_Datatype t);
void hccm_io_written(int count, MPI_Datatype t);

#ifdef __cplusplus
}
#endif

#endif /* HCC_MPI_HELPERS_H */
