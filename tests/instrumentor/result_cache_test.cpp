// The result cache's own checks (instrumentor/cache/result_cache.h,
// cache_dir.h): the seal, and entries stored and served only through a
// private directory.
#include "test_support.h"

#include "cache_dir.h"
#include "result_cache.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace hcc::test {
namespace {

using rewriter::CacheDir;
using rewriter::Result;
using rewriter::ResultCache;

TEST(ResultCacheSeal, OnlyTheBytesSealedForThatKeyUnseal) {
  const std::string key = "0123456789abcdef", body = "entry bytes";
  const std::string stored = rewriter::seal(key, body);
  ASSERT_EQ(stored.size(), body.size() + 32);
  auto ok = rewriter::unseal(key, stored);
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->str(), body);
  std::string edited = stored;
  edited[3] ^= 1;
  EXPECT_FALSE(rewriter::unseal(key, edited));
  EXPECT_FALSE(rewriter::unseal(key, stored.substr(0, stored.size() - 1)));   // truncated
  EXPECT_FALSE(rewriter::unseal(key, stored.substr(1)));                      // cut at the front
  EXPECT_FALSE(rewriter::unseal("0123456789abcdee", stored));                 // another key's name
  EXPECT_FALSE(rewriter::unseal(key, "short"));
}

Result sample() {
  Result r;
  r.ok = true;
  r.output = "#line 1 \"app.c\"\nint main(void) { return 0; }\n";
  r.guards = 1;
  return r;
}

TEST(ResultCache, StoresAndServesPrivateSealedEntries) {
  TempDir dir;
  const std::string root = dir.file("cache");
  std::string refusal;
  CacheDir cache_dir = CacheDir::open(root, &refusal);
  ASSERT_TRUE(cache_dir.enabled()) << refusal;
  ResultCache cache(cache_dir);
  const std::string key = ResultCache::key({"one", "compile"});
  cache.store(key, sample());
  const std::string entry = root + "/" + ResultCache::entryName(key);
  struct stat st;
  ASSERT_EQ(::stat(entry.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  ASSERT_EQ(::stat((root + "/" + key.substr(0, 2)).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
  auto hit = cache.lookup(key);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->output, sample().output);
  EXPECT_EQ(hit->guards, 1u);

  // Writable by others: ignored, as an entry another user owns would be.
  ASSERT_EQ(::chmod(entry.c_str(), 0666), 0);
  EXPECT_FALSE(cache.lookup(key));
  ASSERT_EQ(::chmod(entry.c_str(), 0600), 0);
  // One byte of the instrumented text changed: a miss.
  std::string bytes = readFile(entry);
  const size_t at = bytes.find("return 0");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 7] = '1';
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_FALSE(cache.lookup(key));
  // A planted link at the entry's name: not followed.
  ASSERT_EQ(::unlink(entry.c_str()), 0);
  cache.store(key, sample());
  ASSERT_TRUE(cache.lookup(key));
  const std::string copy = dir.file("copy");
  std::filesystem::rename(entry, copy);
  ASSERT_EQ(::symlink(copy.c_str(), entry.c_str()), 0);
  EXPECT_FALSE(cache.lookup(key));
}

TEST(ResultCache, ADirectoryOthersMayWriteIsRefusedWithOneLine) {
  TempDir dir;
  const std::string root = dir.file("shared");
  ASSERT_EQ(::mkdir(root.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(root.c_str(), 0777), 0);
  std::string refusal;
  CacheDir cache_dir = CacheDir::open(root, &refusal);
  EXPECT_FALSE(cache_dir.enabled());
  EXPECT_EQ(refusal, "not using the instrumentation cache " + root +
                         ": writable by group or others; building without it");
  ResultCache cache(cache_dir);
  cache.store(ResultCache::key({"x"}), sample());
  EXPECT_TRUE(std::filesystem::is_empty(root));
  // One that cannot be made is off without a word (the cache only saves time).
  refusal.clear();
  EXPECT_FALSE(CacheDir::open("/proc/hcc-no-such-dir/cache", &refusal).enabled());
  EXPECT_EQ(refusal, "");
}

}  // namespace
}  // namespace hcc::test
