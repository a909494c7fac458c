// hcc — rank 0's side of the merge at up to 131 072 ranks, in a process of
// its own, so its peak memory is measured as the job's rank 0 would see it.
//
// A forked child plays rank 0 exactly as src/mpi_merge.cpp runs it: its
// share of the definitions tree (one message per round), the unified
// definitions, then per location mode either every packet in column order
// streamed into the .cubex (all, process) or its share of the statistics
// tree (summary), and the file written and flushed. The parent plays every
// other rank (synthetic profiles, their subtrees' definitions and
// statistics, their packets) and feeds the child through a pipe. Reported:
// the child's peak RSS, its busy time (wall time minus the time it waited
// for the pipe, i.e. for the simulated ranks), its CPU time, the file size.
//
//   build/bin/bench_mpi_rank0 <ranks> <all|process|summary> [dir]
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cube/cubex.hpp"
#include "merge/rank_stats.hpp"
#include "merge/stream.hpp"
#include "synthetic.hpp"

using namespace hcc;
using Clock = std::chrono::steady_clock;

namespace {

double g_waited = 0;  // seconds the child spent blocked on the pipe
double g_finish = 0;  // seconds of the last step: anchor.xml, the end, fsync

void write_all(int fd, const void *p, size_t n) {
  const char *c = static_cast<const char *>(p);
  while (n > 0) {
    ssize_t w = ::write(fd, c, n);
    if (w <= 0) std::perror("write"), std::exit(2);
    c += w, n -= size_t(w);
  }
}

void read_all(int fd, void *p, size_t n) {
  const auto t0 = Clock::now();
  char *c = static_cast<char *>(p);
  while (n > 0) {
    ssize_t r = ::read(fd, c, n);
    if (r <= 0) std::fprintf(stderr, "short read\n"), std::exit(2);
    c += r, n -= size_t(r);
  }
  g_waited += std::chrono::duration<double>(Clock::now() - t0).count();
}

void send_msg(int fd, const std::string &s) {
  const uint64_t n = s.size();
  write_all(fd, &n, sizeof n);
  write_all(fd, s.data(), s.size());
}

std::string recv_msg(int fd) {
  uint64_t n = 0;
  read_all(fd, &n, sizeof n);
  std::string s(n, '\0');
  read_all(fd, s.data(), n);
  return s;
}

// The synthetic rank (293 call paths in the union) with 8 more under main,
// an I/O phase's functions: 301, the "300 call paths".
profile::Profile rank_profile(int r, mpimerge::LocationMode mode) {
  profile::Profile p = hcc::testing::synthetic_rank(r, 1);
  for (int k = 0; k < 8; ++k) {
    profile::Region g;
    g.name = "io_phase_" + std::to_string(k);
    g.file = "app.c";
    p.regions.push_back(g);
    p.cnodes.push_back({int(p.regions.size()) - 1, 0});
    for (auto &values : p.excl) values.resize(p.cnodes.size() * p.nloc(), 0.0);
    p.at(0, p.cnodes.size() - 1, 0) = 1e-4 * (r + k + 1);
    p.at(1, p.cnodes.size() - 1, 0) = double(k + 1);
  }
  if (mode != mpimerge::LocationMode::All) mpimerge::collapse_threads(p);
  return p;
}

// Definitions of ranks [lo, lo + span) reduced as the tree does.
mpimerge::Defs subtree_defs(int lo, int span, int ranks, mpimerge::LocationMode mode) {
  mpimerge::Defs d = mpimerge::defs_of(rank_profile(lo, mode));
  for (int s = 1; s < span && lo + s < ranks; s <<= 1) mpimerge::merge_into(d, subtree_defs(lo + s, s, ranks, mode));
  return d;
}

std::string packet_of(int r, mpimerge::LocationMode mode, const mpimerge::Defs &global) {
  profile::Profile p = rank_profile(r, mode);
  return mpimerge::pack_values(p, mpimerge::map_local(global, p), global.metrics.size(), p.hosts[0]);
}

mpimerge::RankStats subtree_stats(int lo, int span, int ranks, mpimerge::LocationMode mode,
                                  const mpimerge::Defs &global) {
  const size_t nm = global.metrics.size(), nc = global.cnodes.size();
  mpimerge::RankStats s(nm, nc);
  s.add(lo, mpimerge::parse_packet(packet_of(lo, mode, global), nm, nc));
  for (int k = 1; k < span && lo + k < ranks; k <<= 1) s.merge(subtree_stats(lo + k, k, ranks, mode, global));
  return s;
}

// Rank 0. Returns its exit status; prints one line of figures.
int rank0(int in, int out, int ranks, mpimerge::LocationMode mode, const std::string &path) {
  const auto t0 = Clock::now();
  const profile::Profile local = rank_profile(0, mode);
  mpimerge::Defs defs = mpimerge::defs_of(local);
  for (int step = 1; step < ranks; step <<= 1) mpimerge::merge_into(defs, mpimerge::deserialize(recv_msg(in)));
  const std::string global_bytes = mpimerge::serialize(mpimerge::canonical(defs));
  defs = {};
  send_msg(out, global_bytes);
  const mpimerge::Defs global = mpimerge::deserialize(global_bytes);
  const std::string mine = mpimerge::pack_values(local, mpimerge::map_local(global, local), global.metrics.size(),
                                                 local.hosts[0]);
  const size_t nm = global.metrics.size(), nc = global.cnodes.size();
  size_t columns = 0;
  if (mode == mpimerge::LocationMode::Summary) {
    mpimerge::RankStats stats(nm, nc);
    stats.add(0, mpimerge::parse_packet(mine, nm, nc));
    for (int step = 1; step < ranks; step <<= 1)
      stats.merge(mpimerge::RankStats::deserialize(recv_msg(in), nm, nc));
    profile::Profile p = stats.summary_profile(global, ranks);
    columns = p.nloc();
    profile::write_cubex(p, path);
  } else {
    std::vector<int> threads(static_cast<size_t>(ranks));
    read_all(in, threads.data(), threads.size() * sizeof(int));
    std::vector<std::string> hosts;
    for (int r = 0; r < ranks; ++r) hosts.push_back(recv_msg(in));
    mpimerge::StreamAssembler sa(global, threads, hosts, mode);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return std::perror(path.c_str()), 2;
    sa.open(fd, path, "bench");
    for (int r : sa.order()) sa.add(r, r == 0 ? mine : recv_msg(in));
    const auto f0 = Clock::now();
    sa.finish({{"mpi ranks", std::to_string(ranks)}});
    g_finish = std::chrono::duration<double>(Clock::now() - f0).count();
    ::close(fd);
    columns = sa.columns();
  }
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  struct stat st {};
  ::stat(path.c_str(), &st);
  const double cpu = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  std::printf("%-8s %7d ranks  %3zu call paths  %7zu columns  rank 0: busy %7.3f s  cpu %7.3f s  peak RSS %7.1f MiB  "
              "file %10.1f MiB  (finish %.3f s)\n",
              mpimerge::location_mode_name(mode), ranks, nc, columns, wall - g_waited, cpu,
              double(ru.ru_maxrss) / 1024.0, double(st.st_size) / (1024.0 * 1024.0), g_finish);
  std::fflush(stdout);  // the child leaves by _exit
  return 0;
}

// Every other rank.
void others(int out, int in, int ranks, mpimerge::LocationMode mode) {
  for (int step = 1; step < ranks; step <<= 1) send_msg(out, mpimerge::serialize(subtree_defs(step, step, ranks, mode)));
  const mpimerge::Defs global = mpimerge::deserialize(recv_msg(in));
  if (mode == mpimerge::LocationMode::Summary) {
    for (int step = 1; step < ranks; step <<= 1) send_msg(out, subtree_stats(step, step, ranks, mode, global).serialize());
    return;
  }
  std::vector<int> threads(size_t(ranks), 1);
  write_all(out, threads.data(), threads.size() * sizeof(int));
  std::vector<std::string> hosts;
  for (int r = 0; r < ranks; ++r) hosts.push_back(rank_profile(r, mode).hosts[0]);
  for (const std::string &h : hosts) send_msg(out, h);
  for (int r : mpimerge::column_order(hosts))
    if (r != 0) send_msg(out, packet_of(r, mode, global));
}

}  // namespace

int main(int argc, char **argv) {
  mpimerge::LocationMode mode{};
  if (argc < 3 || std::atoi(argv[1]) < 1 || !mpimerge::parse_location_mode(argv[2], &mode)) {
    std::fprintf(stderr, "usage: %s <ranks> <all|process|summary> [directory]\n", argv[0]);
    return 2;
  }
  const int ranks = std::atoi(argv[1]);
  const std::string dir = argc > 3 ? argv[3] : (std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
  const std::string path = dir + "/bench_rank0." + std::to_string(getpid()) + ".cubex";
  int down[2], up[2];
  if (pipe(down) != 0 || pipe(up) != 0) return std::perror("pipe"), 2;
  const pid_t child = fork();
  if (child == 0) {
    ::close(down[1]), ::close(up[0]);
    _exit(rank0(down[0], up[1], ranks, mode, path));
  }
  ::close(down[0]), ::close(up[1]);
  others(down[1], up[0], ranks, mode);
  ::close(down[1]);
  int status = 0;
  waitpid(child, &status, 0);
  ::unlink(path.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
