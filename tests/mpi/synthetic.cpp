#include "synthetic.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "cube/cubex.hpp"
#include "merge/rank_stats.hpp"

namespace hcc::testing {

namespace {

profile::Metric metric(const char *name, const char *uom, profile::DType t) {
  profile::Metric m;
  m.uniq_name = m.disp_name = name;
  m.uom = uom;
  m.dtype = t;
  return m;
}

}  // namespace

profile::Profile synthetic_rank(int rank, int threads) {
  using profile::DType;
  profile::Profile p;
  p.attrs = {{"program", "synthetic"}, {"threads", std::to_string(threads)}};
  p.hosts = {"node" + std::to_string(rank / 32)};
  p.metrics = {metric("time", "sec", DType::Double),           metric("visits", "occ", DType::UInt64),
               metric("bytes_sent", "bytes", DType::UInt64),   metric("bytes_received", "bytes", DType::UInt64),
               metric("messages_sent", "occ", DType::UInt64),  metric("messages_received", "occ", DType::UInt64),
               metric("bytes_read", "bytes", DType::UInt64),   metric("bytes_written", "bytes", DType::UInt64)};
  p.metrics[0].cube_type = profile::CubeType::Inclusive;  // as the runtime writes time
  auto region = [&](const std::string &name, const char *paradigm) {
    profile::Region r;
    r.name = name;
    r.file = name.rfind("MPI_", 0) == 0 ? "" : "app.c";
    r.paradigm = paradigm;
    p.regions.push_back(r);
    return int(p.regions.size()) - 1;
  };
  // Regions are registered in first-use order, which differs between ranks:
  // the variant region comes first on odd ranks.
  const int variant = rank % 16;
  int var_region = -1;
  if (rank % 2) var_region = region("variant_" + std::to_string(variant), "compiler");
  const int main_r = region("main", "compiler");
  const int send = region("MPI_Send", "mpi"), recv = region("MPI_Recv", "mpi"),
            allreduce = region("MPI_Allreduce", "mpi");
  std::vector<int> solvers, kernels;
  for (int i = 0; i < 20; ++i) solvers.push_back(region("solver_" + std::to_string(i), "compiler"));
  for (int i = 0; i < 5; ++i) kernels.push_back(region("kernel_" + std::to_string(i), "compiler"));
  if (var_region < 0) var_region = region("variant_" + std::to_string(variant), "compiler");

  auto node = [&](int reg, int parent) {
    p.cnodes.push_back({reg, parent});
    return int(p.cnodes.size()) - 1;
  };
  int root = node(main_r, -1);
  for (int s : solvers) {
    int c = node(s, root);
    for (int k : kernels) node(k, c);
    node(send, c), node(recv, c), node(allreduce, c);
  }
  int v = node(var_region, root);
  for (int k : kernels) node(k, v);
  node(allreduce, v);

  for (int t = 0; t < threads; ++t) p.locations.push_back({"thread " + std::to_string(t), 0, t});
  p.excl.assign(p.metrics.size(), std::vector<double>(p.cnodes.size() * p.nloc(), 0.0));
  for (size_t c = 0; c < p.cnodes.size(); ++c)
    for (int t = 0; t < threads; ++t) {
      p.at(0, c, t) = 1e-3 * double((rank + 1) * (c + 1) + t);
      p.at(1, c, t) = double(1 + (c + size_t(rank)) % 7);
      const std::string &name = p.regions[p.cnodes[c].region].name;
      if (name == "MPI_Send") p.at(2, c, t) = 8.0 * (rank + 1), p.at(4, c, t) = 1;
      if (name == "MPI_Recv") p.at(3, c, t) = 8.0 * (rank + 1), p.at(5, c, t) = 1;
    }
  return p;
}

}  // namespace hcc::testing

namespace hcc::testing {

namespace {

// Rank lo's definitions after the rounds with step < span (MPI order:
// own, then the subtree of step 1, of step 2, ...).
mpimerge::Defs reduce(int lo, int span, int ranks, const std::function<profile::Profile(int)> &rank_profile,
                      JobStats &st) {
  if (span == 1) return mpimerge::defs_of(rank_profile(lo));
  mpimerge::Defs a = reduce(lo, span / 2, ranks, rank_profile, st);
  if (lo + span / 2 < ranks) {
    std::string msg = mpimerge::serialize(reduce(lo + span / 2, span / 2, ranks, rank_profile, st));
    st.max_defs_message = std::max(st.max_defs_message, msg.size());
    mpimerge::merge_into(a, mpimerge::deserialize(msg));
  }
  return a;
}

// Rank lo's statistics after the rounds with step < span.
mpimerge::RankStats reduce_stats(int lo, int span, int ranks, const mpimerge::Defs &global,
                                 const std::function<std::string(int)> &packet, JobStats &st) {
  const size_t nm = global.metrics.size(), nc = global.cnodes.size();
  if (span == 1) {
    mpimerge::RankStats s(nm, nc);
    s.add(lo, mpimerge::parse_packet(packet(lo), nm, nc));
    return s;
  }
  mpimerge::RankStats a = reduce_stats(lo, span / 2, ranks, global, packet, st);
  if (lo + span / 2 < ranks) {
    const std::string msg = reduce_stats(lo + span / 2, span / 2, ranks, global, packet, st).serialize();
    st.max_packet = std::max(st.max_packet, msg.size());
    a.merge(mpimerge::RankStats::deserialize(msg, nm, nc));
  }
  return a;
}

// The definitions rank 0 broadcasts; `span`: the tree's width (a power of 2).
mpimerge::Defs global_defs(int ranks, const std::function<profile::Profile(int)> &rank_profile, JobStats &st,
                           int &span) {
  span = 1;
  while (span < ranks) span *= 2;
  const std::string bytes = mpimerge::serialize(mpimerge::canonical(reduce(0, span, ranks, rank_profile, st)));
  st.global_defs = bytes.size();
  return mpimerge::deserialize(bytes);
}

}  // namespace

profile::Profile simulate_mode_job(int ranks, mpimerge::LocationMode mode,
                                   const std::function<profile::Profile(int)> &rank_profile, const std::string &path,
                                   mpimerge::StreamLimits limits, JobStats *stats) {
  using mpimerge::LocationMode;
  auto local_of = [&](int r) {
    profile::Profile p = rank_profile(r);
    if (mode != LocationMode::All) mpimerge::collapse_threads(p);
    return p;
  };
  JobStats st;
  int span = 1;
  const mpimerge::Defs global = global_defs(ranks, local_of, st, span);
  auto packet = [&](int r) {
    profile::Profile local = local_of(r);
    std::string pk = mpimerge::pack_values(local, mpimerge::map_local(global, local), global.metrics.size(),
                                           local.hosts.empty() ? "" : local.hosts[0]);
    st.max_packet = std::max(st.max_packet, pk.size());
    return pk;
  };
  if (mode == LocationMode::Summary) {
    profile::Profile p = reduce_stats(0, span, ranks, global, packet, st).summary_profile(global, ranks);
    p.attrs.emplace_back("mpi ranks", std::to_string(ranks));
    profile::write_cubex(p, path);
    if (stats) *stats = st;
    return p;
  }
  std::vector<int> threads;
  std::vector<std::string> hosts;
  for (int r = 0; r < ranks; ++r) {
    profile::Profile local = local_of(r);
    threads.push_back(int(local.nloc()));
    hosts.push_back(local.hosts.empty() ? "" : local.hosts[0]);
  }
  mpimerge::StreamAssembler sa(global, threads, hosts, mode, limits);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot create " + path);
  sa.open(fd, path, "synthetic machine");
  for (int r : sa.order()) sa.add(r, packet(r));
  profile::Profile text = sa.finish({{"program", "synthetic"}, {"mpi ranks", std::to_string(ranks)}});
  ::close(fd);
  st.matrix = 0;
  if (stats) *stats = st;
  return text;
}

profile::Profile simulate_job(int ranks, const std::function<profile::Profile(int)> &rank_profile, JobStats *stats) {
  JobStats st;
  int span = 1;
  const mpimerge::Defs global = global_defs(ranks, rank_profile, st, span);
  std::vector<int> threads;
  std::vector<std::string> packets;  // only for ranks whose turn it is: one at a time
  // Thread counts are gathered first (one int per rank).
  for (int r = 0; r < ranks; ++r) threads.push_back(int(rank_profile(r).nloc()));
  mpimerge::Assembler as(global, threads);
  st.matrix = as.matrix_bytes();
  for (int r = 0; r < ranks; ++r) {
    profile::Profile local = rank_profile(r);
    std::string packet = mpimerge::pack_values(local, mpimerge::map_local(global, local), global.metrics.size(),
                                               local.hosts.empty() ? "" : local.hosts[0]);
    st.max_packet = std::max(st.max_packet, packet.size());
    as.add(r, packet);
  }
  if (stats) *stats = st;
  return as.take();
}

}  // namespace hcc::testing
