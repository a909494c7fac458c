// The instrumentation cache must not run another user's code (issue 28,
// item 1): real `hcc` builds against caches another user prepared.
//
// Each test builds app.c, which prints "plain output". An attacker's entry
// for the same key replaces that line with code that creates the file
// `pwned` and prints "FORGED". The forged entries are sealed as hcc seals
// its own (result_cache.h): an attacker can compute a seal too, so only the
// directory and ownership rules may stop them, and these tests check exactly
// that. The second user is `hcc-attacker` (tests/support/other_user.hpp);
// without root the tests skip.
#include "e2e_support.hpp"
#include "../support/other_user.hpp"

#include "result_cache.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace hcc::e2e {
namespace {

namespace fs = std::filesystem;

const std::string kPlainLine =
    "  puts(\"plain output\"); /* room for the attacker's line: "
    "................................................................................ */\n";
const std::string kSource = "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n" + kPlainLine +
                            "  return 0;\n}\n";
// The attacker's line, padded to the plain line's length so that every
// length field of the entry stays right.
std::string forgedLine() {
  std::string line = "  system(\"touch pwned\"); puts(\"FORGED\");";
  line.append(kPlainLine.size() - 1 - line.size(), ' ');
  return line + "\n";
}

const char kServed[] = "(from the instrumentation cache)";

void write_file(const std::string &path, const std::string &bytes, mode_t mode = 0644) {
  std::ofstream(path, std::ios::binary) << bytes;
  ::chmod(path.c_str(), mode);
}

// Hands `path` and everything under it to `uid` (links themselves, not
// what they point to).
void give_to(const std::string &path, uid_t uid) {
  ASSERT_EQ(::lchown(path.c_str(), uid, uid), 0) << path;
  if (fs::is_directory(fs::symlink_status(path)))
    for (const auto &e : fs::recursive_directory_iterator(path))
      ASSERT_EQ(::lchown(e.path().c_str(), uid, uid), 0) << e.path();
}

class CacheTrust : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    attacker_ = hcc::test::other_user(why);
    if (attacker_ == static_cast<uid_t>(-1)) GTEST_SKIP() << why;
    dir_ = scratch_dir(std::string("cache_trust/") +
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    write_file(dir_ + "/app.c", kSource);
  }

  // `hcc -O1 app.c -o app` with the cache in `cache`, verbose (so a served
  // entry says so), without the server (the tool is hcc's child).
  RunResult build(const std::string &cache, const std::string &prefix = "") {
    return run("cd " + shell_quote(dir_) + " && " + prefix + " env HCC_SERVER=off HCC_CACHE=on HCC_CACHE_DIR=" +
               shell_quote(cache) + " " + shell_quote(hcc_bin()) + " --hcc-verbose -O1 app.c -o app");
  }
  RunResult run_app() { return run("cd " + shell_quote(dir_) + " && HCC_OUTPUT_DIR=prof ./app"); }

  // The one entry a build stored in `cache`: "<2 hex>/<rest>" (not pch/).
  static std::string entry_name(const std::string &cache) {
    std::string found;
    for (const auto &e : fs::recursive_directory_iterator(cache)) {
      const std::string rel = fs::relative(e.path(), cache).string();
      if (e.is_regular_file() && rel.compare(0, 4, "pch/") != 0) {
        EXPECT_TRUE(found.empty()) << "more than one entry: " << found << ", " << rel;
        found = rel;
      }
    }
    return found;
  }

  // A private cache holding the honest entry for app.c; returns its name.
  std::string honest_entry(const std::string &cache) {
    RunResult r = build(cache);
    EXPECT_EQ(r.status, 0) << r.err;
    const std::string name = entry_name(cache);
    EXPECT_EQ(name.size(), 65u) << name;  // "kk/" + 62 hex digits
    return name;
  }

  // That entry with the attacker's line, sealed for its key as hcc would.
  std::string forged_entry(const std::string &cache, const std::string &name) {
    const std::string key = name.substr(0, 2) + name.substr(3);
    const std::string stored = read_file(cache + "/" + name);
    std::optional<llvm::StringRef> body = rewriter::unseal(key, stored);
    EXPECT_TRUE(body) << "the honest entry's seal does not hold";
    if (!body) return "";
    std::string text = body->str();
    const size_t at = text.find(kPlainLine);
    EXPECT_NE(at, std::string::npos) << "the instrumented text is not in the entry";
    if (at == std::string::npos) return "";
    text.replace(at, kPlainLine.size(), forgedLine());
    return rewriter::seal(key, text);
  }

  // The program hcc built prints the plain line and creates nothing.
  void expect_plain_program() {
    RunResult r = run_app();
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "plain output\n");
    EXPECT_FALSE(fs::exists(dir_ + "/pwned")) << "the forged entry ran";
  }

  static size_t count(const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }

  uid_t attacker_ = 0;
  std::string dir_;
};

// (a) A cache directory another user owns, holding an entry for this very
// build (sealed, with the attacker's code): hcc warns once, does not read
// it, and the program is the plain one.
TEST_F(CacheTrust, ACacheDirectoryAnotherUserOwnsIsNotUsed) {
  const std::string honest = dir_ + "/honest-cache";
  const std::string name = honest_entry(honest);
  ASSERT_FALSE(name.empty());
  const std::string shared = dir_ + "/shared-cache";
  fs::create_directories(shared + "/" + name.substr(0, 2));
  write_file(shared + "/" + name, forged_entry(honest, name));
  give_to(shared, attacker_);
  ::chmod(shared.c_str(), 0755);

  RunResult r = build(shared);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find(kServed), std::string::npos) << r.err;
  const std::string warning = "hcc: warning: not using the instrumentation cache " + shared + ": owned by uid " +
                              std::to_string(attacker_) + "; building without it\n";
  EXPECT_EQ(count(r.err, warning), 1u) << r.err;
  EXPECT_EQ(count(r.err, "not using the instrumentation cache"), 1u) << r.err;
  expect_plain_program();
}

// (b) A shared cache (root's, but world-writable like /tmp) where the
// attacker made the entry's directory and planted `<entry>.tmp<pid>` links,
// for every pid hcc's processes can have, to a file only root may write:
// the build does not write through them; the file keeps its bytes. The build
// runs in a new pid namespace, so its pids are small and all are covered.
TEST_F(CacheTrust, PlantedTemporaryLinksDoNotLetABuildOverwriteAFile) {
  if (::access("/usr/bin/unshare", X_OK) != 0) GTEST_SKIP() << "needs unshare(1) for a pid namespace";
  const std::string honest = dir_ + "/honest-cache";
  const std::string name = honest_entry(honest);
  ASSERT_FALSE(name.empty());
  const std::string secret = dir_ + "/root-only";
  const std::string secret_bytes = "only root may change these bytes\n";
  write_file(secret, secret_bytes, 0600);

  const std::string shared = dir_ + "/shared-cache";
  fs::create_directories(shared + "/" + name.substr(0, 2));
  for (int pid = 1; pid <= 4096; ++pid)
    ASSERT_EQ(::symlink(secret.c_str(), (shared + "/" + name + ".tmp" + std::to_string(pid)).c_str()), 0);
  give_to(shared + "/" + name.substr(0, 2), attacker_);
  ::chmod((shared + "/" + name.substr(0, 2)).c_str(), 0777);
  ::chmod(shared.c_str(), 01777);

  RunResult r = build(shared, "unshare --pid --fork --kill-child");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(read_file(secret) == secret_bytes) << "the root-only file was written through a planted link";
  struct stat st;
  ASSERT_EQ(::stat(secret.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 0u);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(count(r.err, "hcc: warning: not using the instrumentation cache " + shared +
                             ": writable by group or others; building without it\n"),
            1u)
      << r.err;
  expect_plain_program();
}

// (c) In the user's own private cache, an entry whose instrumented text was
// edited afterwards (not sealed again) is a miss: the file is instrumented
// again, the program is right, and the next build is served the new entry.
TEST_F(CacheTrust, AnEditedEntryIsAMissAndIsRebuilt) {
  const std::string cache = dir_ + "/cache";
  const std::string name = honest_entry(cache);
  ASSERT_FALSE(name.empty());
  std::string stored = read_file(cache + "/" + name);
  const size_t at = stored.find(kPlainLine);
  ASSERT_NE(at, std::string::npos);
  stored.replace(at, kPlainLine.size(), forgedLine());
  write_file(cache + "/" + name, stored, 0600);

  RunResult r = build(cache);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find(kServed), std::string::npos) << r.err;
  expect_plain_program();
  EXPECT_EQ(read_file(cache + "/" + name).find(forgedLine()), std::string::npos) << "not stored again";

  RunResult again = build(cache);
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.err.find(kServed), std::string::npos) << again.err;
  expect_plain_program();
}

// (d) The user's own private cache, where another user made the entry's
// directory and pch/ earlier (while the cache was open to them): neither is
// used, not even the entry in it the user's own build would have written,
// and nothing is written into them.
TEST_F(CacheTrust, SubdirectoriesAnotherUserMadeAreRefused) {
  const std::string honest = dir_ + "/honest-cache";
  const std::string name = honest_entry(honest);
  ASSERT_FALSE(name.empty());
  const std::string cache = dir_ + "/cache";
  fs::create_directories(cache + "/" + name.substr(0, 2));
  fs::create_directories(cache + "/pch");
  write_file(cache + "/" + name, forged_entry(honest, name));  // the user's file, in the attacker's directory
  give_to(cache + "/" + name.substr(0, 2), attacker_);
  ::lchown((cache + "/" + name).c_str(), 0, 0);
  give_to(cache + "/pch", attacker_);
  ::chmod((cache + "/" + name.substr(0, 2)).c_str(), 0755);
  ::chmod((cache + "/pch").c_str(), 0755);
  ::chmod(cache.c_str(), 0700);

  for (int i = 0; i < 2; ++i) {  // twice: a preamble seen again would be precompiled into pch/
    RunResult r = build(cache);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find(kServed), std::string::npos) << r.err;
    expect_plain_program();
  }
  size_t in_entry_dir = 0;
  for (const auto &e : fs::directory_iterator(cache + "/" + name.substr(0, 2))) (void)e, ++in_entry_dir;
  EXPECT_EQ(in_entry_dir, 1u) << "the build wrote into the attacker's directory";
  EXPECT_TRUE(fs::is_empty(cache + "/pch")) << "the build wrote into the attacker's pch/";
}

// An entry file another user owns, in directories that are the user's own
// (as an administrator's copy could leave it): ignored. First, as the
// user's own file, the same forged entry is served: a seal anyone can
// compute is not what stops it (result_cache.h, "Trust"), ownership is.
TEST_F(CacheTrust, AnEntryAnotherUserOwnsIsIgnored) {
  const std::string cache = dir_ + "/cache";
  const std::string name = honest_entry(cache);
  ASSERT_FALSE(name.empty());
  const std::string forged = forged_entry(cache, name);
  write_file(cache + "/" + name, forged, 0600);
  RunResult own = build(cache);
  ASSERT_EQ(own.status, 0) << own.err;
  EXPECT_NE(own.err.find(kServed), std::string::npos) << own.err;
  EXPECT_EQ(run_app().out, "FORGED\n");
  fs::remove(dir_ + "/pwned");

  write_file(cache + "/" + name, forged, 0600);
  ASSERT_EQ(::lchown((cache + "/" + name).c_str(), attacker_, attacker_), 0);

  RunResult r = build(cache);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find(kServed), std::string::npos) << r.err;
  expect_plain_program();
}

}  // namespace
}  // namespace hcc::e2e
