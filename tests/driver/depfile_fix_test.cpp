// Dependency-file rewriting: input text and expected text side by side.
#include <gtest/gtest.h>

#include "depfile_fix.hpp"
#include "test_util.hpp"

using namespace hcc::driver;

namespace {
const std::string kPrelude = "/opt/hcc/include/hcc/detail/";
const std::vector<PathRewrite> kTemp = {{"/tmp/hcc-Ab12Cd/x.c", "src/x.c"}};
}  // namespace

TEST(RewriteDepfile, GccMmdWithPhonyTargets) {
  // What gcc 12 writes for `-MMD -MP` with the prelude force-included.
  std::string in =
      "x.o: /tmp/hcc-Ab12Cd/x.c /opt/hcc/include/hcc/detail/inject.h \\\n"
      " /opt/hcc/include/hcc/detail/../region.h src/h.h\n"
      "/opt/hcc/include/hcc/detail/inject.h:\n"
      "/opt/hcc/include/hcc/detail/../region.h:\n"
      "src/h.h:\n";
  std::string want =
      "x.o: src/x.c src/h.h\n"
      "src/h.h:\n";
  EXPECT_EQ(rewrite_depfile(in, kTemp, kPrelude), want);
}

TEST(RewriteDepfile, ClangMdWithBlankLinesBetweenPhonyRules) {
  // Clang 14 style: two-space continuation indent, blank line between rules.
  std::string in =
      "obj/x.o: /tmp/hcc-Ab12Cd/x.c \\\n"
      "  /opt/hcc/include/hcc/detail/inject.h \\\n"
      "  /opt/hcc/include/hcc/detail/../region.h \\\n"
      "  /usr/include/stdint.h src/h.h\n"
      "\n"
      "/opt/hcc/include/hcc/detail/inject.h:\n"
      "\n"
      "/opt/hcc/include/hcc/detail/../region.h:\n"
      "\n"
      "/usr/include/stdint.h:\n"
      "\n"
      "src/h.h:\n";
  std::string want =
      "obj/x.o: src/x.c \\\n"
      "  /usr/include/stdint.h src/h.h\n"
      "\n"
      "/usr/include/stdint.h:\n"
      "\n"
      "src/h.h:\n";
  EXPECT_EQ(rewrite_depfile(in, kTemp, kPrelude), want);
}

TEST(RewriteDepfile, ThePipeOfAnEarlyStartedCompileIsDropped) {
  // GCC's -MMD -MP for a compile started on the leading system headers: its
  // main file names the source, the pipe it read the rest through is hcc's.
  const std::vector<PathRewrite> early = {{"/tmp/hcc-Ef34Gh/x.c", "src/x.c"},
                                          {"/tmp/hcc-Ef34Gh/instrumented-text", "", false, true}};
  std::string in =
      "x.o: /tmp/hcc-Ef34Gh/x.c /opt/hcc/include/hcc/detail/inject.h \\\n"
      " /tmp/hcc-Ef34Gh/instrumented-text src/h.h\n"
      "/opt/hcc/include/hcc/detail/inject.h:\n"
      "/tmp/hcc-Ef34Gh/instrumented-text:\n"
      "src/h.h:\n";
  std::string want =
      "x.o: src/x.c src/h.h\n"
      "src/h.h:\n";
  EXPECT_EQ(rewrite_depfile(in, early, kPrelude), want);
}

TEST(RewriteDepfile, EscapedBlanksDollarsAndHashes) {
  // TMPDIR with a blank; a user source with blank, '$' and '#' in its name.
  std::vector<PathRewrite> rw = {{"/my tmp/hcc-1/a b$#.c", "dir one/a b$#.c"}};
  std::string in = "a\\ b$$\\#.o: /my\\ tmp/hcc-1/a\\ b$$\\#.c h.h\n";
  std::string want = "a\\ b$$\\#.o: dir\\ one/a\\ b$$\\#.c h.h\n";
  EXPECT_EQ(rewrite_depfile(in, rw, kPrelude), want);
}

TEST(RewriteDepfile, SeveralSourcesAndOnlyWholeWordsMatch) {
  std::vector<PathRewrite> rw = {{"/tmp/hcc-1/x.c", "a/x.c"}, {"/tmp/hcc-2/y.c", "b/y.c"}};
  std::string in = "app.d: /tmp/hcc-2/y.c /tmp/hcc-1/x.c.orig /tmp/hcc-1/x.c\n";
  std::string want = "app.d: b/y.c /tmp/hcc-1/x.c.orig a/x.c\n";
  EXPECT_EQ(rewrite_depfile(in, rw, kPrelude), want);
}

TEST(RewriteDepfile, UntouchedWhenNothingMatches) {
  std::string in = "x.o: src/x.c src/h.h \\\n /usr/include/stdio.h\n";
  EXPECT_EQ(rewrite_depfile(in, kTemp, kPrelude), in);
}

TEST(MakeEscape, MatchesGccMkdeps) {
  EXPECT_EQ(make_escape("plain/x.c"), "plain/x.c");
  EXPECT_EQ(make_escape("a b"), "a\\ b");
  EXPECT_EQ(make_escape("a\\ b"), "a\\\\\\ b");  // backslash before blank doubled
  EXPECT_EQ(make_escape("$x#y"), "$$x\\#y");
}

TEST(DepfileCandidates, FollowGccAndClangNaming) {
  using Args = std::vector<std::string>;
  EXPECT_EQ(depfile_candidates(classify({"-MMD", "-c", "src/x.c"}), {"src/x.c"}),
            (Args{"x.d", "a-x.d"}));
  EXPECT_EQ(depfile_candidates(classify({"-MD", "-c", "src/x.c", "-o", "obj/x.foo.o"}), {"src/x.c"}),
            (Args{"obj/x.foo.d", "obj/x.foo-x.d", "x.d", "a-x.d"}));
  EXPECT_EQ(depfile_candidates(classify({"-MD", "-MF", "deps/x.dep", "-c", "x.c"}), {"x.c"}),
            (Args{"deps/x.dep", "x.d", "a-x.d"}));
  EXPECT_EQ(depfile_candidates(classify({"-c", "x.c"}), {"x.c"}), Args{});
}

TEST(FixDepfile, RewritesOnlyFilesThatNameATempPath) {
  hcc_test::ScratchDir d;
  std::string ours = d / "x.d", theirs = d / "other.d";
  hcc_test::write_file(ours, "x.o: /tmp/hcc-Ab12Cd/x.c /opt/hcc/include/hcc/detail/inject.h\n");
  hcc_test::write_file(theirs, "y.o: y.c /opt/hcc/include/hcc/detail/inject.h\n");
  std::string err;
  EXPECT_TRUE(fix_depfile(ours, kTemp, kPrelude, err)) << err;
  EXPECT_TRUE(fix_depfile(theirs, kTemp, kPrelude, err)) << err;
  EXPECT_TRUE(fix_depfile(d / "missing.d", kTemp, kPrelude, err)) << err;
  EXPECT_EQ(hcc_test::read_file(ours), "x.o: src/x.c\n");
  EXPECT_EQ(hcc_test::read_file(theirs), "y.o: y.c /opt/hcc/include/hcc/detail/inject.h\n");
  EXPECT_FALSE(hcc_test::exists(d / "missing.d"));
}

// Headers read from the shadow tree: the copies' names come back as the
// compiler knows the originals, anything else under the tree loses the
// tree's prefix; the source's own copy keeps its exact rewrite.
TEST(RewriteDepfile, ShadowTreeCopiesNameTheRealHeaders) {
  const std::string root = "/tmp/hcc-Zz99Yy/shadow";
  const std::vector<PathRewrite> rw = {
      {"/tmp/hcc-Ab12Cd/x.c", "src/x.c"},
      {root + "/work/p/include/geo/grid.hpp", "include/geo/grid.hpp"},
      {root + "/", "/", true}};
  std::string in =
      "x.o: /tmp/hcc-Ab12Cd/x.c \\\n"
      " /tmp/hcc-Zz99Yy/shadow/work/p/include/geo/grid.hpp \\\n"
      " /tmp/hcc-Zz99Yy/shadow/work/p/src/local.h\n"
      "/tmp/hcc-Zz99Yy/shadow/work/p/include/geo/grid.hpp:\n"
      "/tmp/hcc-Zz99Yy/shadow/work/p/src/local.h:\n";
  std::string want =
      "x.o: src/x.c \\\n"
      " include/geo/grid.hpp \\\n"
      " /work/p/src/local.h\n"
      "include/geo/grid.hpp:\n"
      "/work/p/src/local.h:\n";
  EXPECT_EQ(rewrite_depfile(in, rw, kPrelude), want);
}
