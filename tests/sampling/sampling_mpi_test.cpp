// HCC_SAMPLING with MPI and no function measured: the call paths of the
// CPU time come from sampling alone, MPI time from the wrappers, and the
// two make up each rank's time.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>

#include "e2e_support.hpp"
#include "unpreempted.hpp"

namespace hcc::e2e {
namespace {

// A sampled run is unpreempted (unpreempted.hpp): on a busy machine a rank
// that shares its core gets a fraction of its samples (seen: 9 where the
// test wants more than 10), and more in one part of the run than another.
std::string mpirun(int np, bool sampled = true) {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + (sampled ? unpreempted(120) : "timeout 120 ") +
         shell_quote(HCC_MPIRUN) + " --oversubscribe -np " + std::to_string(np) + " ";
}

// Builds mpi_compute.c through hcc with spin.c plain, runs it on 2 ranks
// with no function measured (HCC_EXCLUDE='*') and sampling on.
struct MpiRun {
  RunResult r;
  std::string dir;
};
MpiRun build_and_run(const std::string &name, const std::string &env) {
  MpiRun out;
  const std::string dir = out.dir = scratch_dir(name);
  const std::string progs = programs_dir();
  RunResult c = run("gcc -O1 -g -c " + shell_quote(progs + "/spin.c") + " -o " + shell_quote(dir + "/spin.o"));
  EXPECT_EQ(c.status, 0) << c.err;
  RunResult b = run(shell_quote(hcc_bin()) + " " + shell_quote(HCC_MPICC) + " -O1 -g " +
                    shell_quote(progs + "/mpi_compute.c") + " " + shell_quote(dir + "/spin.o") + " -o " +
                    shell_quote(dir + "/app"));
  EXPECT_EQ(b.status, 0) << b.err;
  out.r = run("cd " + shell_quote(dir) + " && HCC_EXCLUDE='*' HCC_SAMPLING=1000 " + env + " HCC_OUTPUT_DIR=" +
              shell_quote(dir + "/out") + " " + mpirun(2) + "./app");
  return out;
}

double total(const Profile &p, const std::vector<int> &cps, int l) {
  double v = 0;
  for (int c : cps) v += p.value(c, "time", "incl", l);
  return v;
}

std::map<std::string, std::vector<int>> by_path(const Profile &p) {
  std::map<std::string, std::vector<int>> paths;
  for (std::size_t cp = 0; cp < p.json()["callpaths"].size(); ++cp) paths[p.path(int(cp))].push_back(int(cp));
  return paths;
}

TEST(SamplingMpi, CpuTimeOutsideMpiIsFoundByUnwindingAndMpiTimeIsMeasured) {
  const MpiRun run_ = build_and_run("sampling-mpi", "HCC_MPI_UNWIND=off");
  const RunResult &r = run_.r;
  const std::string &dir = run_.dir;
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "sum ok\n");
  Profile p = Profile::load(dir + "/out");
  ASSERT_EQ(p.locations(), 2u);
  auto paths = by_path(p);
  ASSERT_TRUE(paths.count("main/spin_outer/spin_inner")) << ::testing::PrintToString(p.paths());
  ASSERT_TRUE(paths.count("MPI_Allreduce")) << ::testing::PrintToString(p.paths());
  for (int l = 0; l < 2; ++l) {
    const int rank = p.json()["locations"][l]["rank"].get<int>();
    double samples = 0, roots = 0;
    for (int cp : paths["main/spin_outer/spin_inner"]) samples += p.value(cp, "samples", "excl", l);
    EXPECT_GT(samples, 10) << "rank " << rank << unpreempted_note();
    EXPECT_EQ(p.value(paths["MPI_Allreduce"][0], "visits", "excl", l), 4);
    for (std::size_t cp = 0; cp < p.json()["callpaths"].size(); ++cp)
      if (p.json()["callpaths"][cp]["parent"].get<int>() < 0) roots += p.value(int(cp), "time", "incl", l);
    // Measured MPI calls + sampled paths = the rank's time (from its first
    // event, MPI_Init, to the profile's build in MPI_Finalize); without
    // MPI_Init and MPI_Finalize, what the program measured itself.
    std::smatch m;
    const std::string err = r.err;
    ASSERT_TRUE(std::regex_search(err, m, std::regex("rank " + std::to_string(rank) + " seconds ([0-9.]+)")));
    const double seconds = std::stod(m[1]);
    ASSERT_TRUE(paths.count("MPI_Init"));
    ASSERT_TRUE(paths.count("MPI_Finalize"));
    const double after_init = roots - p.value(paths["MPI_Init"][0], "time", "incl", l) -
                              p.value(paths["MPI_Finalize"][0], "time", "incl", l);
    EXPECT_GT(after_init, seconds) << "rank " << rank;
    EXPECT_LT(after_init, seconds * 1.1 + 0.1) << "rank " << rank << ": program measured " << seconds << " s";
    // The time outside MPI calls is the sampled computation under main. (Its
    // share of the rank's time depends on how the machine schedules the two
    // ranks, since each waits for the other in MPI_Allreduce; this does not.)
    double sampled = 0, in_mpi = 0;
    for (int cp : paths["main"]) sampled += p.value(cp, "time", "incl", l);
    for (const auto &[path, cps] : paths)
      if (path.rfind("MPI_", 0) == 0 && path.find('/') == std::string::npos) in_mpi += total(p, cps, l);
    const double outside_mpi = roots - in_mpi;
    // (A rank waiting for a core outside MPI has that wait in the root
    // <not on CPU>, not below main: on a busy machine 0.9 missed by 0.4%.)
    EXPECT_GT(sampled, 0.8 * outside_mpi) << "rank " << rank << ": sampled " << sampled << " s of " << outside_mpi
                                          << " s outside MPI (rank time " << after_init << " s)";
    EXPECT_GT(sampled, 0.05) << "rank " << rank << unpreempted_note();
  }
}

TEST(SamplingMpi, EachMpiCallFindsItsCallPathByUnwindingFromTheWrapper) {
  const MpiRun on = build_and_run("sampling-mpi-unwind", "");
  ASSERT_EQ(on.r.status, 0) << on.r.err;
  EXPECT_EQ(on.r.out, "sum ok\n");
  Profile p = Profile::load(on.dir + "/out");
  auto paths = by_path(p);
  // main is not instrumented (HCC_EXCLUDE='*'): the wrappers found it.
  ASSERT_TRUE(paths.count("main/MPI_Allreduce")) << ::testing::PrintToString(p.paths());
  ASSERT_TRUE(paths.count("main/MPI_Barrier"));
  EXPECT_FALSE(paths.count("MPI_Allreduce"));
  ASSERT_TRUE(paths.count("main/spin_outer/spin_inner"));
  for (int l = 0; l < 2; ++l) {
    EXPECT_EQ(p.value(paths["main/MPI_Allreduce"][0], "visits", "excl", l), 4);
    // The pushed frame has no visits of its own; main is one call path for
    // the samples and the MPI calls below it.
    EXPECT_EQ(p.value(paths["main"][0], "visits", "excl", l), 0);
    EXPECT_EQ(paths["main"].size(), 1u);
    EXPECT_GT(total(p, paths["main/MPI_Allreduce"], l), 0);
  }
  // A group left out of unwinding is still measured, at the root.
  const MpiRun ex = build_and_run("sampling-mpi-exclude", "HCC_MPI_UNWIND=exclude:MPI_Allreduce");
  ASSERT_EQ(ex.r.status, 0) << ex.r.err;
  Profile q = Profile::load(ex.dir + "/out");
  auto qpaths = by_path(q);
  ASSERT_TRUE(qpaths.count("MPI_Allreduce")) << ::testing::PrintToString(q.paths());
  EXPECT_FALSE(qpaths.count("main/MPI_Allreduce"));
  EXPECT_TRUE(qpaths.count("main/MPI_Barrier"));
  for (int l = 0; l < 2; ++l) EXPECT_EQ(q.value(qpaths["MPI_Allreduce"][0], "visits", "excl", l), 4);
}

// mpicxx next to the mpicc CMake found (Open MPI and MPICH ship both).
std::string mpicxx() {
  const std::string cc = HCC_MPICC;
  return cc.substr(0, cc.rfind('/') + 1) + "mpicxx";
}

// Sum over the call paths of `path` (a path can repeat, e.g. per thread).
double metric(const Profile &p, std::map<std::string, std::vector<int>> &paths, const std::string &path,
              const std::string &name, const std::string &kind, int l) {
  double v = 0;
  for (int cp : paths[path]) v += p.value(cp, name, kind, l);
  return v;
}

// Issue 13's end-to-end case: a C++ halo code (halo.cpp) whose work goes
// through tiny Field accessors, built with no function measured. Sampling
// alone must find where the CPU time goes, in the right proportions (relax
// sweeps 3 times as often as norm2, by construction), and the MPI wrapper
// must find its caller by unwinding and count the exact bytes.
TEST(SamplingMpi, CxxHaloCodeWithoutFunctionInstrumentation) {
  const std::string dir = scratch_dir("sampling-mpi-halo");
  const std::string src = shell_quote(programs_dir() + "/halo.cpp");
  const std::string cxx = shell_quote(mpicxx());
  RunResult b = run(cxx + " -O2 -g " + src + " -o " + shell_quote(dir + "/plain"));
  ASSERT_EQ(b.status, 0) << b.err;
  b = run(shell_quote(hcc_bin()) + " --hcc-functions=none " + cxx + " -O2 -g " + src + " -o " +
          shell_quote(dir + "/none"));
  ASSERT_EQ(b.status, 0) << b.err;
  const RunResult plain = run("cd " + shell_quote(dir) + " && " + mpirun(2, false) + "./plain");
  ASSERT_EQ(plain.status, 0) << plain.err;
  ASSERT_NE(plain.out.find("checksum"), std::string::npos) << plain.out;
  const RunResult r = run("cd " + shell_quote(dir) + " && HCC_SAMPLING=1000 HCC_OUTPUT_DIR=" +
                          shell_quote(dir + "/out") + " " + mpirun(2) + "./none");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, plain.out);

  Profile p = Profile::load(dir + "/out");
  ASSERT_EQ(p.locations(), 2u);
  std::set<int> ranks;
  for (int l = 0; l < 2; ++l) ranks.insert(p.json()["locations"][l]["rank"].get<int>());
  EXPECT_EQ(ranks, (std::set<int>{0, 1}));
  auto paths = by_path(p);
  const std::string relax = "main/relax/sweep", norm = "main/norm2/sweep", mpi = "main/exchange/MPI_Sendrecv";
  ASSERT_TRUE(paths.count(relax)) << ::testing::PrintToString(p.paths());
  ASSERT_TRUE(paths.count(norm)) << ::testing::PrintToString(p.paths());
  ASSERT_TRUE(paths.count(mpi)) << ::testing::PrintToString(p.paths());
  // No sweep is a tail call (halo.cpp), so none reads main/sweep.
  EXPECT_FALSE(paths.count("main/sweep")) << ::testing::PrintToString(p.paths());
  // One MPI_Sendrecv of `halo` doubles each way per iteration (the program
  // prints both numbers).
  std::smatch m;
  ASSERT_TRUE(std::regex_search(plain.out, m, std::regex("iterations ([0-9]+) halo ([0-9]+) "))) << plain.out;
  const int iterations = std::stoi(m[1]);
  const double bytes = double(iterations) * std::stoi(m[2]) * 8;
  for (int l = 0; l < 2; ++l) {
    const int rank = p.json()["locations"][l]["rank"].get<int>();
    // Nothing is instrumented: main is a frame the samples and the wrapper found.
    EXPECT_EQ(metric(p, paths, "main", "visits", "excl", l), 0) << "rank " << rank;
    EXPECT_EQ(metric(p, paths, mpi, "visits", "excl", l), iterations) << "rank " << rank;
    EXPECT_EQ(metric(p, paths, mpi, "bytes_sent", "excl", l), bytes) << "rank " << rank;
    EXPECT_EQ(metric(p, paths, mpi, "bytes_received", "excl", l), bytes) << "rank " << rank;
    // Samples come at the kernel's tick while the rank runs (HZ 250: 4 ms);
    // each norm2 sweep lasts several ticks (halo.cpp), so its samples are
    // right within about one per call: far inside the +-25% allowed.
    double s_norm = 0;
    for (int cp : paths[norm]) s_norm += p.value(cp, "samples", "incl", l);
    EXPECT_GT(s_norm, 40) << "rank " << rank << unpreempted_note();
    const double t_relax = metric(p, paths, relax, "time", "incl", l);
    const double t_norm = metric(p, paths, norm, "time", "incl", l);
    ASSERT_GT(t_norm, 0) << "rank " << rank;
    EXPECT_NEAR(t_relax / t_norm, 3.0, 0.75) << "rank " << rank << ": relax " << t_relax << " s, norm2 " << t_norm
                                             << " s";
  }

  // The default (auto) build runs unchanged and leaves the accessors out.
  b = run(shell_quote(hcc_bin()) + " " + cxx + " -O2 -g " + src + " -o " + shell_quote(dir + "/auto"));
  ASSERT_EQ(b.status, 0) << b.err;
  // With the thread's CPU time counted too (perf::TASK-CLOCK, a software
  // event the kernel offers even in a VM), for the ratio below.
  const RunResult a = run("cd " + shell_quote(dir) + " && HCC_METRICS=perf::TASK-CLOCK HCC_OUTPUT_DIR=" +
                          shell_quote(dir + "/out-auto") + " " + mpirun(2, false) + "./auto");
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.out, plain.out);
  Profile q = Profile::load(dir + "/out-auto");
  auto qpaths = by_path(q);
  bool cpu_counted = false;
  for (const auto &metric_def : q.json()["metrics"]) cpu_counted |= metric_def["name"] == "perf::TASK-CLOCK";
  // Where the kernel does not count it, hcc says why and measures time only.
  if (!cpu_counted) EXPECT_NE(a.err.find("perf::TASK-CLOCK"), std::string::npos) << a.err;
  const std::string cpu = cpu_counted ? "perf::TASK-CLOCK" : "time";
  EXPECT_EQ(q.total_visits("Field::at"), 0);
  EXPECT_EQ(q.total_visits("Field::get"), 0);
  for (int l = 0; l < 2; ++l) {
    EXPECT_EQ(metric(q, qpaths, relax, "visits", "excl", l), 3 * iterations);
    EXPECT_EQ(metric(q, qpaths, norm, "visits", "excl", l), iterations);
    EXPECT_EQ(metric(q, qpaths, mpi, "bytes_sent", "excl", l), bytes);
    // Measured, not sampled: the program's own ratio, which the sampled one
    // above estimates (seen in 4 runs on a loaded 2-core VM: 2.94-3.12
    // measured, 2.85-3.22 sampled, ~110 samples in norm2's sweep per rank).
    // In CPU time, like the samples: wall time also holds the slices other
    // processes took, which need not fall on relax and norm2 alike.
    const double c_relax = metric(q, qpaths, relax, cpu, "incl", l), c_norm = metric(q, qpaths, norm, cpu, "incl", l);
    ASSERT_GT(c_norm, 0) << cpu;
    EXPECT_NEAR(c_relax / c_norm, 3.0, 0.75) << "rank " << l << ": " << cpu << " relax " << c_relax << ", norm2 " << c_norm;
  }
}

}  // namespace
}  // namespace hcc::e2e
