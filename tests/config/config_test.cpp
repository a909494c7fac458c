// The configuration table (config/): the one on/off vocabulary, typed
// parses with their ranges, the accessors' messages, and the table itself.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "config/config.hpp"
#include "config/markdown.hpp"

namespace hcc::config {
namespace {

TEST(SwitchWords, EveryWordInAnyCase) {
  for (const char *w : {"on", "ON", "On", "1", "yes", "YES", "Yes", "true", "TRUE", "True"})
    EXPECT_EQ(parse_switch(w), std::optional<bool>(true)) << w;
  for (const char *w : {"off", "OFF", "Off", "0", "no", "NO", "No", "false", "FALSE", "False"})
    EXPECT_EQ(parse_switch(w), std::optional<bool>(false)) << w;
}

TEST(SwitchWords, BadWordsEmptyAndNullAreNeither) {
  for (const char *w : {"", " on", "on ", "2", "01", "y", "n", "enable", "offf", "o", "yes!", "-1"})
    EXPECT_EQ(parse_switch(w), std::nullopt) << "'" << w << "'";
  EXPECT_EQ(parse_switch(nullptr), std::nullopt);
}

TEST(SwitchWords, MessageListsEveryWord) {
  EXPECT_STREQ(switch_words(), "on, off, 1, 0, yes, no, true or false");
}

const Variable &row(const char *name) {
  const Variable *v = find(name);
  EXPECT_NE(v, nullptr) << name;
  return *v;
}

TEST(Numbers, UnsignedInRangeAndOut) {
  const Variable &verbose = row("HCC_VERBOSE");
  EXPECT_TRUE(parse_number(verbose, "2").ok);
  EXPECT_EQ(parse_number(verbose, "2").value, 2);
  for (const char *bad : {"3", "-1", "+1", " 1", "1x", "", "1.5"}) {
    const Parsed p = parse_number(verbose, bad);
    EXPECT_FALSE(p.ok) << bad;
    EXPECT_EQ(p.why, "is not an integer from 0 to 2") << bad;
  }
}

TEST(Numbers, SizesWithUnitsAndTheRangeInTheMessage) {
  const Variable &buffer = row("HCC_TRACE_BUFFER");
  EXPECT_EQ(parse_number(buffer, "4M").value, 4 << 20);
  EXPECT_EQ(parse_number(buffer, "512k").value, 512 << 10);
  EXPECT_EQ(parse_number(buffer, "1G").value, 1 << 30);
  EXPECT_EQ(parse_number(buffer, "2048").value, 2048);
  EXPECT_EQ(parse_number(buffer, "64KB").value, 64 << 10);
  EXPECT_TRUE(parse_number(buffer, "4G").ok);
  for (const char *bad : {"5G", "1023", "4T", "M", "-4M", "4 M"}) {
    const Parsed p = parse_number(buffer, bad);
    EXPECT_FALSE(p.ok) << bad;
    EXPECT_EQ(p.why, "is not a size from 1K to 4G (bytes, or with K, M, G)") << bad;
  }
}

TEST(Numbers, SecondsKeepTheirFraction) {
  const Variable &snap = row("HCC_SNAPSHOT");
  EXPECT_DOUBLE_EQ(parse_number(snap, "0.25").value, 0.25);
  EXPECT_TRUE(parse_number(snap, "86400").ok);
  const Parsed p = parse_number(snap, "0.001");
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(p.why, "is not a number of seconds from 0.01 to 86400");
  EXPECT_FALSE(parse_number(snap, "inf").ok);
  EXPECT_FALSE(parse_number(snap, "1s").ok);
}

// The accessors on the real environment, with the message a user sees.
class Accessors : public ::testing::Test {
 protected:
  void TearDown() override {
    ::unsetenv("HCC_TRACE");
    ::unsetenv("HCC_SERVER_IDLE");
  }
};

TEST_F(Accessors, FlagDefaultsWordsAndTheBadValueLine) {
  ::unsetenv("HCC_TRACE");
  EXPECT_FALSE(flag("HCC_TRACE", "not tracing"));  // the row's default, 0
  ::setenv("HCC_TRACE", "", 1);
  EXPECT_FALSE(flag("HCC_TRACE", "not tracing"));
  ::setenv("HCC_TRACE", "Yes", 1);
  EXPECT_TRUE(flag("HCC_TRACE", "not tracing"));
  ::setenv("HCC_TRACE", "2", 1);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(flag("HCC_TRACE", "not tracing"));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "hcc: error: HCC_TRACE='2' is not on, off, 1, 0, yes, no, true or false; not tracing\n");
}

TEST_F(Accessors, NumberNamesTheRangeOrStaysSilent) {
  ::setenv("HCC_SERVER_IDLE", "90000", 1);
  testing::internal::CaptureStderr();
  EXPECT_EQ(number("HCC_SERVER_IDLE", "using 120"), std::nullopt);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "hcc: error: HCC_SERVER_IDLE='90000' is not an integer from 1 to 86400; using 120\n");
  testing::internal::CaptureStderr();
  EXPECT_EQ(number("HCC_SERVER_IDLE", nullptr), std::nullopt);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  ::setenv("HCC_SERVER_IDLE", "30", 1);
  EXPECT_EQ(number("HCC_SERVER_IDLE", "using 120"), std::optional<double>(30));
}

TEST(AccessorsDeathTest, AnUndeclaredNameIsAProgrammingError) {
  EXPECT_DEATH(text("HCC_NO_SUCH_VARIABLE"), "HCC_NO_SUCH_VARIABLE is not in the configuration table");
}

TEST(Table, NamesAreUniqueAndRowsComplete) {
  std::set<std::string> names;
  for (const Variable *v = table_begin(); v != table_end(); ++v) {
    EXPECT_TRUE(names.insert(v->name).second) << v->name << " twice";
    EXPECT_EQ(std::string(v->name).rfind("HCC_", 0), 0u) << v->name;
    EXPECT_NE(*v->doc, '\0') << v->name;
    EXPECT_EQ(std::string(v->doc).find('|'), std::string::npos) << v->name << ": '|' breaks the Markdown table";
    if (v->type == Type::Switch) EXPECT_TRUE(parse_switch(v->default_text).has_value()) << v->name;
    if (v->type == Type::Unsigned || v->type == Type::Size || v->type == Type::Seconds)
      EXPECT_LT(v->min, v->max) << v->name;
  }
  // The ones that used to be read without a row.
  EXPECT_NE(find("HCC_EARLY_START"), nullptr);
  EXPECT_NE(find("HCC_REPORT_WATCH_GIVE_UP"), nullptr);
  EXPECT_GE(names.size(), 42u);  // the 37 of before, HCC_EARLY_START, HCC_REPORT_WATCH_GIVE_UP and three of the scripts'
}

TEST(Markdown, OneRowPerVariableWithWhatItAccepts) {
  const std::string md = markdown_table();
  EXPECT_NE(md.find("| `HCC_TRACE` | `0` | on/off | runtime | "), std::string::npos) << md;
  EXPECT_NE(md.find("| `HCC_CLOCK` | `auto` | `auto`, `tsc` or `monotonic` | runtime | "), std::string::npos);
  EXPECT_NE(md.find("| `HCC_TRACE_BUFFER` | `4M` | a size from 1K to 4G | runtime | "), std::string::npos);
  EXPECT_EQ(compare_section(std::string(kBeginMarker) + "\n" + md + kEndMarker + "\n"), "");
  EXPECT_NE(compare_section(std::string(kBeginMarker) + "\n" + kEndMarker + "\n"), "");
  const std::string doc = std::string("intro\n") + kBeginMarker + "\nold\n" + kEndMarker + "\noutro\n";
  EXPECT_EQ(replace_section(doc), std::string("intro\n") + kBeginMarker + "\n" + md + kEndMarker + "\noutro\n");
}

}  // namespace
}  // namespace hcc::config
