// hcc — MPI end to end: programs built through `hcc` (mpicc underneath, or
// plain gcc with -lmpi), run with the real mpirun on 2 and 4 ranks, checked
// through hcc-report --json.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "e2e_support.hpp"

using namespace hcc::e2e;
namespace fs = std::filesystem;

namespace {

// Open MPI refuses root without these; --oversubscribe: 4 ranks on 2 cores.
// `timeout 120` in front: a hang fails the test instead of stalling CTest.
std::string mpirun(int np) {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " + shell_quote(HCC_MPIRUN) + " --oversubscribe -np " + std::to_string(np) + " ";
}

std::string build(const std::string &dir, const std::string &src, const std::string &how) {
  const std::string exe = dir + "/" + how + ".exe";
  const std::string in = shell_quote(programs_dir() + "/" + src);
  std::string cmd;
  if (how == "plain")
    cmd = shell_quote(HCC_MPICC) + " -O1 " + in + " -o " + shell_quote(exe) + " -lpthread";
  else if (how == "hcc")
    cmd = shell_quote(hcc_bin()) + " --hcc-functions=all " + shell_quote(HCC_MPICC) + " -O1 " + in + " -o " + shell_quote(exe) + " -lpthread";
  else  // plain gcc with the MPI flags spelt out: -lmpi must bring the wrappers too
    cmd = "HCC_COMPILER=gcc " + shell_quote(hcc_bin()) + " --hcc-functions=all -O1 $(" + shell_quote(HCC_MPICC) + " --showme:compile) " +
          in + " -o " + shell_quote(exe) + " $(" + shell_quote(HCC_MPICC) + " --showme:link) -lpthread";
  RunResult r = run(cmd);
  EXPECT_EQ(r.status, 0) << cmd << "\n" << r.err;
  return exe;
}

// Sum over the call paths whose path is `path` of metric (excl) at `loc`.
double at(const Profile &p, const std::string &path, const std::string &metric, int loc) {
  double v = 0;
  for (size_t c = 0; c < p.json()["callpaths"].size(); ++c)
    if (p.path(int(c)) == path) v += p.value(int(c), metric, "excl", loc);
  return v;
}

// Over every call path of the region named `region`, wherever it hangs.
double of_region(const Profile &p, const std::string &region, const std::string &metric, int loc) {
  double v = 0;
  for (size_t c = 0; c < p.json()["callpaths"].size(); ++c)
    if (Profile::short_name(p.region_name(int(c))) == region) v += p.value(int(c), metric, "excl", loc);
  return v;
}

double total(const Profile &p, const std::string &metric, int loc) {
  double v = 0;
  for (size_t c = 0; c < p.json()["callpaths"].size(); ++c) v += p.value(int(c), metric, "excl", loc);
  return v;
}

// Location id of (rank, thread 0).
int loc_of(const Profile &p, int rank) {
  for (const auto &l : p.json()["locations"])
    if (l["rank"] == rank && l["thread"] == 0) return l["id"].get<int>();
  return -1;
}

void check_ring(int np, const std::string &how) {
  const std::string dir = scratch_dir("ring-" + how + "-" + std::to_string(np));
  const std::string plain = build(dir, "ring.c", "plain");
  const std::string inst = build(dir, "ring.c", how);
  const RunResult a = run(mpirun(np) + shell_quote(plain));
  const std::string out = dir + "/out";
  const RunResult b = run("HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(np) + shell_quote(inst));
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(a.out, b.out);  // the program prints the same
  EXPECT_NE(b.out.find("ranks " + std::to_string(np)), std::string::npos) << b.out;

  // One merged profile, no per-rank files.
  std::vector<std::string> files;
  for (const auto &e : fs::directory_iterator(out)) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"profile.cubex", "summary.txt"}));

  const Profile p = Profile::load(out);
  // ranks x 2 threads, rank numbers right, thread 0 and 1 of each.
  ASSERT_EQ(p.locations(), size_t(2 * np));
  std::map<std::pair<int, int>, int> seen;
  for (const auto &l : p.json()["locations"]) ++seen[{l["rank"].get<int>(), l["thread"].get<int>()}];
  for (int r = 0; r < np; ++r)
    for (int t = 0; t < 2; ++t) EXPECT_EQ((seen[{r, t}]), 1) << r << "/" << t;

  for (int r = 0; r < np; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const int l = loc_of(p, r);
    ASSERT_GE(l, 0);
    // blocking: 1000 ints = 4000 bytes each way, one message
    EXPECT_EQ(at(p, "main/ring_blocking/MPI_Send", "bytes_sent", l), 4000);
    EXPECT_EQ(at(p, "main/ring_blocking/MPI_Send", "messages_sent", l), 1);
    EXPECT_EQ(at(p, "main/ring_blocking/MPI_Recv", "bytes_received", l), 4000);
    EXPECT_EQ(at(p, "main/ring_blocking/MPI_Recv", "messages_received", l), 1);
    // non-blocking: 3 rounds of 500 doubles; receives counted at MPI_Waitall
    EXPECT_EQ(at(p, "main/ring_nonblocking/MPI_Isend", "bytes_sent", l), 12000);
    EXPECT_EQ(at(p, "main/ring_nonblocking/MPI_Isend", "messages_sent", l), 3);
    EXPECT_EQ(at(p, "main/ring_nonblocking/MPI_Irecv", "bytes_received", l), 0);
    EXPECT_EQ(at(p, "main/ring_nonblocking/MPI_Waitall", "bytes_received", l), 12000);
    EXPECT_EQ(at(p, "main/ring_nonblocking/MPI_Waitall", "messages_received", l), 3);
    EXPECT_EQ(p.visits("main/ring_nonblocking/MPI_Waitall") >= 3, true);
    // polling with MPI_Test (no region by default): bytes at the caller
    EXPECT_EQ(at(p, "main/ring_polling", "bytes_received", l), 400);
    EXPECT_EQ(at(p, "main/ring_polling", "messages_received", l), 1);
    EXPECT_EQ(at(p, "main/ring_polling/MPI_Isend", "bytes_sent", l), 400);
    EXPECT_EQ(at(p, "main/ring_polling/MPI_Wait", "bytes_received", l), 0);
    // collectives: allreduce 16 doubles = 128 out and 128 in; bcast 10 ints
    EXPECT_EQ(at(p, "main/collectives/MPI_Allreduce", "bytes_sent", l), 128);
    EXPECT_EQ(at(p, "main/collectives/MPI_Allreduce", "bytes_received", l), 128);
    EXPECT_EQ(at(p, "main/collectives/MPI_Bcast", "bytes_sent", l), r == 0 ? 40 : 0);
    EXPECT_EQ(at(p, "main/collectives/MPI_Bcast", "bytes_received", l), r == 0 ? 0 : 40);
    EXPECT_EQ(at(p, "main/collectives/MPI_Allreduce", "messages_sent", l), 0);
    // MPI_Reduce of one long long to root 0: 8 out everywhere, 8 in at root
    EXPECT_EQ(at(p, "main/MPI_Reduce", "bytes_sent", l), 8);
    EXPECT_EQ(at(p, "main/MPI_Reduce", "bytes_received", l), r == 0 ? 8 : 0);
    // and nothing else anywhere
    EXPECT_EQ(total(p, "bytes_sent", l), 4000 + 12000 + 400 + 128 + (r == 0 ? 40 : 0) + 8);
    EXPECT_EQ(total(p, "bytes_received", l), 4000 + 12000 + 400 + 128 + (r == 0 ? 0 : 40) + (r == 0 ? 8 : 0));
    EXPECT_EQ(total(p, "messages_sent", l), 5);
    EXPECT_EQ(total(p, "messages_received", l), 5);
    EXPECT_EQ(p.total_visits("MPI_Test"), 0);
    EXPECT_EQ(total(p, "bytes_read", l), 0);
    EXPECT_EQ(at(p, "main/MPI_Init_thread", "visits", l), 1);
    EXPECT_EQ(at(p, "main/MPI_Finalize", "visits", l), 1);
    // MPI_Comm_rank is in MISC, off by default
    EXPECT_EQ(p.total_visits("MPI_Comm_rank"), 0);
  }
  // Different trees per rank: only rank 1 ran only_rank_one.
  EXPECT_EQ(p.visits("main/only_rank_one"), 1);
  EXPECT_EQ(at(p, "main/only_rank_one", "visits", loc_of(p, 1)), 1);
  // The worker threads are locations of their rank.
  EXPECT_EQ(p.total_visits("worker"), np);

  // The summary has the MPI section.
  const std::string summary = read_file(out + "/summary.txt");
  EXPECT_NE(summary.find("MPI TIME PER RANK"), std::string::npos);
  EXPECT_NE(summary.find("MPI CALLS OVER RANKS"), std::string::npos);
}

TEST(MpiE2E, RingTwoRanksThroughMpicc) { check_ring(2, "hcc"); }
TEST(MpiE2E, RingFourRanksThroughMpicc) { check_ring(4, "hcc"); }
TEST(MpiE2E, RingTwoRanksPlainCompilerWithLmpi) { check_ring(2, "lmpi"); }

// 64 ranks on 2 cores, once per HCC_LOCATIONS: one profile that our CUBE
// reader (through hcc-report) reads, the ring's bytes exact per call path
// summed over ranks, and per rank where the mode keeps ranks.
TEST(MpiE2E, SixtyFourRanksInEveryLocationMode) {
  const int np = 64;
  const std::string dir = scratch_dir("ring-64");
  const std::string inst = build(dir, "ring.c", "hcc");
  auto sum = [](const Profile &p, const std::string &path, const std::string &metric) {
    double v = 0;
    for (size_t l = 0; l < p.locations(); ++l) v += at(p, path, metric, int(l));
    return v;
  };
  for (const std::string mode : {"all", "process", "summary"}) {
    SCOPED_TRACE("HCC_LOCATIONS=" + mode);
    const std::string out = dir + "/out-" + mode;
    const RunResult r = run("HCC_LOCATIONS=" + mode + " HCC_OUTPUT_DIR=" + shell_quote(out) + " " +
                            mpirun(np) + shell_quote(inst));
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> files;
    for (const auto &e : fs::directory_iterator(out)) files.push_back(e.path().filename().string());
    std::sort(files.begin(), files.end());
    EXPECT_EQ(files, (std::vector<std::string>{"profile.cubex", "summary.txt"}));
    const Profile p = Profile::load(out);
    EXPECT_EQ(p.locations(), mode == "all" ? size_t(2 * np) : mode == "process" ? size_t(np) : size_t(1));
    // Summed over ranks, whatever the mode.
    EXPECT_EQ(sum(p, "main/ring_blocking/MPI_Send", "bytes_sent"), 4000.0 * np);
    EXPECT_EQ(sum(p, "main/ring_blocking/MPI_Recv", "bytes_received"), 4000.0 * np);
    EXPECT_EQ(sum(p, "main/ring_nonblocking/MPI_Waitall", "bytes_received"), 12000.0 * np);
    EXPECT_EQ(sum(p, "main/collectives/MPI_Bcast", "bytes_sent"), 40.0);
    EXPECT_EQ(sum(p, "main/collectives/MPI_Bcast", "bytes_received"), 40.0 * (np - 1));
    EXPECT_EQ(sum(p, "main/MPI_Reduce", "bytes_received"), 8.0);
    EXPECT_EQ(p.visits("main/only_rank_one"), 1);
    EXPECT_EQ(p.total_visits("worker"), np);
    const std::string summary = read_file(out + "/summary.txt");
    if (mode == "summary") {
      // Statistics over ranks: the root alone received the Bcast's 0 and
      // sent its 40 bytes; everyone sent 4000 in the blocking ring.
      EXPECT_EQ(sum(p, "main/collectives/MPI_Bcast", "bytes_sent_rank_max"), 40.0);
      EXPECT_EQ(sum(p, "main/collectives/MPI_Bcast", "bytes_sent_rank_max_at"), 0.0);
      EXPECT_EQ(sum(p, "main/collectives/MPI_Bcast", "bytes_received_rank_min"), 0.0);
      EXPECT_EQ(sum(p, "main/collectives/MPI_Bcast", "bytes_received_rank_max"), 40.0);
      EXPECT_EQ(sum(p, "main/ring_blocking/MPI_Send", "bytes_sent_rank_min"), 4000.0);
      EXPECT_EQ(sum(p, "main/ring_blocking/MPI_Send", "bytes_sent_rank_mean"), 4000.0);
      EXPECT_EQ(sum(p, "main/only_rank_one", "visits_rank_max_at"), 1.0);
      EXPECT_EQ(sum(p, "main/only_rank_one", "visits_rank_min"), 0.0);
      EXPECT_NE(summary.find("MPI CALL PATHS OVER RANKS"), std::string::npos) << summary;
      EXPECT_NE(summary.find("the sum and statistics over 64 MPI ranks"), std::string::npos) << summary;
      continue;
    }
    for (int rank : {0, 1, 37, 63}) {
      SCOPED_TRACE("rank " + std::to_string(rank));
      const int l = loc_of(p, rank);
      ASSERT_GE(l, 0);
      EXPECT_EQ(at(p, "main/ring_blocking/MPI_Send", "bytes_sent", l), 4000);
      EXPECT_EQ(at(p, "main/collectives/MPI_Bcast", "bytes_received", l), rank == 0 ? 0 : 40);
      EXPECT_EQ(at(p, "main/only_rank_one", "visits", l), rank == 1 ? 1 : 0);
    }
    EXPECT_NE(summary.find("MPI TIME PER RANK"), std::string::npos);
  }
}

// --hcc-functions=none: no function of the program is a region, the MPI
// calls still are (the wrappers are linked whatever the instrumentor did),
// with exact bytes, now at the root of the tree (with HCC_SAMPLING, below
// the callers that unwinding finds: sampled regions without visits).
TEST(MpiE2E, FunctionsNoneKeepsTheMpiCalls) {
  const std::string dir = scratch_dir("ring-functions-none");
  const std::string exe = dir + "/none.exe";
  RunResult c = run(shell_quote(hcc_bin()) + " --hcc-functions=none " + shell_quote(HCC_MPICC) + " -O1 " +
                    shell_quote(programs_dir() + "/ring.c") + " -o " + shell_quote(exe) + " -lpthread");
  ASSERT_EQ(c.status, 0) << c.err;
  const std::string out = dir + "/out";
  RunResult r = run("HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(2) + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  const Profile p = Profile::load(out);
  for (int rank = 0; rank < 2; ++rank) {
    const int l = loc_of(p, rank);
    ASSERT_GE(l, 0);
    EXPECT_EQ(of_region(p, "MPI_Send", "bytes_sent", l), 4000);
    EXPECT_EQ(of_region(p, "MPI_Allreduce", "bytes_sent", l), 128);
    EXPECT_EQ(of_region(p, "MPI_Init_thread", "visits", l), 1);
    const bool sampled = std::any_of(p.json()["regions"].begin(), p.json()["regions"].end(),
                                     [](const auto &r) { return r["kind"] == "sampled"; });
    if (!sampled) EXPECT_EQ(at(p, "MPI_Send", "bytes_sent", l), 4000) << "not at the root";
  }
  for (const char *function : {"main", "ring_blocking", "collectives", "only_rank_one", "worker"})
    EXPECT_EQ(p.total_visits(function), 0) << function;
}

TEST(MpiE2E, GroupsSwitchOff) {
  const std::string dir = scratch_dir("groups");
  const std::string exe = build(dir, "ring.c", "hcc");
  const std::string out = dir + "/out";
  RunResult r = run("HCC_MPI_GROUPS=-P2P,XREQTEST,MISC HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(2) +
                    shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  const Profile p = Profile::load(out);
  EXPECT_EQ(p.total_visits("MPI_Send"), 0);
  EXPECT_EQ(p.total_visits("MPI_Waitall"), 0);
  EXPECT_EQ(p.total_visits("MPI_Allreduce"), 2);
  EXPECT_EQ(p.total_visits("MPI_Comm_rank"), 2);  // MISC switched on
  // MPI_Irecv is P2P too: nothing tracked, nothing counted at completion.
  EXPECT_EQ(at(p, "main/ring_nonblocking", "bytes_received", loc_of(p, 0)), 0);
  EXPECT_EQ(at(p, "main/collectives/MPI_Allreduce", "bytes_received", loc_of(p, 0)), 128);
  EXPECT_GT(p.total_visits("MPI_Test"), 0);  // XREQTEST switched on

  RunResult bad = run("HCC_MPI_GROUPS=P2P,BOGUS HCC_OUTPUT_DIR=" + shell_quote(dir + "/out2") + " " + mpirun(2) +
                      shell_quote(exe));
  EXPECT_EQ(bad.status, 0);
  EXPECT_NE(bad.err.find("BOGUS"), std::string::npos) << bad.err;
}

// MPI_THREAD_MULTIPLE: both workers of every rank communicate at once; each
// worker location has exactly its own messages.
TEST(MpiE2E, ThreadMultipleCountsPerThread) {
  const std::string dir = scratch_dir("threads");
  const std::string plain = build(dir, "threads.c", "plain");
  const std::string exe = build(dir, "threads.c", "hcc");
  const std::string out = dir + "/out";
  RunResult a = run(mpirun(2) + shell_quote(plain));
  RunResult r = run("HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(2) + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(a.out, r.out);
  if (r.out.find("no MPI_THREAD_MULTIPLE") != std::string::npos) GTEST_SKIP() << "MPI without THREAD_MULTIPLE";
  const Profile p = Profile::load(out);
  ASSERT_EQ(p.locations(), 6u);  // 2 ranks x (main + 2 workers)
  int workers = 0;
  for (const auto &l : p.json()["locations"]) {
    const int id = l["id"].get<int>();
    if (l["thread"] == 0) {
      EXPECT_EQ(at(p, "main/MPI_Allreduce", "bytes_sent", id), 8);
      EXPECT_EQ(total(p, "messages_sent", id), 0);
      continue;
    }
    ++workers;
    SCOPED_TRACE("location " + std::to_string(id));
    EXPECT_EQ(at(p, "worker/MPI_Isend", "bytes_sent", id), 20 * 400);
    EXPECT_EQ(at(p, "worker/MPI_Waitall", "bytes_received", id), 20 * 400);
    EXPECT_EQ(at(p, "worker/MPI_Waitall", "messages_received", id), 20);
    EXPECT_EQ(at(p, "worker/MPI_Sendrecv", "bytes_sent", id), 20 * 400);
    EXPECT_EQ(at(p, "worker/MPI_Sendrecv", "bytes_received", id), 20 * 400);
    EXPECT_EQ(total(p, "messages_sent", id), 40);
    EXPECT_EQ(total(p, "messages_received", id), 40);
  }
  EXPECT_EQ(workers, 4);
}

// Other families, 2 ranks, every count known (buffer rule, wrappers/README.md).
TEST(MpiE2E, FamiliesCountExactly) {
  const std::string dir = scratch_dir("families");
  const std::string exe = build(dir, "families.c", "hcc");
  const std::string out = dir + "/out";
  RunResult r = run("cd " + shell_quote(dir) + " && HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(2) +
                    shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  const Profile p = Profile::load(out);
  for (int rank = 0; rank < 2; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const int l = loc_of(p, rank);
    const bool root = rank == 0;
    // persistent: 3 x 50 ints per MPI_Startall, received at MPI_Waitall
    EXPECT_EQ(at(p, "main/persistent/MPI_Startall", "bytes_sent", l), 600);
    EXPECT_EQ(at(p, "main/persistent/MPI_Startall", "messages_sent", l), 3);
    EXPECT_EQ(at(p, "main/persistent/MPI_Waitall", "bytes_received", l), 600);
    EXPECT_EQ(at(p, "main/persistent/MPI_Waitall", "messages_received", l), 3);
    EXPECT_EQ(at(p, "main/persistent/MPI_Send_init", "bytes_sent", l), 0);
    // gather 4 ints to root 0; scatter 3 doubles from root 0
    EXPECT_EQ(at(p, "main/rooted/MPI_Gather", "bytes_sent", l), 16);
    EXPECT_EQ(at(p, "main/rooted/MPI_Gather", "bytes_received", l), root ? 32 : 0);
    EXPECT_EQ(at(p, "main/rooted/MPI_Scatter", "bytes_sent", l), root ? 48 : 0);
    EXPECT_EQ(at(p, "main/rooted/MPI_Scatter", "bytes_received", l), 24);
    // alltoall 2 ints per rank; allgatherv counts {1,2}; reduce_scatter_block 2 doubles
    EXPECT_EQ(at(p, "main/all_to_all/MPI_Alltoall", "bytes_sent", l), 16);
    EXPECT_EQ(at(p, "main/all_to_all/MPI_Alltoall", "bytes_received", l), 16);
    EXPECT_EQ(at(p, "main/all_to_all/MPI_Allgatherv", "bytes_sent", l), 4 * (rank + 1));
    EXPECT_EQ(at(p, "main/all_to_all/MPI_Allgatherv", "bytes_received", l), 12);
    EXPECT_EQ(at(p, "main/all_to_all/MPI_Reduce_scatter_block", "bytes_sent", l), 32);
    EXPECT_EQ(at(p, "main/all_to_all/MPI_Reduce_scatter_block", "bytes_received", l), 16);
    // 1-D periodic cartesian: 2 neighbours (both sides), 1 int each
    EXPECT_EQ(at(p, "main/neighbours/MPI_Neighbor_alltoall", "bytes_sent", l), 8);
    EXPECT_EQ(at(p, "main/neighbours/MPI_Neighbor_alltoall", "bytes_received", l), 8);
    // RMA: origin bytes
    EXPECT_EQ(at(p, "main/one_sided/MPI_Put", "bytes_sent", l), 12);
    EXPECT_EQ(at(p, "main/one_sided/MPI_Get", "bytes_received", l), 8);
    EXPECT_EQ(at(p, "main/one_sided/MPI_Win_fence", "visits", l), 3);
    // MPI-IO
    EXPECT_EQ(at(p, "main/file_io/MPI_File_write_at", "bytes_written", l), 256);
    EXPECT_EQ(at(p, "main/file_io/MPI_File_read_at", "bytes_read", l), 256);
    EXPECT_EQ(total(p, "bytes_read", l), 256);
    // Sendrecv_replace 10 ints
    EXPECT_EQ(at(p, "main/replace/MPI_Sendrecv_replace", "bytes_sent", l), 40);
    EXPECT_EQ(at(p, "main/replace/MPI_Sendrecv_replace", "bytes_received", l), 40);
    EXPECT_EQ(total(p, "messages_sent", l), 4);
    EXPECT_EQ(total(p, "messages_received", l), 4);
  }
}

// Without HCC_OUTPUT_DIR: rank 0 makes the one ./hcc-<program>-<time>
// directory; the other ranks create nothing.
// MPI + OpenMP: a location per rank and thread; on every rank the workers'
// calls sit below the parallel region below main, and the MPI calls stay on
// the master thread.
TEST(MpiE2E, HybridOpenMpGivesRankTimesThreadLocations) {
  const std::string dir = scratch_dir("hybrid");
  const std::string src = shell_quote(programs_dir() + "/hybrid.c");
  const std::string plain = dir + "/plain.exe", inst = dir + "/hcc.exe";
  const RunResult bp = run(shell_quote(HCC_MPICC) + " -fopenmp -O1 " + src + " -o " + shell_quote(plain));
  const RunResult bi =
      run(shell_quote(hcc_bin()) + " --hcc-functions=all " + shell_quote(HCC_MPICC) + " -fopenmp -O1 " + src + " -o " + shell_quote(inst));
  ASSERT_EQ(bp.status, 0) << bp.err;
  ASSERT_EQ(bi.status, 0) << bi.err;
  const RunResult a = run("OMP_NUM_THREADS=2 " + mpirun(2) + shell_quote(plain));
  const std::string out = dir + "/out";
  const RunResult b = run("OMP_NUM_THREADS=2 HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(2) + shell_quote(inst));
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(a.out, b.out);

  const Profile p = Profile::load(out);
  std::set<std::pair<int, int>> seen;
  for (const auto &l : p.json()["locations"]) seen.insert({l["rank"].get<int>(), l["thread"].get<int>()});
  EXPECT_EQ(seen, (std::set<std::pair<int, int>>{{0, 0}, {0, 1}, {1, 0}, {1, 1}}));
  ASSERT_EQ(p.locations(), 4u);

  // 8 iterations, static schedule, 2 threads: `work` runs 4 times on every
  // location, always below main → parallel region.
  const auto &cps = p.json()["callpaths"];
  for (const int c : p.callpaths_where([](const std::string &n) { return n == "work"; })) {
    bool under_parallel = false;
    int root = c;
    for (int q = cps[c]["parent"].get<int>(); q >= 0; q = cps[q]["parent"].get<int>()) {
      if (p.region_name(q).find("omp parallel") != std::string::npos) under_parallel = true;
      root = q;
    }
    EXPECT_TRUE(under_parallel) << p.path(c);
    EXPECT_EQ(p.region_name(root), "main") << p.path(c);
    for (int l = 0; l < 4; ++l) EXPECT_EQ(p.value(c, "visits", "excl", l), 4.0) << "location " << l;
  }
  EXPECT_EQ(p.total_visits("work"), 16);
  for (int rank = 0; rank < 2; ++rank) EXPECT_EQ(at(p, "main/MPI_Allreduce", "visits", loc_of(p, rank)), 1.0);
  EXPECT_EQ(p.total_visits("MPI_Allreduce"), 2);  // thread 1 of each rank makes no MPI call
}

// MPI + OpenMP, rank x thread order: location (r, k) is OpenMP thread k of
// rank r (runtime/core/thread_state.hpp), which calls tick() k + 1 times per
// region; the thread start order is random, so the run is repeated.
TEST(MpiE2E, HybridLocationsAreRankTimesOpenMpThreadNumber) {
  const std::string dir = scratch_dir("hybrid-numbers");
  const std::string src = shell_quote(programs_dir() + "/hybrid_numbers.c");
  const std::string inst = dir + "/hcc.exe";
  const RunResult bi = run(shell_quote(hcc_bin()) + " --hcc-functions=all " + shell_quote(HCC_MPICC) + " -fopenmp -O1 " +
                           src + " -o " + shell_quote(inst));
  ASSERT_EQ(bi.status, 0) << bi.err;
  for (int rep = 0; rep < 3; ++rep) {
    SCOPED_TRACE("run " + std::to_string(rep));
    const std::string out = dir + "/out" + std::to_string(rep);
    const RunResult b = run("OMP_DYNAMIC=false HCC_VERBOSE=0 HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(2) +
                            shell_quote(inst));
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_EQ(b.out, "total 120\n");
    const Profile p = Profile::load(out);
    ASSERT_EQ(p.locations(), 6u);
    const std::vector<int> ticks = p.callpaths_where([](const std::string &n) { return n == "tick"; });
    for (int l = 0; l < 6; ++l) {
      const auto &loc = p.json()["locations"][l];
      EXPECT_EQ(loc["rank"].get<int>(), l / 3);
      EXPECT_EQ(loc["thread"].get<int>(), l % 3);
      double v = 0;
      for (int c : ticks) v += p.value(c, "visits", "excl", l);
      EXPECT_EQ(v, 2.0 * (l % 3 + 1)) << "location " << l;
      // The MPI call is the master's (thread 0) on each rank.
      EXPECT_EQ(at(p, "main/MPI_Allreduce", "visits", l), l % 3 == 0 ? 1.0 : 0.0) << "location " << l;
    }
    const RunResult anchor = run("tar -xOf " + shell_quote(out + "/profile.cubex") + " anchor.xml");
    EXPECT_NE(anchor.out.find("key=\"openmp thread numbers of rank 0\" value=\"0 1 2\""), std::string::npos);
  }
}

TEST(MpiE2E, DefaultDirectoryOnlyFromRankZero) {
  const std::string dir = scratch_dir("defaultdir");
  const std::string exe = build(dir, "ring.c", "hcc");
  const std::string cwd = dir + "/run";
  fs::create_directories(cwd);
  RunResult r = run("cd " + shell_quote(cwd) + " && " + mpirun(4) + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> entries;
  for (const auto &e : fs::directory_iterator(cwd)) entries.push_back(e.path().filename().string());
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].rfind("hcc-hcc.exe-", 0), 0u) << entries[0];
  std::vector<std::string> files;
  for (const auto &e : fs::directory_iterator(cwd + "/" + entries[0])) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"profile.cubex", "summary.txt"}));
  // One "profile written" line, from rank 0.
  size_t lines = 0;
  for (size_t pos = 0; (pos = r.err.find("hcc: profile written", pos)) != std::string::npos; ++pos) ++lines;
  EXPECT_EQ(lines, 1u) << r.err;
}

// samples/mpi: the late rank (the last) waits least in MPI_Allreduce. Not a
// timing threshold: it computes 4x longer before every MPI_Allreduce.
TEST(MpiE2E, SampleLateSenderShowsWaiting) {
  const std::string dir = scratch_dir("late");
  const std::string exe = dir + "/late";
  const std::string src = shell_quote(samples_dir() + "/mpi/late_sender.c");
  RunResult b = run(shell_quote(hcc_bin()) + " --hcc-functions=all " + shell_quote(HCC_MPICC) + " -O2 -DWORK=3000000 -DSTEPS=10 " + src +
                    " -o " + shell_quote(exe));
  ASSERT_EQ(b.status, 0) << b.err;
  const std::string out = dir + "/out";
  RunResult r = run("HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(4) + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("ranks 4 steps 10"), std::string::npos);
  const Profile p = Profile::load(out);
  std::vector<double> wait;
  for (int rank = 0; rank < 4; ++rank) wait.push_back(at(p, "main/global_residual/MPI_Allreduce", "time", loc_of(p, rank)));
  EXPECT_EQ(std::min_element(wait.begin(), wait.end()) - wait.begin(), 3)
      << wait[0] << " " << wait[1] << " " << wait[2] << " " << wait[3];
  RunResult rep = run(shell_quote(report_bin()) + " --mpi " + shell_quote(out));
  ASSERT_EQ(rep.status, 0);
  EXPECT_NE(rep.out.find("MPI TIME PER RANK"), std::string::npos);
  EXPECT_NE(rep.out.find("main \u2192 global_residual \u2192 MPI_Allreduce"), std::string::npos) << rep.out;
  EXPECT_NE(rep.out.find("MPI_Allreduce"), std::string::npos);
}

std::vector<std::string> cubex_files(const std::string &dir) {
  std::vector<std::string> files;
  if (!fs::exists(dir)) return files;
  for (const auto &e : fs::directory_iterator(dir))
    if (e.path().extension() == ".cubex") files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(MpiE2E, NoFinalizeEveryRankWritesItsOwn) {
  const std::string dir = scratch_dir("nofinalize");
  const std::string exe = build(dir, "no_finalize.c", "hcc");
  const std::string out = dir + "/out";
  run("HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(2) + shell_quote(exe) + " exit");
  EXPECT_EQ(cubex_files(out), (std::vector<std::string>{"profile.rank-0.cubex", "profile.rank-1.cubex"}));
  const Profile p = Profile::load(out + "/profile.rank-1.cubex");
  EXPECT_EQ(p.visits("main/work/MPI_Allreduce"), 1);
  EXPECT_EQ(p.json()["locations"].size(), 1u);

  // The same job again into the same directory: the first run's files stay.
  run("HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(2) + shell_quote(exe) + " exit");
  EXPECT_EQ(cubex_files(out), (std::vector<std::string>{"profile-1.rank-0.cubex", "profile-1.rank-1.cubex",
                                                         "profile.rank-0.cubex", "profile.rank-1.cubex"}));
  EXPECT_EQ(Profile::load(out + "/profile-1.rank-1.cubex").visits("main/work/MPI_Allreduce"), 1);
}

// Two MPI runs into one HCC_OUTPUT_DIR: rank 0 writes the second merged
// profile beside the first, which is kept, and says so.
TEST(MpiE2E, SecondRunIntoTheSameDirectoryKeepsTheFirst) {
  const std::string dir = scratch_dir("tworuns");
  const std::string exe = build(dir, "ring.c", "hcc");
  const std::string out = dir + "/out";
  const std::string cmd = "HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(2) + shell_quote(exe);
  ASSERT_EQ(run(cmd).status, 0);
  const RunResult second = run(cmd);
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(cubex_files(out), (std::vector<std::string>{"profile-1.cubex", "profile.cubex"}));
  EXPECT_NE(second.err.find("hcc: profile written to " + out + "/profile-1.cubex\n"), std::string::npos)
      << second.err;
  EXPECT_NE(second.err.find("already held profile.cubex or summary.txt of an earlier run"), std::string::npos)
      << second.err;
  for (const char *name : {"/profile.cubex", "/profile-1.cubex"}) {
    const Profile p = Profile::load(out + name);
    EXPECT_EQ(p.locations(), 4u) << name;  // 2 ranks x 2 threads, in both
  }
}

// A rank's own profile says which rank of how many it is (hcc-report names
// the ranks that wrote none from it).
std::string anchor_of(const std::string &cubex) { return run("tar -xOf " + shell_quote(cubex) + " anchor.xml").out; }

bool has_attr(const std::string &anchor, const std::string &key, const std::string &value) {
  return anchor.find("<attr key=\"" + key + "\" value=\"" + value + "\"/>") != std::string::npos;
}

// killed_rank.c: rank 2 dies by SIGKILL; mpirun then ends the others
// (SIGCONT, 1 s later SIGTERM, 1 s later SIGKILL: odls_base_sigkill_timeout).
// Each survivor writes its own profile from the SIGTERM, with its own exact
// visits, whether it was computing or waiting in the merge inside
// MPI_Finalize; rank 2's is absent and hcc-report names it.
void check_killed_rank(const std::string &mode, const std::string &out, const std::string &exe,
                       const std::vector<std::string> &files) {
  const RunResult r = run("HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(4) + shell_quote(exe) + " " + mode);
  ASSERT_NE(r.status, 124) << "mpirun hung\n" << r.err;
  EXPECT_NE(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("finished"), std::string::npos) << r.out;
  const std::vector<std::string> all = cubex_files(out);
  for (const std::string &f : files) ASSERT_NE(std::find(all.begin(), all.end(), f), all.end()) << f << "\n" << r.err;
  for (const std::string &f : all) EXPECT_EQ(f.find("rank-2."), std::string::npos) << f;
  EXPECT_EQ(std::find(all.begin(), all.end(), "profile.cubex"), all.end());
  const int survivors[] = {0, 1, 3};
  for (int i = 0; i < 3; ++i) {
    const int rank = survivors[i];
    const std::string file = out + "/" + files[size_t(i)];
    const Profile p = Profile::load(file);
    EXPECT_EQ(p.visits("main/work/step"), 100 + 10 * rank) << file;
    EXPECT_EQ(p.json()["locations"].size(), 1u) << file;
    if (mode == "finalizing") {
      EXPECT_EQ(p.visits("main/MPI_Send"), 1) << file;
      EXPECT_EQ(p.visits("main/MPI_Finalize"), 1) << file;  // the SIGTERM came inside it
    } else {
      EXPECT_EQ(p.visits("main/MPI_Recv"), 1) << file;
      EXPECT_EQ(p.total_visits("MPI_Finalize"), 0) << file;
    }
    const std::string anchor = anchor_of(file);
    EXPECT_TRUE(has_attr(anchor, "mpi rank", std::to_string(rank))) << file;
    EXPECT_TRUE(has_attr(anchor, "mpi ranks", "4")) << file;
  }
  // The directory: rank 0's profile, and which rank left none.
  const RunResult rep = run(shell_quote(report_bin()) + " " + shell_quote(out));
  ASSERT_EQ(rep.status, 0) << rep.err;
  EXPECT_NE(rep.err.find("the MPI job of 4 ranks did not reach MPI_Finalize together"), std::string::npos) << rep.err;
  EXPECT_NE(rep.err.find("no profile from rank 2 (1 of 4 ranks"), std::string::npos) << rep.err;
  EXPECT_NE(rep.err.find("Reading rank 0's, " + files[0]), std::string::npos) << rep.err;
  EXPECT_NE(rep.out.find("step"), std::string::npos) << rep.out;
  // One rank's file named: the same news.
  const RunResult one = run(shell_quote(report_bin()) + " --tree " + shell_quote(out + "/" + files[2]));
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_NE(one.err.find(files[2] + " is rank 3's own profile of an MPI job of 4 ranks"), std::string::npos) << one.err;
  EXPECT_NE(one.err.find("no profile from rank 2 (1 of 4 ranks"), std::string::npos) << one.err;
}

TEST(MpiE2E, KilledRankWhileOthersComputeTheyWriteTheirOwn) {
  const std::string dir = scratch_dir("killed-computing");
  const std::string exe = build(dir, "killed_rank.c", "hcc");
  const std::string out = dir + "/out";
  // An earlier job of 2 ranks left profile.rank-0 and -1 in the directory:
  // the killed job's ranks 0 and 1 write profile-1.rank-*, its rank 3
  // profile.rank-3 (no earlier file of that name). The report must still
  // take the newest job's files only, and rank 2 of 4 as missing.
  const std::string earlier = build(scratch_dir("killed-computing-earlier"), "no_finalize.c", "hcc");
  run("HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(2) + shell_quote(earlier) + " exit");
  ASSERT_EQ(cubex_files(out), (std::vector<std::string>{"profile.rank-0.cubex", "profile.rank-1.cubex"}));
  check_killed_rank("computing", out, exe, {"profile-1.rank-0.cubex", "profile-1.rank-1.cubex", "profile.rank-3.cubex"});
}

TEST(MpiE2E, KilledRankWhileOthersMergeTheyWriteTheirOwn) {
  const std::string dir = scratch_dir("killed-finalizing");
  const std::string exe = build(dir, "killed_rank.c", "hcc");
  check_killed_rank("finalizing", dir + "/out", exe,
                    {"profile.rank-0.cubex", "profile.rank-1.cubex", "profile.rank-3.cubex"});
}

TEST(MpiE2E, AbortWritesTheAbortingRank) {
  const std::string dir = scratch_dir("abort");
  const std::string exe = build(dir, "no_finalize.c", "hcc");
  const std::string out = dir + "/out";
  RunResult r = run("HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(2) + shell_quote(exe) + " abort");
  EXPECT_NE(r.status, 124) << "mpirun hung";
  EXPECT_NE(r.status, 0);
  auto files = cubex_files(out);
  EXPECT_NE(std::find(files.begin(), files.end(), "profile.rank-1.cubex"), files.end());
  EXPECT_EQ(std::find(files.begin(), files.end(), "profile.cubex"), files.end());
}

// MPI_Abort from rank 1 of 3; rank 2 ignores SIGTERM, so only the
// launcher's SIGKILL ends it, without a profile (a rank that died of SIGTERM
// at once would make mpirun SIGKILL rank 0 before it wrote): hcc-report
// names it, from the files of ranks 0 and 1.
TEST(MpiE2E, AbortReportNamesTheRankThatWroteNothing) {
  const std::string dir = scratch_dir("abort-missing");
  const std::string exe = build(dir, "no_finalize.c", "hcc");
  const std::string out = dir + "/out";
  RunResult r = run("HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(3) + shell_quote(exe) + " abort");
  ASSERT_NE(r.status, 124) << "mpirun hung";
  EXPECT_EQ(cubex_files(out), (std::vector<std::string>{"profile.rank-0.cubex", "profile.rank-1.cubex"})) << r.err;
  const RunResult rep = run(shell_quote(report_bin()) + " " + shell_quote(out));
  ASSERT_EQ(rep.status, 0) << rep.err;
  EXPECT_NE(rep.err.find("no profile from rank 2 (1 of 3 ranks"), std::string::npos) << rep.err;
  EXPECT_EQ(Profile::load(out + "/profile.rank-1.cubex").visits("main/work/MPI_Allreduce"), 1);
}

}  // namespace
