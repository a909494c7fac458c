// hcc — the MPI life cycle: MPI_Init (rank, shared output directory),
// MPI_Finalize (merge every rank into one profile that rank 0 writes) and
// MPI_Abort (each rank writes its own). The merge is src/mpi_merge.cpp.
#include <time.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/service.hpp"
#include "mpi_internal.hpp"

using namespace hcc;

extern "C" void hccm_write_trace(int rank, int size);  // mpi_trace.cpp
extern "C" void hccm_release_snapshots();
extern "C" int hccm_merge_and_write(int rank, int size);  // mpi_merge.cpp: 0 when rank 0 could not write

namespace {

bool g_initialized = false;
int g_rank = 0, g_size = 1;
constexpr int kSigtermLingerMs = 3000;  // hccm_after_init says why

// Names one job among the runs whose per-rank profiles share a directory
// (HCC_OUTPUT_DIR reused): rank 0's host, process id and start time.
void job_name(char *out, size_t size) {
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "localhost");
  struct timespec now {};
  clock_gettime(CLOCK_REALTIME, &now);
  std::snprintf(out, size, "%.64s:%d:%lld.%09ld", host, int(getpid()), (long long)now.tv_sec, now.tv_nsec);
}

// Every rank calls this at MPI_Finalize; rank 0 writes the merged profile.
void merge_and_write() {
  if (!hccm_merge_and_write(g_rank, g_size)) throw std::runtime_error("rank 0 could not write profile.cubex");
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
