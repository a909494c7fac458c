// HCC_TRACE with the real mpirun: four ranks, one OTF2 archive with a
// location (group) per rank, read by the real otf2-print.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "e2e_support.hpp"
#include "trace_support.hpp"

using namespace hcc::e2e;
using namespace hcc::trace_test;
namespace fs = std::filesystem;

namespace {

std::string mpirun(int np) {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " + shell_quote(HCC_MPIRUN) +
         " --oversubscribe -np " + std::to_string(np) + " ";
}

std::string build(const std::string &dir) {
  const std::string exe = dir + "/mpi_fib.exe";
  const RunResult r = run(shell_quote(hcc_bin()) + " --hcc-functions=all " + shell_quote(HCC_MPICC) + " -O1 " +
                          shell_quote(programs_dir() + "/mpi_fib.c") + " -o " + shell_quote(exe));
  EXPECT_EQ(r.status, 0) << r.err;
  return exe;
}

}  // namespace

TEST(TraceMpi, FourRanksWriteOneArchiveWithALocationPerRank) {
  const std::string dir = scratch_dir("trace-mpi4");
  const std::string exe = build(dir);
  const std::string out = dir + "/out";
  const RunResult r = run("HCC_TRACE=1 HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(4) + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "ranks 4 sum 521\n");

  std::string error;
  std::vector<std::string> defs = read_definitions(out + "/traces.otf2", &error);
  EXPECT_EQ(error, "");
  int groups = 0, locations = 0;
  for (const std::string &l : defs) {
    if (l.rfind("LOCATION_GROUP", 0) == 0) {
      EXPECT_NE(l.find("Name: \"rank " + std::to_string(groups) + "\""), std::string::npos) << l;
      ++groups;
    } else if (l.rfind("LOCATION ", 0) == 0) {
      EXPECT_NE(l.find("Group: \"rank " + std::to_string(locations) + "\""), std::string::npos) << l;
      ++locations;
    }
  }
  EXPECT_EQ(groups, 4);
  EXPECT_EQ(locations, 4);

  const std::vector<Event> ev = read_events(out + "/traces.otf2", &error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(check_nesting(ev), "");
  const long fib_calls[] = {177, 287, 465, 753};  // fib(10 + rank)
  for (int rank = 0; rank < 4; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    EXPECT_EQ(events(ev, "ENTER", "fib", rank), fib_calls[rank]);
    EXPECT_EQ(events(ev, "LEAVE", "fib", rank), fib_calls[rank]);
    EXPECT_EQ(events(ev, "ENTER", "MPI_Allreduce", rank), 1);
    EXPECT_EQ(events(ev, "ENTER", "main", rank), 1);
  }
  // One merged profile, one archive: no per-rank files.
  EXPECT_FALSE(fs::exists(out + "/traces.rank-0.otf2"));
  EXPECT_NE(read_file(out + "/summary.txt").find("events on 4 locations"), std::string::npos);

  const RunResult j = run(shell_quote(report_bin()) + " --trace-json " + shell_quote(out) + " -o " + shell_quote(dir + "/t.json"));
  ASSERT_EQ(j.status, 0) << j.err;
  std::set<int> pids;
  long fibs = 0;
  const nlohmann::json chrome = nlohmann::json::parse(read_file(dir + "/t.json"));
  for (const auto &e : chrome["traceEvents"]) {
    if (e["ph"] != "X") continue;
    pids.insert(e["pid"].get<int>());
    fibs += e["name"] == "fib";
  }
  EXPECT_EQ(pids, (std::set<int>{0, 1, 2, 3}));
  EXPECT_EQ(fibs, 177 + 287 + 465 + 753);
}

TEST(TraceMpi, WithoutHccTraceNoRankWritesOrWaits) {
  const std::string dir = scratch_dir("trace-mpi-off");
  const std::string exe = build(dir);
  const std::string out = dir + "/out";
  const RunResult r = run("HCC_OUTPUT_DIR=" + shell_quote(out) + " " + mpirun(2) + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(out + "/profile.cubex"));
  EXPECT_FALSE(fs::exists(out + "/traces.otf2"));
  EXPECT_EQ(r.err.find("HCC_TRACE"), std::string::npos) << r.err;
}
