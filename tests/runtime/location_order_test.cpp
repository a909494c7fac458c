// Location order (runtime/core/thread_state.hpp): threads that claimed an
// OpenMP thread number come first, by that number; every other thread
// follows in start order. A number is claimed once per thread (a later
// claim changes nothing) and only by the first thread to ask for it.
// pomp/team.cpp makes the claims under real OpenMP (tests/openmp,
// thread_numbers_e2e_test.cpp); here threads claim through the testing hook
// so the conflicts a changing thread pool could cause are reproducible.
#include <gtest/gtest.h>

#include <thread>

#include "test_util.hpp"

using tu::find_path;

namespace {

TEST_REGION(root_region, "order_root");
TEST_REGION(plain_region, "plain_thread");
TEST_REGION(a_region, "claims_1_then_3");
TEST_REGION(b_region, "claims_1_too");
TEST_REGION(c_region, "claims_0");

void run_as(hcc_region_desc *r, std::initializer_list<int> claims) {
  std::thread t([&] {
    hcc_enter(r);
    for (int k : claims) hcc::rt::testing::claim_team_thread(k);
    hcc_exit(r);
  });
  t.join();
}

TEST(LocationOrder, ClaimedNumbersFirstThenStartOrderFirstClaimWins) {
  if (::testing::UnitTest::GetInstance()->test_to_run_count() != 1)
    GTEST_SKIP() << "needs a process of its own (as under CTest)";
  hcc_enter(&root_region);                    // start number 0, claims nothing
  run_as(&plain_region, {});                  // 1, claims nothing
  run_as(&a_region, {1, 3});                  // 2, keeps 1
  run_as(&b_region, {1});                     // 3, 1 is taken: none
  run_as(&c_region, {0});                     // 4, claims 0
  hcc_exit(&root_region);

  const auto p = hcc::rt::testing::build_profile_now();
  ASSERT_EQ(p.nloc(), 5u);
  const size_t visits = size_t(p.metric_index("visits"));
  auto location_of = [&](const char *region) {
    const int c = find_path(p, {region});
    EXPECT_GE(c, 0) << region;
    int at = -1;
    for (size_t l = 0; c >= 0 && l < p.nloc(); ++l)
      if (p.at(visits, size_t(c), l) > 0) at = int(l);
    return at;
  };
  EXPECT_EQ(location_of("claims_0"), 0);
  EXPECT_EQ(location_of("claims_1_then_3"), 1);
  EXPECT_EQ(location_of("order_root"), 2);
  EXPECT_EQ(location_of("plain_thread"), 3);
  EXPECT_EQ(location_of("claims_1_too"), 4);
  for (size_t l = 0; l < p.nloc(); ++l) {
    EXPECT_EQ(p.locations[l].name, "thread " + std::to_string(l));
    EXPECT_EQ(p.locations[l].thread, int(l));
  }
  std::string numbers;
  for (const auto &[k, v] : p.attrs)
    if (k == "openmp thread numbers") numbers = v;
  EXPECT_EQ(numbers, "0 1 - - -");
}

// Without claims (no OpenMP) the order is the start order, and the profile
// has no `openmp thread numbers` attribute.
TEST(LocationOrder, NoClaimsKeepStartOrder) {
  if (::testing::UnitTest::GetInstance()->test_to_run_count() != 1)
    GTEST_SKIP() << "needs a process of its own (as under CTest)";
  hcc_enter(&root_region);
  run_as(&plain_region, {});
  hcc_exit(&root_region);
  const auto p = hcc::rt::testing::build_profile_now();
  ASSERT_EQ(p.nloc(), 2u);
  const size_t visits = size_t(p.metric_index("visits"));
  EXPECT_EQ(p.at(visits, size_t(find_path(p, {"order_root"})), 0), 1.0);
  EXPECT_EQ(p.at(visits, size_t(find_path(p, {"plain_thread"})), 1), 1.0);
  for (const auto &kv : p.attrs) EXPECT_NE(kv.first, "openmp thread numbers");
}

}  // namespace
