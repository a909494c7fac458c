// Control flow over MPI ranks: built with `hcc --hcc-functions=all mpicc`,
// run on 3 ranks; rank 0's merged profile keeps every rank's predecessor
// counts on that rank's location, and MPI calls have predecessors like
// functions.
#include <gtest/gtest.h>

#include <map>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {

TEST(ControlFlowMpi, EachRanksCountsArriveOnItsLocation) {
  const std::string dir = scratch_dir("cfg-mpi");
  const std::string exe = dir + "/app";
  RunResult c = run(shell_quote(hcc_bin()) + " --hcc-functions=all " + shell_quote(HCC_MPICC) + " -O1 " +
                    shell_quote(programs_dir() + "/mpi_ranks.c") + " -o " + shell_quote(exe));
  ASSERT_EQ(c.status, 0) << c.err;
  RunResult r = run("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 HCC_OUTPUT_DIR=" + shell_quote(dir + "/prof") +
                    " timeout 120 " + shell_quote(HCC_MPIRUN) + " --oversubscribe -np 3 " + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "done\n");
  Profile p = Profile::load(dir + "/prof");
  ASSERT_EQ(p.locations(), 3u);
  std::map<std::string, int> id;
  for (size_t k = 0; k < p.json()["callpaths"].size(); ++k) id[p.path(int(k))] = int(k);
  ASSERT_TRUE(id.count("main/foo") && id.count("main/bar") && id.count("main/MPI_Barrier"));
  auto counts = [&](const std::string &path, const std::string &pred) {
    for (const auto &e : p.json()["callpaths"][id.at(path)]["predecessors"])
      if (e["callpath"] == id.at(pred)) return e["count"].get<std::vector<long long>>();
    return std::vector<long long>{};
  };
  // Location l is rank l (one thread each): foo follows bar 3 + r times.
  EXPECT_EQ(counts("main/foo", "main/bar"), (std::vector<long long>{3, 4, 5}));
  EXPECT_EQ(counts("main/bar", "main/foo"), (std::vector<long long>{4, 5, 6}));
  EXPECT_EQ(counts("main/MPI_Barrier", "main/bar"), (std::vector<long long>{1, 1, 1}));
  // The parent comes first in the merged list.
  EXPECT_EQ(p.json()["callpaths"][id.at("main/foo")]["predecessors"][0]["callpath"], id.at("main/MPI_Init"));
  RunResult text = run(report_bin() + " " + shell_quote(dir + "/prof") + " --cfg");
  EXPECT_NE(text.out.find("  foo (MPI_Init:3,bar:12)\n"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace hcc::e2e
