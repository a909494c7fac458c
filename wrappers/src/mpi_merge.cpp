// hcc — the merge of every rank's profile at MPI_Finalize, moved with PMPI
// on a duplicate of MPI_COMM_WORLD. The logic is in merge/ (no MPI there);
// this file only sends its messages. HCC_LOCATIONS chooses what the one
// profile keeps: every thread (all), each rank's threads summed (process),
// or statistics over ranks (summary). The first two stream the ranks'
// values into the file a block of columns at a time (merge/stream.hpp);
// summary reduces statistics up the binary tree (merge/rank_stats.hpp).
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/service.hpp"
#include "merge/merge.hpp"
#include "merge/rank_stats.hpp"
#include "merge/stream.hpp"
#include "mpi_internal.hpp"

using namespace hcc;

namespace {

constexpr int kTagDefs = 7301, kTagToken = 7302, kTagValues = 7303, kTagStats = 7304;
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

std::string host_name() {
  char buf[HOST_NAME_MAX + 1] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  return buf;
}

// HCC_LOCATIONS as rank 0 reads it; every rank follows rank 0's choice.
mpimerge::LocationMode location_mode(int rank, MPI_Comm comm) {
  int mode = 0;
  if (rank == 0) {
    const char *set = config::text("HCC_LOCATIONS");  // null when unset
    const std::string text = set ? set : "";
    mpimerge::LocationMode m = mpimerge::LocationMode::All;
    if (!mpimerge::parse_location_mode(text, &m))
      std::fprintf(stderr, "hcc: error: HCC_LOCATIONS='%s' is not all, process or summary; every thread is kept\n",
                   text.c_str());
    mode = int(m);
  }
  PMPI_Bcast(&mode, 1, MPI_INT, 0, comm);
  return mpimerge::LocationMode(mode);
}

// Every rank's host name at rank 0 (index = rank), before any value moves:
// the file's columns are ordered by host.
std::vector<std::string> gather_hosts(int rank, int size, MPI_Comm comm) {
  const std::string mine = host_name();
  int len = int(mine.size());
  std::vector<int> lens(rank == 0 ? size_t(size) : 0), displs(lens.size());
  PMPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm);
  long long total = 0;
  for (size_t r = 0; r < lens.size(); ++r) displs[r] = int(total), total += lens[r];
  std::string all(size_t(total), '\0');
  PMPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, comm);
  std::vector<std::string> hosts;
  for (size_t r = 0; r < lens.size(); ++r) hosts.push_back(all.substr(size_t(displs[r]), size_t(lens[r])));
  return hosts;
}

std::vector<std::pair<std::string, std::string>> job_attrs(const profile::Profile &local, size_t locations,
                                                           int size) {
  auto attrs = local.attrs;
  for (auto &[k, v] : attrs) {
    if (k == "threads") v = std::to_string(locations);
    // Per location of one process (runtime/core/profile_builder.cpp): here rank 0's.
    if (k == "openmp thread numbers") k += " of rank 0";
  }
  attrs.emplace_back("mpi ranks", std::to_string(size));
  return attrs;
}

// Rank 0 in the modes that keep locations: the packets in column order, each
// written into the file as its block fills.
struct StreamJob {
  mpimerge::StreamAssembler *sa;  // null when it could not be made: the packets are only drained
  std::vector<int> order;         // ranks in the order rank 0 takes their packets
  const std::string *mine;
  const profile::Profile *local;
  MPI_Comm comm;
  int size;
};

int stream_body(int fd, const char *shown, void *ctx, profile::Profile *text) {
  auto &job = *static_cast<StreamJob *>(ctx);
  const std::vector<int> &order = job.order;
  std::string error = "the merge could not start";
  bool adding = job.sa != nullptr;
  auto take = [&](int rank, const std::string &packet) {
    if (!adding) return;
    try {
      job.sa->add(rank, packet);
    } catch (const std::exception &e) {
      error = e.what();
      adding = false;  // the rest is drained: no rank may wait for a token forever
    }
  };
  try {
    if (fd >= 0) job.sa->open(fd, shown, job.local->machine);
  } catch (const std::exception &e) {
    error = e.what();
    adding = false;
  }
  take(0, *job.mine);
  char token = 1;
  for (size_t i = 1; i < order.size() && i <= size_t(kWindow); ++i)
    PMPI_Send(&token, 1, MPI_CHAR, order[i], kTagToken, job.comm);
  for (size_t i = 1; i < order.size(); ++i) {
    take(order[i], recv_bytes(order[i], kTagValues, job.comm));
    if (i + kWindow < order.size()) PMPI_Send(&token, 1, MPI_CHAR, order[i + kWindow], kTagToken, job.comm);
  }
  if (fd < 0) return 1;
  try {
    if (adding) *text = job.sa->finish(job_attrs(*job.local, job.sa->columns(), job.size));
  } catch (const std::exception &e) {
    error = e.what();
    adding = false;
  }
  if (!adding) std::fprintf(stderr, "hcc: error: rank 0: the MPI profile could not be written: %s\n", error.c_str());
  return adding ? 0 : 1;
}

// Summary mode: statistics up the binary tree; rank 0 writes them. Returns
// 0 when rank 0 could not write the profile.
int reduce_statistics(const mpimerge::Defs &global, const std::string &mine, const profile::Profile &local,
                       int rank, int size, MPI_Comm comm) {
  const size_t nm = global.metrics.size(), nc = global.cnodes.size();
  mpimerge::RankStats stats(nm, nc);
  stats.add(rank, mpimerge::parse_packet(mine, nm, nc));
  for (int step = 1; step < size; step <<= 1) {
    if (rank % (2 * step) == step) {
      send_bytes(stats.serialize(), rank - step, kTagStats, comm);
      return 1;
    }
    if (rank % (2 * step) == 0 && rank + step < size)
      stats.merge(mpimerge::RankStats::deserialize(recv_bytes(rank + step, kTagStats, comm), nm, nc));
  }
  profile::Profile p = stats.summary_profile(global, size);
  p.attrs = job_attrs(local, p.nloc(), size);
  p.attrs.emplace_back("hcc locations", "summary");
  p.machine = local.machine;
  hcc_svc_set_file_tag("");  // the one merged profile: profile.cubex
  return hcc_svc_write_profile(&p);
}

}  // namespace

// Every rank calls this at MPI_Finalize; rank 0 writes the merged profile.
// Returns 0 on rank 0 when that profile could not be written (then every
// rank keeps its own: src/mpi_finalize.cpp), 1 otherwise.
extern "C" int hccm_merge_and_write(int rank, int size) {
  MPI_Comm comm;
  PMPI_Comm_dup(MPI_COMM_WORLD, &comm);  // our messages never meet the program's
  const mpimerge::LocationMode mode = location_mode(rank, comm);
  profile::Profile local;
  hcc_svc_build_local_profile(&local);
  if (mode != mpimerge::LocationMode::All) mpimerge::collapse_threads(local);

  // 1. Definitions up a binary tree: in round `step` a rank with
  //    rank % 2step == step sends to rank - step and is done.
  mpimerge::Defs defs = mpimerge::defs_of(local);
  for (int step = 1; step < size; step <<= 1) {
    if (rank % (2 * step) == step) {
      send_bytes(mpimerge::serialize(defs), rank - step, kTagDefs, comm);
      break;
    }
    if (rank % (2 * step) == 0 && rank + step < size)
      mpimerge::merge_into(defs, mpimerge::deserialize(recv_bytes(rank + step, kTagDefs, comm)));
  }
  // 2. The unified definitions back down (rank 0 numbers them in pre-order).
  std::string global_bytes;
  if (rank == 0) global_bytes = mpimerge::serialize(mpimerge::canonical(defs));
  defs = {};
  long long n = (long long)global_bytes.size();
  PMPI_Bcast(&n, 1, MPI_LONG_LONG, 0, comm);
  global_bytes.resize(size_t(n));
  PMPI_Bcast(global_bytes.data(), int(n), MPI_BYTE, 0, comm);
  const mpimerge::Defs global = mpimerge::deserialize(global_bytes);
  global_bytes = {};

  // 3. Values in global ids.
  const mpimerge::Mapping map = mpimerge::map_local(global, local);
  std::string mine = mpimerge::pack_values(local, map, global.metrics.size(), host_name());
  if (mode == mpimerge::LocationMode::Summary) {
    const int ok = reduce_statistics(global, mine, local, rank, size, comm);
    PMPI_Comm_free(&comm);
    return ok;
  }
  int nthreads = int(local.nloc());
  std::vector<int> threads(rank == 0 ? size_t(size) : 0);
  PMPI_Gather(&nthreads, 1, MPI_INT, threads.data(), 1, MPI_INT, 0, comm);
  const std::vector<std::string> hosts = gather_hosts(rank, size, comm);
  if (rank != 0) {
    local = {};
    char token = 0;
    PMPI_Recv(&token, 1, MPI_CHAR, 0, kTagToken, comm, MPI_STATUS_IGNORE);
    send_bytes(mine, 0, kTagValues, comm);
    PMPI_Comm_free(&comm);
    return 1;
  }
  std::unique_ptr<mpimerge::StreamAssembler> sa;
  StreamJob job{nullptr, {}, &mine, &local, comm, size};
  try {
    sa = std::make_unique<mpimerge::StreamAssembler>(global, threads, hosts, mode);
    job.sa = sa.get();
    job.order = sa->order();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "hcc: error: rank 0: the MPI profile cannot be merged: %s\n", e.what());
    for (int r = 0; r < size; ++r) job.order.push_back(r);
  }
  hcc_svc_set_file_tag("");  // the one merged profile: profile.cubex
  const int ok = job.sa ? hcc_svc_write_profile_streamed(stream_body, &job) : (stream_body(-1, "", &job, nullptr), 0);
  PMPI_Comm_free(&comm);
  return ok;
}
