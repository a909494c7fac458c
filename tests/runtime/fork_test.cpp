// fork(): the child keeps only the forking thread and writes its own files
// next to the parent's, named after its pid.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "cube/cubex.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;
using tu::find_path;

namespace {

TEST_REGION(child_region, "child_work");
TEST_REGION(parent_region, "parent_work");
TEST_REGION(before_region, "before_fork");

TEST(Fork, ChildWritesProfileForkPidFiles) {
  fs::path dir = fs::temp_directory_path() / ("hcc-fork-test-" + std::to_string(getpid()));
  fs::remove_all(dir);
  hcc::rt::testing::set_output_dir(dir.string());

  TEST_REGION(root, "test_fork");
  hcc_enter(&root);
  std::thread([] { hcc_enter(&parent_region); hcc_exit(&parent_region); }).join();
  {
    HCC_FUNCTION_GUARD_(g, &before_region);
    tu::spin_ms(100);  // the parent's time before the fork, not the child's
  }
  const auto forked_at = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    hcc_enter(&child_region);
    hcc_exit(&child_region);
    auto p = hcc::rt::testing::build_profile_now();
    int ok = p.locations.size() == 1 && find_path(p, {"test_fork", "child_work"}) >= 0;
    std::exit(ok ? 0 : 3);  // exit() -> library destructor -> the child's profile
  }
  ASSERT_GT(pid, 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  const double child_life = std::chrono::duration<double>(std::chrono::steady_clock::now() - forked_at).count();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child saw more than its own thread";
  hcc_exit(&root);

  std::string id = std::to_string(pid);
  fs::path cubex = dir / ("profile.fork-" + id + ".cubex");
  EXPECT_TRUE(fs::exists(cubex));
  EXPECT_TRUE(fs::exists(dir / ("summary.fork-" + id + ".txt")));
  EXPECT_FALSE(fs::exists(dir / "profile.cubex")) << "the parent has not written yet";
  if (fs::exists(cubex)) {
    auto p = hcc::profile::read_cubex(cubex.string());
    ASSERT_EQ(p.locations.size(), 1u);
    EXPECT_EQ(tu::total(p, "visits", find_path(p, {"test_fork", "child_work"})), 1.0);
    EXPECT_EQ(tu::total(p, "visits", find_path(p, {"test_fork"})), 1.0);
    EXPECT_EQ(find_path(p, {"parent_work"}), -1);
    EXPECT_EQ(find_path(p, {"test_fork", "before_fork"}), -1) << "the parent's calls are not the child's";
    // The child's profile covers the child's life only, not the 100 ms before:
    // at most the time from the fork to the parent's waitpid (not a fixed
    // bound: a loaded machine can stretch the child's life past 100 ms).
    EXPECT_LE(tu::inclusive_total(p, "time", find_path(p, {"test_fork"})), child_life * 1.001 + 1e-6)
        << "the child lived at most " << child_life << " s";
  }
  // The parent itself still has both threads and writes its usual name.
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_GE(p.locations.size(), 2u);
  EXPECT_EQ(find_path(p, {"test_fork", "child_work"}), -1);
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"test_fork", "before_fork"})), 1.0);
  std::string written = hcc::rt::testing::write_profile_now();
  EXPECT_EQ(written, (dir / "profile.cubex").string());
  EXPECT_TRUE(fs::exists(dir / "profile.cubex"));
  fs::remove_all(dir);
  const char *env_dir = std::getenv("HCC_OUTPUT_DIR");
  hcc::rt::testing::set_output_dir(env_dir ? env_dir : "");
}

TEST(Fork, ForkInsideAFoldedRecursionCountsTheChildsLifeOnly) {
  fs::path dir = fs::temp_directory_path() / ("hcc-fork-rec-test-" + std::to_string(getpid()));
  fs::remove_all(dir);
  hcc::rt::testing::set_output_dir(dir.string());
  TEST_REGION(root, "test_fork_rec");
  TEST_REGION(rec, "fork_rec");
  hcc_enter(&root);
  hcc_enter(&rec);
  hcc_enter(&rec);
  hcc_enter(&rec);  // recursion mode
  tu::spin_ms(100);  // the parent's, not the child's
  const auto forked_at = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    tu::spin_ms(5);
    hcc_exit(&rec);
    hcc_exit(&rec);
    hcc_exit(&rec);
    hcc_exit(&root);
    std::exit(hcc::rt::testing::recursion_mode() ? 3 : 0);
  }
  ASSERT_GT(pid, 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  const double child_life = std::chrono::duration<double>(std::chrono::steady_clock::now() - forked_at).count();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "recursion mode did not end in the child";
  for (int i = 0; i < 3; ++i) hcc_exit(&rec);
  hcc_exit(&root);
  const fs::path cubex = dir / ("profile.fork-" + std::to_string(pid) + ".cubex");
  ASSERT_TRUE(fs::exists(cubex));
  auto p = hcc::profile::read_cubex(cubex.string());
  // Every frame open at the fork is one visit of the child's.
  const int r = find_path(p, {"test_fork_rec", "fork_rec"});
  ASSERT_GE(r, 0);
  EXPECT_EQ(tu::total(p, "visits", r), 3.0);
  EXPECT_EQ(tu::total(p, "recursion_depth", r), 3.0);
  const double incl = tu::inclusive_total(p, "time", find_path(p, {"test_fork_rec"}));
  EXPECT_GE(incl, 0.005 * 0.999);
  // At most the child's life (fork to the parent's waitpid), which holds
  // however loaded the machine is; the parent's 100 ms before would not fit.
  EXPECT_LE(incl, child_life * 1.001 + 1e-6) << "the parent's time before the fork was counted? the child lived at most "
                                             << child_life << " s";
  EXPECT_GE(tu::total(p, "time", r), 0.005 * 0.999);
  for (size_t c = 0; c < p.cnodes.size(); ++c) EXPECT_GE(tu::total(p, "time", int(c)), -1e-12);
  fs::remove_all(dir);
  const char *env_dir = std::getenv("HCC_OUTPUT_DIR");
  hcc::rt::testing::set_output_dir(env_dir ? env_dir : "");
}

}  // namespace
