// Snapshots and OTF2 archives are never written through a symbolic link
// planted at their names in the output directory (issue 18): the run goes on,
// says which link it refused, and the link's target is left untouched.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "e2e_support.hpp"
#include "trace_support.hpp"

using namespace hcc::e2e;
namespace fs = std::filesystem;

namespace {


// <dir>/out with a link `name` in it pointing at <dir>/victim, a file that
// holds "precious\n" (or an empty directory).
struct Planted {
  std::string out, victim;
};
Planted plant(const std::string &dir, const std::string &name, bool victim_is_dir) {
  Planted p{dir + "/out", dir + "/victim"};
  fs::create_directories(p.out);
  if (victim_is_dir) {
    fs::create_directories(p.victim);
  } else {
    std::ofstream(p.victim) << "precious\n";
  }
  fs::create_symlink(p.victim, p.out + "/" + name);
  return p;
}

void expect_untouched(const Planted &p, const std::string &name, bool victim_is_dir) {
  EXPECT_TRUE(fs::is_symlink(p.out + "/" + name)) << name << " was replaced or removed";
  if (victim_is_dir)
    EXPECT_TRUE(fs::is_empty(p.victim)) << "something was written into the link's target directory";
  else
    EXPECT_EQ(read_file(p.victim), "precious\n") << "the link's target was written";
}

}  // namespace

class PlantedTraceLink : public ::testing::TestWithParam<const char *> {};

// The archive's directory (traces/), its anchor (traces.otf2) and its global
// definitions (traces.def), also with HCC_OVERWRITE=1, which would otherwise
// remove an earlier archive of the name.
TEST_P(PlantedTraceLink, IsRefusedAndNothingIsWrittenThroughIt) {
  const std::string name = GetParam();
  const bool to_dir = name == "traces";
  for (const char *overwrite : {"0", "1"}) {
    const std::string dir = scratch_dir("planted-trace-" + name + "-" + overwrite);
    const std::string exe = hcc::trace_test::build_program(dir, "fib.c");
    const Planted p = plant(dir, name, to_dir);
    const RunResult r = run("HCC_TRACE=1 HCC_OVERWRITE=" + std::string(overwrite) + " HCC_OUTPUT_DIR=" +
                            shell_quote(p.out) + " " + shell_quote(exe));
    ASSERT_EQ(r.status, 0) << r.err;  // the run and its profile go on
    EXPECT_EQ(r.out, "fib(20) = 6765\n");
    EXPECT_NE(r.err.find("hcc: error: HCC_TRACE=1: no trace written: '" + p.out + "/" + name +
                         "' is a symbolic link: refusing to write the trace through it"),
              std::string::npos)
        << r.err;
    expect_untouched(p, name, to_dir);
    EXPECT_TRUE(fs::exists(p.out + "/profile.cubex"));
    EXPECT_NE(read_file(p.out + "/summary.txt").find("is a symbolic link"), std::string::npos);
    // No archive of another name either: the trace is refused, not moved.
    EXPECT_FALSE(fs::exists(p.out + "/traces-1.otf2"));
  }
}

INSTANTIATE_TEST_SUITE_P(Trace, PlantedTraceLink, ::testing::Values("traces", "traces.otf2", "traces.def"),
                         [](const ::testing::TestParamInfo<const char *> &i) {
                           std::string n = i.param;
                           for (char &c : n)
                             if (c == '.') c = '_';
                           return n;
                         });

// With no link in the way the same directory takes the trace, written by
// OTF2 through our handle on the directory (checked by otf2-print).
TEST(PlantedTraceLinkControl, AnOrdinaryOutputDirectoryTakesTheTrace) {
  const std::string dir = scratch_dir("planted-trace-none");
  const std::string exe = hcc::trace_test::build_program(dir, "fib.c");
  const RunResult r = run("HCC_TRACE=1 HCC_OUTPUT_DIR=" + shell_quote(dir + "/out") + " " + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  std::string error;
  long fib = 0;
  for (const auto &e : hcc::trace_test::read_events(dir + "/out/traces.otf2", &error))
    fib += e.kind == "ENTER" && e.region == "fib";
  EXPECT_EQ(error, "");
  EXPECT_EQ(fib, 21891);
}

TEST(PlantedSnapshotLink, IsRefusedAndNothingIsWrittenThroughIt) {
  const std::string dir = scratch_dir("planted-snapshot");
  const std::string exe = hcc::trace_test::build_program(dir, "longrun.c");
  const Planted p = plant(dir, "snapshot.cubex", false);
  const RunResult r = run("HCC_SNAPSHOT=0.1 HCC_OUTPUT_DIR=" + shell_quote(p.out) + " " + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "done: yes\n");
  const std::string said = "hcc: error: HCC_SNAPSHOT: '" + p.out +
                           "/snapshot.cubex' is a symbolic link: refusing to write snapshots through it";
  const std::size_t at = r.err.find(said);
  EXPECT_NE(at, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(said, at + 1), std::string::npos) << "said more than once:\n" << r.err;
  expect_untouched(p, "snapshot.cubex", false);
  EXPECT_TRUE(fs::exists(p.out + "/profile.cubex"));  // the final profile is not affected
}
