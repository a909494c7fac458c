// HCC_SAMPLING with MPI and no function measured: the call paths of the
// CPU time come from sampling alone, MPI time from the wrappers, and the
// two make up each rank's time.
#include <gtest/gtest.h>

#include <map>
#include <regex>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {

std::string mpirun(int np) {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " + shell_quote(HCC_MPIRUN) +
         " --oversubscribe -np " + std::to_string(np) + " ";
}

TEST(SamplingMpi, CpuTimeOutsideMpiIsFoundByUnwindingAndMpiTimeIsMeasured) {
  const std::string dir = scratch_dir("sampling-mpi");
  const std::string progs = programs_dir();
  RunResult c = run("gcc -O1 -g -c " + shell_quote(progs + "/spin.c") + " -o " + shell_quote(dir + "/spin.o"));
  ASSERT_EQ(c.status, 0) << c.err;
  RunResult b = run(shell_quote(hcc_bin()) + " " + shell_quote(HCC_MPICC) + " -O1 -g " +
                    shell_quote(progs + "/mpi_compute.c") + " " + shell_quote(dir + "/spin.o") + " -o " +
                    shell_quote(dir + "/app"));
  ASSERT_EQ(b.status, 0) << b.err;
  RunResult r = run("cd " + shell_quote(dir) + " && HCC_EXCLUDE='*' HCC_SAMPLING=1000 HCC_OUTPUT_DIR=" +
                    shell_quote(dir + "/out") + " " + mpirun(2) + "./app");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "sum ok\n");
  Profile p = Profile::load(dir + "/out");
  ASSERT_EQ(p.locations(), 2u);
  std::map<std::string, std::vector<int>> paths;
  for (std::size_t cp = 0; cp < p.json()["callpaths"].size(); ++cp) paths[p.path(int(cp))].push_back(int(cp));
  ASSERT_TRUE(paths.count("main/spin_outer/spin_inner")) << ::testing::PrintToString(p.paths());
  ASSERT_TRUE(paths.count("MPI_Allreduce")) << ::testing::PrintToString(p.paths());
  for (int l = 0; l < 2; ++l) {
    const int rank = p.json()["locations"][l]["rank"].get<int>();
    double samples = 0, roots = 0;
    for (int cp : paths["main/spin_outer/spin_inner"]) samples += p.value(cp, "samples", "excl", l);
    EXPECT_GT(samples, 10) << "rank " << rank;
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
    EXPECT_LT(after_init, seconds * 1.1 + 0.1) << "rank " << rank;
    // Most of it is the sampled computation, not MPI (rank 1 computes twice as long).
    double sampled = 0;
    for (int cp : paths["main"]) sampled += p.value(cp, "time", "incl", l);
    EXPECT_GT(sampled, 0.3 * after_init) << "rank " << rank;
  }
}

}  // namespace
}  // namespace hcc::e2e
