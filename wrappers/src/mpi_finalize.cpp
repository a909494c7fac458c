// hcc — the MPI life cycle: MPI_Init (rank, shared output directory),
// MPI_Finalize (merge every rank into one profile that rank 0 writes) and
// MPI_Abort (each rank writes its own). The merge logic itself is in
// merge/merge.cpp; this file only moves its messages with PMPI.
#include <time.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "core/service.hpp"
#include "merge/merge.hpp"
#include "mpi_internal.hpp"

using namespace hcc;

extern "C" void hccm_write_trace(int rank, int size);  // mpi_trace.cpp
extern "C" void hccm_release_snapshots();

namespace {

bool g_initialized = false;
int g_rank = 0, g_size = 1;
constexpr int kSigtermLingerMs = 3000;  // hccm_after_init says why

constexpr int kTagDefs = 7301, kTagToken = 7302, kTagValues = 7303;
constexpr int kWindow = 4;  // packets rank 0 lets travel at once (bounds its unexpected-message memory)

std::string recv_bytes(int source, int tag, MPI_Comm comm) {
  MPI_Status st;
  PMPI_Probe(source, tag, comm, &st);
  int n = 0;
  PMPI_Get_count(&st, MPI_BYTE, &n);
  std::string buf(size_t(n), '\0');
  PMPI_Recv(buf.data(), n, MPI_BYTE, st.MPI_SOURCE, tag, comm, MPI_STATUS_IGNORE);
  return buf;
}

void send_bytes(const std::string &b, int dest, int tag, MPI_Comm comm) {
  PMPI_Send(b.data(), int(b.size()), MPI_BYTE, dest, tag, comm);
}

// Names one job among the runs whose per-rank profiles share a directory
// (HCC_OUTPUT_DIR reused): rank 0's host, process id and start time.
void job_name(char *out, size_t size) {
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "localhost");
  struct timespec now {};
  clock_gettime(CLOCK_REALTIME, &now);
  std::snprintf(out, size, "%.64s:%d:%lld.%09ld", host, int(getpid()), (long long)now.tv_sec, now.tv_nsec);
}

std::string host_name() {
  char buf[HOST_NAME_MAX + 1] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  return buf;
}

// Every rank calls this at MPI_Finalize; rank 0 returns the merged profile.
void merge_and_write() {
  MPI_Comm comm;
  PMPI_Comm_dup(MPI_COMM_WORLD, &comm);  // our messages never meet the program's
  profile::Profile local;
  hcc_svc_build_local_profile(&local);

  // 1. Definitions up a binary tree: in round `step` a rank with
  //    rank % 2step == step sends to rank - step and is done.
  mpimerge::Defs defs = mpimerge::defs_of(local);
  for (int step = 1; step < g_size; step <<= 1) {
    if (g_rank % (2 * step) == step) {
      send_bytes(mpimerge::serialize(defs), g_rank - step, kTagDefs, comm);
      break;
    }
    if (g_rank % (2 * step) == 0 && g_rank + step < g_size)
      mpimerge::merge_into(defs, mpimerge::deserialize(recv_bytes(g_rank + step, kTagDefs, comm)));
  }
  // 2. The unified definitions back down (rank 0 numbers them in pre-order).
  std::string global_bytes;
  if (g_rank == 0) global_bytes = mpimerge::serialize(mpimerge::canonical(defs));
  defs = {};
  long long n = (long long)global_bytes.size();
  PMPI_Bcast(&n, 1, MPI_LONG_LONG, 0, comm);
  global_bytes.resize(size_t(n));
  PMPI_Bcast(global_bytes.data(), int(n), MPI_BYTE, 0, comm);
  const mpimerge::Defs global = mpimerge::deserialize(global_bytes);
  global_bytes = {};

  // 3. Values: each rank maps its rows; rank 0 takes them rank by rank.
  const mpimerge::Mapping map = mpimerge::map_local(global, local);
  int nthreads = int(local.nloc());
  std::vector<int> threads(g_rank == 0 ? size_t(g_size) : 0);
  PMPI_Gather(&nthreads, 1, MPI_INT, threads.data(), 1, MPI_INT, 0, comm);
  std::string mine = mpimerge::pack_values(local, map, global.metrics.size(), host_name());
  if (g_rank != 0) {
    local = {};
    char token = 0;
    PMPI_Recv(&token, 1, MPI_CHAR, 0, kTagToken, comm, MPI_STATUS_IGNORE);
    send_bytes(mine, 0, kTagValues, comm);
    PMPI_Comm_free(&comm);
    return;
  }
  mpimerge::Assembler asm_(global, threads);
  asm_.add(0, mine);
  mine = {};
  char token = 1;
  for (int r = 1; r < g_size && r <= kWindow; ++r) PMPI_Send(&token, 1, MPI_CHAR, r, kTagToken, comm);
  for (int r = 1; r < g_size; ++r) {
    asm_.add(r, recv_bytes(r, kTagValues, comm));
    if (r + kWindow < g_size) PMPI_Send(&token, 1, MPI_CHAR, r + kWindow, kTagToken, comm);
  }
  PMPI_Comm_free(&comm);

  profile::Profile p = asm_.take();
  p.attrs = local.attrs;
  for (auto &[k, v] : p.attrs) {
    if (k == "threads") v = std::to_string(p.nloc());
    // Per location of one process (runtime/core/profile_builder.cpp): here rank 0's.
    if (k == "openmp thread numbers") k += " of rank 0";
  }
  p.attrs.emplace_back("mpi ranks", std::to_string(g_size));
  p.machine = local.machine;
  hcc_svc_set_file_tag("");  // the one merged profile: profile.cubex
  hcc_svc_write_profile(&p);
}

}  // namespace

extern "C" {

void hccm_after_init(int *, char ***) {
  if (g_initialized) return;
  hcc_svc_init();
  PMPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &g_size);
  // One output directory for the job: rank 0 chooses (and creates) it, the
  // others only learn its name; they create it only if they must write their
  // own profile (no MPI_Finalize). With it, the job's name (job_name()).
  struct {
    char dir[4096];
    char job[128];
  } shared = {};
  if (g_rank == 0) {
    hcc_svc_prepare_output_dir(shared.dir, sizeof shared.dir);
    job_name(shared.job, sizeof shared.job);
  }
  PMPI_Bcast(&shared, int(sizeof shared), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (g_rank != 0 && shared.dir[0]) hcc_svc_use_output_dir(shared.dir);
  // Until MPI_Finalize merges, a profile written by this rank (crash,
  // MPI_Abort, exit without MPI_Finalize, the launcher's SIGTERM when
  // another rank died) is its own: profile.rank-<r>.cubex. It says which
  // rank of which job it is, so hcc-report can name the ranks that wrote
  // nothing (report/locate.cpp); the merged profile does not carry these.
  hcc_svc_set_file_tag(("rank-" + std::to_string(g_rank)).c_str());
  hcc_svc_set_own_file_attr("mpi rank", std::to_string(g_rank).c_str());
  hcc_svc_set_own_file_attr("mpi ranks", std::to_string(g_size).c_str());
  hcc_svc_set_own_file_attr("mpi job", shared.job);
  // When a rank dies, mpirun sends the others SIGCONT, 1 s later SIGTERM
  // (each writes its own profile then), and SIGKILL 1 s later or as soon as
  // any rank exits, whichever comes first (orte/mca/odls, Open MPI 4.1): a
  // rank that wrote quickly must not exit and so kill those still writing.
  // Bounded, for launchers that send no SIGKILL.
  hcc_svc_linger_after_sigterm(kSigtermLingerMs);
  hccm_release_snapshots();  // HCC_SNAPSHOT: the directory and the file tag are known now
  if (g_rank == 0 && !hcc::mpi::groups_warning().empty())
    std::fprintf(stderr, "%s\n", hcc::mpi::groups_warning().c_str());
  if (g_rank == 0 && !hcc::mpi::counters_registered())
    std::fprintf(stderr, "hcc: warning: MPI byte and message counts are off: a region was entered before "
                         "libhcc_mpi.so was initialised (instrumented code in an earlier library constructor)\n");
  g_initialized = true;
}

void hccm_before_finalize(void) {
  if (!g_initialized || !hcc_svc_claim_finalize()) return;
  try {
    // HCC_TRACE: one archive for the job (every rank takes part, tracing or
    // not); before the merge, so the profile's attributes describe it.
    hccm_write_trace(g_rank, g_size);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "hcc: error: rank %d: the trace could not be written: %s\n", g_rank, e.what());
  }
  int merged = 0;
  try {
    merge_and_write();
    merged = 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "hcc: error: rank %d: the MPI profile could not be merged: %s\n", g_rank, e.what());
  }
  // A rank's data is safe once rank 0 has written the merged profile, which
  // only this collective tells the others (a rank that sent its part to rank 0
  // is done with the merge before rank 0 is). Until it returns, the claim
  // stays open: if a rank dies meanwhile, the launcher's SIGTERM ends the
  // others waiting here or in the merge, and each writes its own
  // profile.rank-<r>.cubex (runtime/core/lifecycle.hpp). When any rank
  // failed to merge, every rank writes its own at exit.
  PMPI_Allreduce(MPI_IN_PLACE, &merged, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (merged) {
    hcc_svc_claimed_finalize_done();
    hcc_svc_linger_after_sigterm(0);  // a SIGTERM now writes nothing: nobody to wait for
  }
}

void hccm_before_abort(MPI_Comm, int) {
  // The job ends here without MPI_Finalize: this rank writes its own profile
  // now; the others write theirs when the launcher's signal reaches them.
  hcc_svc_finalize_local();
}

}  // extern "C"
