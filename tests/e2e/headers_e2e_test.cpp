// The project's own headers, end to end: small projects (programs/headers,
// programs/headers_c) built file by file through `hcc` with GCC and with
// Clang underneath, linked, run and compared with their plain builds. Every
// function defined in a project header gets exact visits, in one region per
// function however many files include it (one per template instance), no
// region comes from a header found through -isystem, the headers are not
// touched on disk, and dependency files name the real headers.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <functional>
#include <set>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {
namespace fs = std::filesystem;

// Visits summed over locations and call paths of regions named `name`
// exactly, and how many regions carry that name.
struct Seen {
  long long visits = 0;
  std::set<int> regions;
};
Seen seen(const Profile &p, const std::function<bool(const std::string &)> &pred) {
  Seen s;
  for (int c : p.callpaths_where(pred)) {
    s.regions.insert(p.json()["callpaths"][c]["region"].get<int>());
    for (std::size_t l = 0; l < p.locations(); ++l)
      s.visits += static_cast<long long>(p.value(c, "visits", "excl", static_cast<int>(l)));
  }
  return s;
}
Seen named(const Profile &p, const std::string &name) {
  return seen(p, [&](const std::string &n) { return n == name; });
}

std::string stamp(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return "missing";
  return std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + " " +
         read_file(path);
}

// Copies programs/<name> into a scratch directory; returns it. The grid
// project's two headers are the rewrite test's fixtures
// (tests/instrumentor/headers, next to their expected rewrites), so the
// header whose rewrite is checked line by line is the one measured here.
std::string project(const std::string &name, const std::string &tag) {
  const std::string dir = scratch_dir(name + "-" + tag);
  fs::copy(programs_dir() + "/" + name, dir, fs::copy_options::recursive);
  if (name == "headers") {
    const std::string fixtures = programs_dir() + "/../../instrumentor/headers";
    fs::create_directories(dir + "/include/geo");
    fs::create_directories(dir + "/sysinc");
    fs::copy_file(fixtures + "/include/geo/grid.hpp", dir + "/include/geo/grid.hpp");
    fs::copy_file(fixtures + "/sysinc/sysdep.hpp", dir + "/sysinc/sysdep.hpp");
  }
  return dir;
}

class Headers : public ::testing::TestWithParam<Toolchain> {};

TEST_P(Headers, GridProjectHeaderFunctionsHaveExactVisits) {
  const Toolchain tc = GetParam();
  const std::string dir = project("headers", tc.name);
  const std::string header = dir + "/include/geo/grid.hpp";
  const std::string before = stamp(header);
  const std::string flags = "-O2 -std=c++17 -Iinclude -isystem sysinc";
  const std::string hcc = "cd " + shell_quote(dir) + " && " + shell_quote(hcc_bin()) +
                          " --hcc-compiler=" + tc.cxx + " --hcc-functions=all ";
  for (const char *tu : {"main", "stats"}) {
    RunResult r = run(hcc + flags + " -MMD -MF " + tu + ".d -c src/" + tu + ".cpp -o " + tu + ".o");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("could not instrument"), std::string::npos) << r.err;
    // The dependency file names the real header, as the plain compiler's does.
    const std::string d = read_file(dir + "/" + tu + ".d");
    EXPECT_NE(d.find("include/geo/grid.hpp"), std::string::npos) << d;
    EXPECT_EQ(d.find("/hcc-"), std::string::npos) << d;
    EXPECT_EQ(d.find("shadow"), std::string::npos) << d;
  }
  RunResult link = run(hcc + "main.o stats.o -o app");
  ASSERT_EQ(link.status, 0) << link.err;
  RunResult plain = run("cd " + shell_quote(dir) + " && " + tc.cxx + " " + flags +
                        " src/main.cpp src/stats.cpp -o plain");
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(stamp(header), before) << "the header changed on disk";

  RunResult p = run("cd " + shell_quote(dir) + " && ./plain");
  RunResult i = run("cd " + shell_quote(dir) + " && HCC_OUTPUT_DIR=prof ./app");
  ASSERT_EQ(i.status, 0) << i.err;
  EXPECT_EQ(i.out, p.out);
  Profile prof = Profile::load(dir + "/prof");

  // Two sweeps over the 4x4 inner points: 32 smooth_point calls, each reading
  // 4 neighbours through at(), plus 32 writes through at(); one at() in
  // main and four in corner_sum (the other file).
  EXPECT_EQ(named(prof, "geo::Grid::Grid(std::size_t)").visits, 1);
  EXPECT_EQ(named(prof, "geo::Grid::sweep()").visits, 2);
  EXPECT_EQ(named(prof, "geo::Grid::smooth_point(std::size_t, std::size_t)").visits, 32);
  const Seen at = named(prof, "geo::Grid::at(std::size_t, std::size_t)");
  EXPECT_EQ(at.visits, 165);
  EXPECT_EQ(at.regions.size(), 1u) << "at() must be one region across both files";
  EXPECT_EQ(named(prof, "geo::Grid::size() const").visits, 1);
  EXPECT_EQ(named(prof, "geo::Grid::positive() const").visits, 1);
  EXPECT_EQ(named(prof, "corner_sum(geo::Grid &)").visits + named(prof, "corner_sum(geo::Grid&)").visits, 1);
  // The template: one region per instance.
  const Seen sq = seen(prof, [](const std::string &n) { return n.find("sum_of_squares") != std::string::npos; });
  EXPECT_EQ(sq.regions.size(), 2u);
  EXPECT_EQ(sq.visits, 2);
  EXPECT_EQ(seen(prof, [](const std::string &n) {
              return n.find("sum_of_squares") != std::string::npos && n.find("double") != std::string::npos;
            }).visits, 1);
  // The lambda in positive(): once per cell of the 6x6 grid.
  EXPECT_EQ(seen(prof, [](const std::string &n) { return n.rfind("lambda at grid.hpp:", 0) == 0; }).visits, 36);
  // Nothing from the -isystem header, nor the constexpr cells().
  EXPECT_TRUE(seen(prof, [](const std::string &n) { return n.find("sys_helper") != std::string::npos; })
                  .regions.empty());
  EXPECT_TRUE(seen(prof, [](const std::string &n) { return n.find("cells") != std::string::npos; })
                  .regions.empty());
  // The header's regions name the header and its lines.
  for (const auto &r : prof.json()["regions"])
    if (r["name"] == "geo::Grid::sweep()") {
      EXPECT_EQ(r["file"], "include/geo/grid.hpp");
      EXPECT_EQ(r["line"], 31);
    }
}

// A rebuild of unchanged sources: hcc takes each file's instrumentation,
// the header copies included, from the result cache in its own process
// (instrumentor/cache/cached_run.h) without starting hcc-instrument, and the
// program measures exactly what the first build's did.
TEST_P(Headers, RebuildIsServedFromTheCacheWithoutStartingTheInstrumentor) {
  const Toolchain tc = GetParam();
  const std::string dir = project("headers", tc.name + "-cache");
  const std::string hcc = "cd " + shell_quote(dir) + " && HCC_CACHE_DIR=" + shell_quote(dir + "/cache") +
                          " " + shell_quote(hcc_bin()) + " --hcc-compiler=" + tc.cxx +
                          " --hcc-functions=all --hcc-verbose -O2 -std=c++17 -Iinclude -isystem sysinc ";
  const std::string cached = "(from the instrumentation cache)";
  for (const bool again : {false, true})
    for (const char *tu : {"main", "stats"}) {
      RunResult r = run(hcc + "-MMD -MF " + tu + ".d -c src/" + tu + ".cpp -o " + tu + ".o");
      ASSERT_EQ(r.status, 0) << r.err;
      // --hcc-verbose shows every command hcc starts.
      EXPECT_EQ(r.err.find("/hcc-instrument ") != std::string::npos, !again) << r.err;
      EXPECT_EQ(r.err.find(cached) != std::string::npos, again) << r.err;
      EXPECT_NE(read_file(dir + "/" + tu + ".d").find("include/geo/grid.hpp"), std::string::npos);
    }
  ASSERT_EQ(run(hcc + "main.o stats.o -o app").status, 0);
  RunResult i = run("cd " + shell_quote(dir) + " && HCC_OUTPUT_DIR=prof ./app");
  ASSERT_EQ(i.status, 0) << i.err;
  Profile prof = Profile::load(dir + "/prof");
  EXPECT_EQ(named(prof, "geo::Grid::sweep()").visits, 2);
  EXPECT_EQ(named(prof, "geo::Grid::smooth_point(std::size_t, std::size_t)").visits, 32);
  const Seen at = named(prof, "geo::Grid::at(std::size_t, std::size_t)");
  EXPECT_EQ(at.visits, 165);
  EXPECT_EQ(at.regions.size(), 1u);
}

TEST_P(Headers, StaticInlineCFunctionIsOneRegionAndIncludedSourceIsMeasured) {
  const Toolchain tc = GetParam();
  const std::string dir = project("headers_c", tc.name);
  const std::string hcc = "cd " + shell_quote(dir) + " && " + shell_quote(hcc_bin()) +
                          " --hcc-compiler=" + tc.cc + " --hcc-functions=all ";
  for (const char *tu : {"main", "other"}) {
    RunResult r = run(hcc + "-O2 -Iinclude -c src/" + tu + ".c -o " + tu + ".o");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("could not instrument"), std::string::npos) << r.err;
  }
  ASSERT_EQ(run(hcc + "main.o other.o -o app").status, 0);
  ASSERT_EQ(run("cd " + shell_quote(dir) + " && " + tc.cc + " -O2 -Iinclude src/main.c src/other.c -o plain").status, 0);
  RunResult p = run("cd " + shell_quote(dir) + " && ./plain");
  RunResult i = run("cd " + shell_quote(dir) + " && HCC_OUTPUT_DIR=prof ./app");
  ASSERT_EQ(i.status, 0) << i.err;
  EXPECT_EQ(i.out, p.out);
  Profile prof = Profile::load(dir + "/prof");
  const Seen next = named(prof, "ring_next");
  EXPECT_EQ(next.visits, 15);  // 10 in main.c, 5 in other.c: two copies, one region
  EXPECT_EQ(next.regions.size(), 1u);
  EXPECT_EQ(named(prof, "part_twice").visits, 1);
  EXPECT_EQ(named(prof, "other").visits, 1);
}

// --hcc-headers=off: the old behaviour, only the compiled files.
TEST(HeadersOff, OnlyTheCompiledFilesAreMeasured) {
  const std::string dir = project("headers", "off");
  RunResult r = run("cd " + shell_quote(dir) + " && " + shell_quote(hcc_bin()) +
                    " --hcc-compiler=g++ --hcc-headers=off -std=c++17 -Iinclude -isystem sysinc "
                    "src/main.cpp src/stats.cpp -o app");
  ASSERT_EQ(r.status, 0) << r.err;
  RunResult i = run("cd " + shell_quote(dir) + " && HCC_OUTPUT_DIR=prof ./app");
  ASSERT_EQ(i.status, 0) << i.err;
  Profile prof = Profile::load(dir + "/prof");
  EXPECT_TRUE(named(prof, "geo::Grid::sweep()").regions.empty());
  EXPECT_EQ(named(prof, "main").visits, 1);
}

INSTANTIATE_TEST_SUITE_P(Toolchains, Headers, ::testing::ValuesIn(toolchains()),
                         [](const auto &info) { return info.param.name; });

}  // namespace
}  // namespace hcc::e2e
