// Location numbering end to end (runtime/core/thread_state.hpp,
// pomp/team.cpp): with real OpenMP teams (gcc/libgomp, clang/libomp), the
// threads of the outermost team are locations 0..3 by omp_get_thread_num(),
// a pthread that started earlier and the workers of nested teams come after
// them in start order. Start order is random, so the program runs 5 times.
#include <gtest/gtest.h>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {

std::vector<Toolchain> omp_compilers() {
  std::vector<Toolchain> t = {{"gcc", "gcc", "g++"}};
  if (std::string(HCC_OMP_E2E_CLANG).size()) t.push_back({"clang", HCC_OMP_E2E_CLANG, ""});
  return t;
}

// Visits of region `name` (short name) per location, over all its call paths.
std::vector<long long> visits_per_location(const Profile &p, const std::string &name) {
  std::vector<long long> v(p.locations(), 0);
  for (int c : p.callpaths_where([&](const std::string &n) { return Profile::short_name(n) == name; }))
    for (size_t l = 0; l < v.size(); ++l) v[l] += (long long)p.value(c, "visits", "excl", int(l));
  return v;
}

class OpenMPThreadNumbers : public ::testing::TestWithParam<Toolchain> {};

TEST_P(OpenMPThreadNumbers, TeamThreadKIsLocationKOthersFollowInStartOrder) {
  const Toolchain tc = GetParam();
  const std::string dir = scratch_dir("thread-numbers-" + tc.name);
  const std::string src = shell_quote(programs_dir() + "/thread_numbers.c");
  RunResult c1 = run(tc.cc + " -fopenmp -O2 " + src + " -o " + dir + "/plain");
  ASSERT_EQ(c1.status, 0) << c1.err;
  RunResult c2 = run("cd " + dir + " && " + hcc_bin() + " --hcc-openmp=on --hcc-functions=all --hcc-compiler=" +
                     tc.cc + " -fopenmp -O2 " + src + " -o app");
  ASSERT_EQ(c2.status, 0) << c2.err;
  const std::string env = "OMP_DYNAMIC=false OMP_WAIT_POLICY=passive ";
  RunResult plain = run(env + dir + "/plain");
  ASSERT_EQ(plain.status, 0);

  for (int rep = 0; rep < 5; ++rep) {
    SCOPED_TRACE("run " + std::to_string(rep));
    const std::string out = dir + "/prof" + std::to_string(rep);
    RunResult r = run("cd " + dir + " && " + env + "HCC_VERBOSE=0 HCC_OUTPUT_DIR=" + out + " ./app");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, plain.out);
    Profile p = Profile::load(out);
    // 4 team threads, the pthread, the workers of the nested teams: 4
    // under libgomp; libomp may give a pool thread two nested teams.
    const size_t n = p.locations();
    ASSERT_GE(n, 6u);
    ASSERT_LE(n, 9u);
    for (size_t l = 0; l < n; ++l) {
      EXPECT_EQ(p.json()["locations"][l]["thread"].get<int>(), int(l));
      EXPECT_EQ(p.json()["locations"][l]["name"].get<std::string>(), "thread " + std::to_string(l));
    }
    // Thread k calls tick() k + 1 times in each of 3 regions.
    const std::vector<long long> ticks = visits_per_location(p, "tick");
    for (size_t l = 0; l < n; ++l) EXPECT_EQ(ticks[l], l < 4 ? 3 * (long long)(l + 1) : 0) << "location " << l;
    // The pthread: first of the others, although it started second.
    const std::vector<long long> helper = visits_per_location(p, "helper_work");
    for (size_t l = 0; l < n; ++l) EXPECT_EQ(helper[l], l == 4 ? 1 : 0) << "location " << l;
    // Nested teams: each team thread is a nested master once; the nested
    // workers (locations 5.., in start order) run the other 4 nested_ticks.
    const std::vector<long long> nested = visits_per_location(p, "nested_tick");
    long long by_nested_workers = 0;
    for (size_t l = 0; l < n; ++l) {
      if (l < 4) EXPECT_EQ(nested[l], 1) << "location " << l;
      if (l == 4) EXPECT_EQ(nested[l], 0);
      if (l > 4) {
        EXPECT_GE(nested[l], 1) << "location " << l;
        by_nested_workers += nested[l];
      }
    }
    EXPECT_EQ(by_nested_workers, 4);
    // The profile says which locations are team threads.
    std::string numbers = "0 1 2 3";
    for (size_t l = 4; l < n; ++l) numbers += " -";
    RunResult anchor = run("tar -xOf " + out + "/profile.cubex anchor.xml");
    EXPECT_NE(anchor.out.find("key=\"openmp thread numbers\" value=\"" + numbers + "\""), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(Toolchains, OpenMPThreadNumbers, ::testing::ValuesIn(omp_compilers()),
                         [](const auto &info) { return info.param.name; });

}  // namespace
}  // namespace hcc::e2e
