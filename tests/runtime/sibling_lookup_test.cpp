// Enter's child lookup through the previous event's successor slot
// (runtime/core/cfg.hpp, hooks.cpp): siblings called in turn, nested
// patterns and a cached successor under the wrong parent, checked by exact
// visits, call paths and predecessor counts, and by how many enters left the
// fast path (testing::general_enters) where this machine has a fast path.
// The same tests run again with HCC_CFG=off (CctSiblingLookupWithCfgOff in
// CMakeLists.txt): the lookup and the visits must not depend on it, and the
// profile then has no predecessor lists.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "hcc/hcc.h"
#include "test_util.hpp"

using tu::find_path;
using tu::preds;
using tu::total;

namespace {

bool cfg_off() {
  const char *v = std::getenv("HCC_CFG");
  return v && std::strcmp(v, "off") == 0;
}

// Predecessors of call path `path` as preds() prints them; with HCC_CFG=off
// the profile must have none at all.
#define EXPECT_PREDS(p, path, expected)                                            \
  do {                                                                             \
    if (cfg_off())                                                                 \
      EXPECT_TRUE((p).preds.empty()) << "HCC_CFG=off wrote predecessor lists";     \
    else                                                                           \
      EXPECT_EQ(preds((p), find_path((p), path)), expected);                       \
  } while (0)

double visits(const hcc::profile::Profile &p, const std::vector<std::string> &path) {
  int c = find_path(p, path);
  return c < 0 ? -1.0 : total(p, "visits", c);
}

TEST_REGION(sa_region, "sib_a");
TEST_REGION(sb_region, "sib_b");
TEST_REGION(sc_region, "sib_c");
void sib_a() { HCC_FUNCTION_GUARD_(g, &sa_region); }
void sib_b() { HCC_FUNCTION_GUARD_(g, &sb_region); }
void sib_c() { HCC_FUNCTION_GUARD_(g, &sc_region); }

// Enters that left the fast path while `body` ran, on this thread.
template <class F>
uint64_t general_enters_during(F &&body) {
  const uint64_t before = hcc::rt::testing::general_enters();
  body();
  return hcc::rt::testing::general_enters() - before;
}

TEST(CctSiblingLookup, TwoSiblingsCalledInTurnStayOnTheFastPathWithExactCounts) {
  TEST_REGION(root, "sib_two_root");
  uint64_t slow = 0;
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 2; ++i) sib_a(), sib_b();  // warm-up: each slot filled once
    slow = general_enters_during([] {
      for (int i = 0; i < 1000; ++i) sib_a(), sib_b();
    });
  }
  if (hcc::rt::testing::fast_path_available()) EXPECT_EQ(slow, 0u) << "a() b() in turn missed the lookup";
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(visits(p, {"sib_two_root", "sib_a"}), 1002);
  EXPECT_EQ(visits(p, {"sib_two_root", "sib_b"}), 1002);
  EXPECT_EQ(tu::children(p, find_path(p, {"sib_two_root"})).size(), 2u);
  EXPECT_PREDS(p, (std::vector<std::string>{"sib_two_root", "sib_a"}), "sib_two_root:1,sib_b:1001");
  EXPECT_PREDS(p, (std::vector<std::string>{"sib_two_root", "sib_b"}), "sib_a:1002");
}

TEST(CctSiblingLookup, ThreeSiblingsCalledInTurnStayOnTheFastPathWithExactCounts) {
  TEST_REGION(root, "sib_three_root");
  uint64_t slow = 0;
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 2; ++i) sib_a(), sib_b(), sib_c();
    slow = general_enters_during([] {
      for (int i = 0; i < 500; ++i) sib_a(), sib_b(), sib_c();
    });
  }
  if (hcc::rt::testing::fast_path_available()) EXPECT_EQ(slow, 0u) << "a() b() c() in turn missed the lookup";
  auto p = hcc::rt::testing::build_profile_now();
  for (const char *s : {"sib_a", "sib_b", "sib_c"}) EXPECT_EQ(visits(p, {"sib_three_root", s}), 502) << s;
  EXPECT_PREDS(p, (std::vector<std::string>{"sib_three_root", "sib_a"}), "sib_three_root:1,sib_c:501");
  EXPECT_PREDS(p, (std::vector<std::string>{"sib_three_root", "sib_b"}), "sib_a:502");
  EXPECT_PREDS(p, (std::vector<std::string>{"sib_three_root", "sib_c"}), "sib_b:502");
}

// Two parents in turn, each calling children: the same region under both
// is two call paths, the first child follows its parent's enter, and the
// steady state never leaves the fast path.
TEST_REGION(np_region, "nest_p");
TEST_REGION(nq_region, "nest_q");
void nest_p() {
  HCC_FUNCTION_GUARD_(g, &np_region);
  sib_a();
  sib_b();
}
void nest_q() {
  HCC_FUNCTION_GUARD_(g, &nq_region);
  sib_a();
  sib_a();
}

TEST(CctSiblingLookup, NestedCallsInTurnKeepTheirCallPathsApart) {
  TEST_REGION(root, "nest_root");
  uint64_t slow = 0;
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 2; ++i) nest_p(), nest_q();
    slow = general_enters_during([] {
      for (int i = 0; i < 300; ++i) nest_p(), nest_q();
    });
  }
  if (hcc::rt::testing::fast_path_available()) EXPECT_EQ(slow, 0u);
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(visits(p, {"nest_root", "nest_p"}), 302);
  EXPECT_EQ(visits(p, {"nest_root", "nest_q"}), 302);
  EXPECT_EQ(visits(p, {"nest_root", "nest_p", "sib_a"}), 302);
  EXPECT_EQ(visits(p, {"nest_root", "nest_p", "sib_b"}), 302);
  EXPECT_EQ(visits(p, {"nest_root", "nest_q", "sib_a"}), 604);
  EXPECT_EQ(find_path(p, {"nest_root", "nest_q", "sib_b"}), -1);
  EXPECT_EQ(find_path(p, {"nest_root", "sib_a"}), -1);
  EXPECT_PREDS(p, (std::vector<std::string>{"nest_root", "nest_p"}), "nest_root:1,nest_q:301");
  EXPECT_PREDS(p, (std::vector<std::string>{"nest_root", "nest_q"}), "nest_p:302");
  EXPECT_PREDS(p, (std::vector<std::string>{"nest_root", "nest_p", "sib_a"}), "nest_p:302");
  EXPECT_PREDS(p, (std::vector<std::string>{"nest_root", "nest_p", "sib_b"}), "sib_a:302");
  EXPECT_PREDS(p, (std::vector<std::string>{"nest_root", "nest_q", "sib_a"}), "nest_q:302,sib_a:302");
}

// A successor that changes (an `if` in the loop) misses and refills the
// slot; the counts stay exact: a() in every third iteration, b() in all.
TEST(CctSiblingLookup, ASuccessorThatChangesKeepsExactPredecessorCounts) {
  TEST_REGION(root, "sib_if_root");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 30; ++i) {
      if (i % 3 == 0) sib_a();
      sib_b();
    }
  }
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(visits(p, {"sib_if_root", "sib_a"}), 10);
  EXPECT_EQ(visits(p, {"sib_if_root", "sib_b"}), 30);
  EXPECT_PREDS(p, (std::vector<std::string>{"sib_if_root", "sib_a"}), "sib_if_root:1,sib_b:9");
  EXPECT_PREDS(p, (std::vector<std::string>{"sib_if_root", "sib_b"}), "sib_a:10,sib_b:20");
}

// A → B → A' (folded, fold.hpp), then x under B: while A' was the previous
// node, x was entered, so A's exit slot names A/B/x. After A returns, main's
// own x() finds that candidate with the right region under the wrong parent:
// it must be a new call path main/x, not A/B/x.
TEST_REGION(fa_region, "fold_a");
TEST_REGION(fb_region, "fold_b");
TEST_REGION(fx_region, "fold_x");
void fold_x() { HCC_FUNCTION_GUARD_(g, &fx_region); }
void fold_a(int depth);
void fold_b(int depth) {
  HCC_FUNCTION_GUARD_(g, &fb_region);
  if (depth > 0) fold_a(depth - 1);
  fold_x();
}
void fold_a(int depth) {
  HCC_FUNCTION_GUARD_(g, &fa_region);
  if (depth >= 0) fold_b(depth);
}

TEST(CctSiblingLookup, ACachedSuccessorUnderAnotherParentIsNotTaken) {
  TEST_REGION(root, "fold_root");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 5; ++i) {
      fold_a(1);  // A → B → A' → B' → x, then x in B
      fold_x();   // main's own x
    }
  }
  EXPECT_FALSE(hcc::rt::testing::recursion_mode());
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(visits(p, {"fold_root", "fold_x"}), 5);
  EXPECT_EQ(visits(p, {"fold_root", "fold_a"}), 10);
  EXPECT_EQ(visits(p, {"fold_root", "fold_a", "fold_b"}), 10);
  EXPECT_EQ(visits(p, {"fold_root", "fold_a", "fold_b", "fold_x"}), 10);
  EXPECT_PREDS(p, (std::vector<std::string>{"fold_root", "fold_x"}), "fold_a:5");
}

}  // namespace
