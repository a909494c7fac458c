// @file expansion with GCC's quoting rules.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include "response_file.hpp"
#include "test_util.hpp"

using namespace hcc::driver;
using Args = std::vector<std::string>;

TEST(ResponseText, BlanksQuotesAndBackslashes) {
  EXPECT_EQ(split_response_text("  -c\ta.c\n-o  'out dir/a.o' \"-DMSG=\\\"hi there\\\"\"  "),
            (Args{"-c", "a.c", "-o", "out dir/a.o", "-DMSG=\"hi there\""}));
  EXPECT_EQ(split_response_text("a\\ b c\\\\d"), (Args{"a b", "c\\d"}));
  EXPECT_EQ(split_response_text("'it''s' \"x\"'y'z"), (Args{"its", "xyz"}));
  EXPECT_EQ(split_response_text("'' \"\" x"), (Args{"", "", "x"}));
  EXPECT_EQ(split_response_text("'a\\'b'"), (Args{"a'b"}));  // libiberty: \ escapes in quotes too
  EXPECT_EQ(split_response_text(""), Args{});
  EXPECT_EQ(split_response_text(" \n\t "), Args{});
}

TEST(ResponseText, QuotingRoundTrips) {
  Args tricky = {"plain", "with space", "tab\there", "q'uote", "d\"q", "back\\slash", "", "new\nline"};
  std::string text;
  for (const auto &a : tricky) text += quote_for_response_file(a) + "\n";
  EXPECT_EQ(split_response_text(text), tricky);
}

TEST(ResponseFile, ExpandsInPlaceAndRecursively) {
  hcc_test::ScratchDir d;
  hcc_test::write_file(d / "outer.rsp", "-c 'a b.c' @" + (d / "inner.rsp") + " -o x.o\n");
  hcc_test::write_file(d / "inner.rsp", "-DINNER=1 -Iinc");
  Expansion ex = expand_response_files({"-O2", "@" + (d / "outer.rsp"), "-g"});
  EXPECT_TRUE(ex.expanded_any);
  EXPECT_EQ(ex.args, (Args{"-O2", "-c", "a b.c", "-DINNER=1", "-Iinc", "-o", "x.o", "-g"}));
}

TEST(ResponseFile, UnreadableStaysLiteral) {
  hcc_test::ScratchDir d;
  Expansion ex = expand_response_files({"@" + (d / "missing.rsp"), "@" + d.path(), "@"});
  EXPECT_FALSE(ex.expanded_any);
  EXPECT_EQ(ex.args, (Args{"@" + (d / "missing.rsp"), "@" + d.path(), "@"}));
}

TEST(ResponseFile, SelfReferenceTerminates) {
  hcc_test::ScratchDir d;
  hcc_test::write_file(d / "loop.rsp", "-x @" + (d / "loop.rsp"));
  Expansion ex = expand_response_files({"@" + (d / "loop.rsp")});
  EXPECT_TRUE(ex.expanded_any);
  // Bounded: 2000 expansions, then the compiler gets the rest as it is.
  EXPECT_EQ(ex.args.size(), 2001u);
  EXPECT_EQ(ex.args.back(), "@" + (d / "loop.rsp"));
}

// Issue 28, item 4: an @file naming a FIFO made hcc wait in open() for a
// writer for ever; one naming /dev/zero (through a link) read without end.
// Neither is a regular file: both stay literal, at once, for the compiler.
TEST(ResponseFile, AFifoOrADeviceStaysLiteralWithoutWaiting) {
  hcc_test::ScratchDir d;
  const std::string fifo = d / "args.fifo", zero = d / "zero.rsp";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(::symlink("/dev/zero", zero.c_str()), 0);
  Expansion ex = expand_response_files({"-c", "@" + fifo, "@" + zero});
  EXPECT_FALSE(ex.expanded_any);
  EXPECT_EQ(ex.args, (Args{"-c", "@" + fifo, "@" + zero}));
}
