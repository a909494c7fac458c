// HCC_* parsing: good values are taken, bad ones are named with their value
// and replaced by the default, unknown HCC_* names draw a warning.
#include <gtest/gtest.h>

#include "test_util.hpp"

using hcc::rt::testing::parse_environment;
using Msgs = std::vector<std::string>;

namespace {

TEST(Env, DefaultsWithoutVariables) {
  auto r = parse_environment({"PATH=/bin", "HOME=/root"});
  EXPECT_TRUE(r.messages.empty());
  EXPECT_EQ(r.max_depth, 1024u);
  EXPECT_EQ(r.verbose, 1);
  EXPECT_TRUE(r.signals);
  EXPECT_EQ(r.output_dir, "");
  EXPECT_EQ(r.clock, "auto");
}

TEST(Env, GoodValuesAreTaken) {
  auto r = parse_environment({"HCC_MAX_DEPTH=7", "HCC_VERBOSE=2", "HCC_SIGNALS=0", "HCC_OUTPUT_DIR=/x/y",
                              "HCC_CLOCK=monotonic", "HCC_COMPILER=gcc-12", "HCC_WRAPPER=off"});
  EXPECT_EQ(r.messages, Msgs{});
  EXPECT_EQ(r.max_depth, 7u);
  EXPECT_EQ(r.verbose, 2);
  EXPECT_FALSE(r.signals);
  EXPECT_EQ(r.output_dir, "/x/y");
  EXPECT_EQ(r.clock, "monotonic");
}

TEST(Env, BadValuesNameVariableAndValueAndKeepTheDefault) {
  auto r = parse_environment({"HCC_MAX_DEPTH=abc", "HCC_VERBOSE=7"});
  EXPECT_EQ(r.messages, (Msgs{"hcc: error: HCC_MAX_DEPTH='abc' is not a positive integer; using 1024",
                              "hcc: error: HCC_VERBOSE='7' is not 0, 1 or 2; using 1"}));
  EXPECT_EQ(r.max_depth, 1024u);
  EXPECT_EQ(r.verbose, 1);
}

TEST(Env, NumbersMustBeWholeAndInRange) {
  for (const char *bad : {"0", "-5", "12x", " 12", "", "+3", "99999999999999999999999"}) {
    auto r = parse_environment({std::string("HCC_MAX_DEPTH=") + bad});
    ASSERT_EQ(r.messages.size(), 1u) << bad;
    EXPECT_NE(r.messages[0].find(std::string("HCC_MAX_DEPTH='") + bad + "'"), std::string::npos);
    EXPECT_EQ(r.max_depth, 1024u);
  }
  auto big = parse_environment({"HCC_MAX_DEPTH=16777217"});
  EXPECT_EQ(big.messages, Msgs{"hcc: error: HCC_MAX_DEPTH='16777217' is larger than 16777216; using 1024"});
  EXPECT_EQ(parse_environment({"HCC_MAX_DEPTH=16777216"}).max_depth, 16777216u);
}

TEST(Env, OtherBadValues) {
  auto r = parse_environment({"HCC_SIGNALS=2", "HCC_CLOCK=rdtsc", "HCC_OUTPUT_DIR=", "HCC_OVERWRITE=sure",
                              "HCC_CFG=enabled"});
  EXPECT_EQ(r.messages,
            (Msgs{"hcc: error: HCC_SIGNALS='2' is not on, off, 1, 0, yes, no, true or false; using 1",
                  "hcc: error: HCC_CLOCK='rdtsc' is not auto, tsc or monotonic; using auto",
                  "hcc: error: HCC_OUTPUT_DIR='' is empty; using a new ./hcc-<program>-<date>_<time>",
                  "hcc: error: HCC_OVERWRITE='sure' is not on, off, 1, 0, yes, no, true or false; using 0",
                  "hcc: error: HCC_CFG='enabled' is not on, off, 1, 0, yes, no, true or false; using on"}));
  EXPECT_TRUE(r.signals);
  EXPECT_EQ(r.clock, "auto");
}

// The one vocabulary (config/switch_words.cpp): 0/1 as before, and the words.
TEST(Env, SwitchesTakeEveryOnOffWordInAnyCase) {
  for (const char *off : {"0", "off", "OFF", "no", "No", "false", "FALSE"}) {
    auto r = parse_environment({std::string("HCC_SIGNALS=") + off, std::string("HCC_OVERWRITE=") + off,
                                std::string("HCC_CFG=") + off});
    EXPECT_EQ(r.messages, Msgs{}) << off;
    EXPECT_FALSE(r.signals) << off;
  }
  for (const char *on : {"1", "on", "On", "yes", "YES", "true", "True"}) {
    auto r = parse_environment({"HCC_SIGNALS=0", std::string("HCC_SIGNALS=") + on, std::string("HCC_CFG=") + on});
    EXPECT_EQ(r.messages, Msgs{}) << on;
    EXPECT_TRUE(r.signals) << on;
  }
}

// Every part's variables are known here, not only the runtime's: the
// driver's, the cache's, hcc-report's and the scripts' draw no warning.
TEST(Env, EveryPartsVariablesAreKnown) {
  auto r = parse_environment({"HCC_EARLY_START=off", "HCC_REPORT_WATCH_GIVE_UP=5", "HCC_CACHE_MAX_MB=10",
                              "HCC_SERVER_IDLE=3", "HCC_SANITIZE=thread", "HCC_MPI_GROUPS=ALL"});
  EXPECT_EQ(r.messages, Msgs{});
}

TEST(Env, UnknownNamesAreWarnedAboutWithASuggestion) {
  auto r = parse_environment({"HCC_MAXDEPTH=5", "HCC_OUTPUTDIR=/x", "HCC_NONSENSE_NAME=1", "HCCX=1", "MY_HCC_THING=2"});
  EXPECT_EQ(r.messages,
            (Msgs{"hcc: warning: unknown environment variable HCC_MAXDEPTH ignored (did you mean HCC_MAX_DEPTH?)",
                  "hcc: warning: unknown environment variable HCC_OUTPUTDIR ignored (did you mean HCC_OUTPUT_DIR?)",
                  "hcc: warning: unknown environment variable HCC_NONSENSE_NAME ignored"}));
  EXPECT_EQ(r.output_dir, "");
  EXPECT_EQ(r.max_depth, 1024u);
}

}  // namespace
