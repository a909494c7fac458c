// setjmp/longjmp: the frames a jump abandons are closed at the jump, so
// code after it is attributed to the function that called setjmp.
#include <gtest/gtest.h>

#include "longjmp_helpers.h"
#include "test_util.hpp"

using tu::find_path;

namespace {

TEST_REGION(after_region, "lj_after");

void check_jump(int kind, const char *root_name, hcc_region_desc *root) {
  hcc_enter(root);
  uint32_t base = hcc::rt::testing::open_frames();
  ASSERT_EQ(hcc_test_jump(kind, 1), 1);
  EXPECT_EQ(hcc::rt::testing::open_frames(), base) << "the three abandoned frames are closed";
  hcc_enter(&after_region);  // a new call lands under the setjmp caller
  hcc_exit(&after_region);
  hcc_exit(root);
  EXPECT_EQ(hcc::rt::testing::open_frames(), base - 1);

  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {root_name, "lj_level1", "lj_level2", "lj_level3"})), 1.0);
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {root_name, "lj_after"})), 1.0);
  EXPECT_EQ(find_path(p, {root_name, "lj_level1", "lj_level2", "lj_level3", "lj_after"}), -1);
}

TEST(Longjmp, LongjmpUnwindsThreeFrames) {
  TEST_REGION(root, "test_longjmp");
  check_jump(HCC_TEST_LONGJMP, "test_longjmp", &root);
}

TEST(Longjmp, UnderscoreLongjmpUnwindsThreeFrames) {
  TEST_REGION(root, "test__longjmp");
  check_jump(HCC_TEST__LONGJMP, "test__longjmp", &root);
}

TEST(Longjmp, SiglongjmpUnwindsThreeFrames) {
  TEST_REGION(root, "test_siglongjmp");
  check_jump(HCC_TEST_SIGLONGJMP, "test_siglongjmp", &root);
}

TEST(Longjmp, FortifiedLongjmpChkUnwindsThreeFrames) {
  TEST_REGION(root, "test_longjmp_chk");
  hcc_enter(&root);
  ASSERT_EQ(hcc_test_jump_fortified(), 1);
  EXPECT_EQ(hcc::rt::testing::open_frames(), 1u);
  hcc_enter(&after_region);
  hcc_exit(&after_region);
  hcc_exit(&root);
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"test_longjmp_chk", "ljf_level1", "ljf_level2", "ljf_level3"})), 1.0);
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"test_longjmp_chk", "lj_after"})), 1.0);
}

TEST(Longjmp, UnmarkedJumpLeavesTheStackAndTheExitRepairsIt) {
  TEST_REGION(root, "test_unmarked");
  hcc_enter(&root);
  ASSERT_EQ(hcc_test_jump(HCC_TEST_LONGJMP, 0), 1);
  // Unknown env: nothing to unwind to, the three frames are still open ...
  EXPECT_EQ(hcc::rt::testing::open_frames(), 4u);
  hcc_exit(&root);  // ... until the caller's exit closes them all
  EXPECT_EQ(hcc::rt::testing::open_frames(), 0u);
  hcc_enter(&after_region);
  hcc_exit(&after_region);
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"test_unmarked", "lj_level1", "lj_level2", "lj_level3"})), 1.0);
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"lj_after"})), 1.0);
}

TEST(Longjmp, StaleMarkOfAReturnedFunctionIsIgnored) {
  TEST_REGION(root, "test_stale_mark");
  hcc_enter(&root);
  ASSERT_EQ(hcc_test_stale_mark_jump(), 1);
  // The frame that set the mark has returned: the jump is treated as unknown
  // (the three frames stay open) rather than closing to the stale depth.
  EXPECT_EQ(hcc::rt::testing::open_frames(), 4u);
  hcc_exit(&root);
  EXPECT_EQ(hcc::rt::testing::open_frames(), 0u);
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"test_stale_mark", "lj_marker"})), 1.0);
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"test_stale_mark", "lj_level1", "lj_level2", "lj_level3"})), 1.0);
}

}  // namespace
