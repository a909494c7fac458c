#include "result_cache.h"

#include "private_dir.hpp"
#include "safe_path.hpp"
#include "io/regular_file.hpp"

#include <llvm/Support/BLAKE3.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/raw_ostream.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include "config/config.hpp"

namespace hcc::rewriter {

namespace fs = llvm::sys::fs;

namespace {

// 3: sealed (result_cache.h, "Trust").
constexpr char kMagic[] = "hcc-instrument-cache-3";

class Writer {
 public:
  void str(const std::string &s) {
    num(s.size());
    out_ += s;
  }
  void num(uint64_t v) {
    for (int i = 0; i < 8; ++i) out_ += static_cast<char>((v >> (8 * i)) & 0xff);
  }
  std::string &text() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(llvm::StringRef in) : in_(in) {}
  bool num(uint64_t &v) {
    if (pos_ + 8 > in_.size()) return false;
    v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return true;
  }
  bool num(unsigned &v) {
    uint64_t w;
    if (!num(w)) return false;
    v = unsigned(w);
    return true;
  }
  bool str(std::string &s) {
    uint64_t n;
    if (!num(n) || pos_ + n > in_.size()) return false;
    s.assign(in_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  bool strs(std::vector<std::string> &v) {
    uint64_t n;
    if (!num(n)) return false;
    v.resize(n);
    for (std::string &s : v)
      if (!str(s)) return false;
    return true;
  }

 private:
  llvm::StringRef in_;
  size_t pos_ = 0;
};

}  // namespace

// Size, modification time and inode of a file; "" when it is missing, so
// a file that appears later does not match either. A directory that was
// only looked up counts by its existence (files probed in it are inputs of
// their own; a build writing objects beside its sources must not turn every
// compile into a miss); one the parse listed ("L:" prefix, the clang
// driver's toolchain search) by its modification time too.
std::string inputSignature(const std::string &input) {
  const bool listed = input.compare(0, 2, "L:") == 0;
  const std::string p = listed ? input.substr(2) : input;
  struct stat st;
  if (::stat(p.c_str(), &st) != 0) return "";
  if (S_ISDIR(st.st_mode) && !listed) return "dir";
  return std::to_string(static_cast<long long>(st.st_size)) + ":" +
         std::to_string(static_cast<long long>(st.st_mtim.tv_sec)) + "." +
         std::to_string(static_cast<long long>(st.st_mtim.tv_nsec)) + ":" +
         std::to_string(static_cast<unsigned long long>(st.st_ino));
}

namespace {

template <size_t N>
std::string hexOf(const llvm::BLAKE3Result<N> &digest) {
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (uint8_t b : digest) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  return hex;
}

// The BLAKE3 of a file's bytes in hex; "" when it cannot be read.
std::string contentHash(const std::string &path) {
  std::string bytes;
  if (!hcc::io::read_regular_file(path, hcc::io::kBuildFileLimit, bytes)) return "";
  return hexOf(llvm::BLAKE3::hash<16>(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size())));
}

// Files whose bytes are worth hashing: the project's, not the system's
// (hundreds of headers per C++ file that change only with a package
// update, which changes their size or inode too).
bool hashable(const std::string &input) {
  return input.compare(0, 2, "L:") != 0 && input.compare(0, 5, "/usr/") != 0;
}

}  // namespace

std::string inputRecord(const std::string &input) {
  std::string sig = inputSignature(input);
  if (sig.empty() || sig == "dir" || !hashable(input)) return sig;
  if (std::string h = contentHash(input); !h.empty()) sig += "#" + h;
  return sig;
}

bool inputUnchanged(const std::string &input, llvm::StringRef record) {
  auto [stat_part, hash] = record.split('#');
  const std::string now = inputSignature(input);
  if (now == stat_part) return true;
  // Rewritten with the same bytes (configure's config.h, a checkout, a
  // touch): same size, same content hash.
  if (hash.empty() || now.empty() || now == "dir") return false;
  if (llvm::StringRef(now).split(':').first != stat_part.split(':').first) return false;
  return contentHash(input) == hash;
}

namespace {

// The seal of `body` stored under `key` (result_cache.h, "Trust").
llvm::BLAKE3Result<> sealOf(llvm::StringRef key, llvm::StringRef body) {
  llvm::BLAKE3 hasher;
  hasher.update(kMagic);
  const uint64_t n = key.size();
  hasher.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&n), sizeof n));
  hasher.update(key);
  hasher.update(body);
  return hasher.final();
}

}  // namespace

std::string seal(llvm::StringRef key, std::string body) {
  const llvm::BLAKE3Result<> digest = sealOf(key, body);
  body.append(reinterpret_cast<const char *>(digest.data()), digest.size());
  return body;
}

std::optional<llvm::StringRef> unseal(llvm::StringRef key, llvm::StringRef stored) {
  const llvm::BLAKE3Result<> digest{};
  if (stored.size() < digest.size()) return std::nullopt;
  const llvm::StringRef body = stored.drop_back(digest.size());
  const llvm::BLAKE3Result<> expected = sealOf(key, body);
  if (llvm::StringRef(reinterpret_cast<const char *>(expected.data()), expected.size()) !=
      stored.take_back(expected.size()))
    return std::nullopt;
  return body;
}

std::string ResultCache::key(const std::vector<std::string> &parts) {
  llvm::BLAKE3 hasher;
  hasher.update(kMagic);
  for (const std::string &p : parts) {
    uint64_t n = p.size();
    hasher.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&n), sizeof n));
    hasher.update(p);
  }
  return hexOf(hasher.final());
}

std::string ResultCache::entryName(const std::string &key) { return key.substr(0, 2) + "/" + key.substr(2); }

std::optional<Result> ResultCache::lookup(const std::string &key) const {
  if (!enabled() || key.size() < 3) return std::nullopt;
  // Only in a fan-out directory that passes the rule too (one another user
  // made while the cache was open to them is not ours).
  const CacheDir sub = dir_.subdirectory(key.substr(0, 2));
  if (!sub.enabled()) return std::nullopt;
  std::string stored, error;
  int fd = -1;
  if (!rt::read_private_file_at(sub.fd(), key.substr(2), stored, error, kMaxEntryBytes, &fd)) return std::nullopt;
  rt::FdGuard entry(fd);
  std::optional<llvm::StringRef> body = unseal(key, stored);
  if (!body) return std::nullopt;
  Reader in(*body);
  std::string magic;
  if (!in.str(magic) || magic != kMagic) return std::nullopt;
  // What the parse depended on, checked before anything else is read.
  std::vector<std::string> deps;
  if (!in.strs(deps) || deps.size() % 2) return std::nullopt;
  for (size_t i = 0; i < deps.size(); i += 2)
    if (!inputUnchanged(deps[i], deps[i + 1])) return std::nullopt;
  Result r;
  uint64_t n_files = 0;
  if (!in.str(r.output) || !in.num(r.guards) || !in.num(r.setjmp_marks) || !in.num(r.filtered) ||
      !in.num(r.loops) || !in.num(r.openmp_directives) || !in.num(r.user_regions) || !in.num(r.left_out) ||
      !in.strs(r.messages) || !in.num(n_files))
    return std::nullopt;
  r.files.resize(n_files);
  for (OutputFile &f : r.files) {
    uint64_t rewritten = 0;
    if (!in.str(f.path) || !in.str(f.name) || !in.str(f.text) || !in.num(f.guards) ||
        !in.num(rewritten))
      return std::nullopt;
    f.rewritten = rewritten != 0;
  }
  r.ok = true;
  // Recently used: eviction removes the oldest first.
  ::futimens(entry.fd, nullptr);
  return r;
}

void ResultCache::store(const std::string &key, const Result &r) const {
  if (!enabled() || !r.ok || key.size() < 3) return;
  Writer out;
  out.str(kMagic);
  std::vector<std::string> deps;
  for (const std::string &p : r.inputs) {
    deps.push_back(p);
    deps.push_back(inputRecord(p));
  }
  out.num(deps.size());
  for (const std::string &d : deps) out.str(d);
  out.str(r.output);
  for (unsigned v : {r.guards, r.setjmp_marks, r.filtered, r.loops, r.openmp_directives, r.user_regions,
                     r.left_out})
    out.num(v);
  out.num(r.messages.size());
  for (const std::string &m : r.messages) out.str(m);
  out.num(r.files.size());
  for (const OutputFile &f : r.files) {
    out.str(f.path);
    out.str(f.name);
    out.str(f.text);
    out.num(f.guards);
    out.num(f.rewritten ? 1 : 0);
  }

  const CacheDir sub = dir_.subdirectory(key.substr(0, 2));
  std::string error;
  if (!sub.enabled() || !rt::replace_file_at(sub.fd(), key.substr(2), seal(key, std::move(out.text())), error))
    return;
  // Now and then (one store in 64), keep the cache within its bound.
  static std::minstd_rand rng(std::random_device{}());
  if (rng() % 64 == 0) evictIfLarge();
}

void ResultCache::evictIfLarge() const {
  const uint64_t max_mb = uint64_t(hcc::config::number("HCC_CACHE_MAX_MB", "using 512").value_or(512));
  const uint64_t limit = max_mb << 20;
  struct Entry {
    CacheDir dir;
    std::string name;
    int64_t mtime;
    uint64_t size;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  // Listed and removed through the checked handle: the names come from
  // directories no one else can write.
  auto list = [](int at, const char *name) -> DIR * {
    const int fd = ::openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd < 0 ? nullptr : ::fdopendir(fd);
    if (!d && fd >= 0) ::close(fd);
    return d;
  };
  DIR *top = list(dir_.fd(), ".");
  if (!top) return;
  while (dirent *e = ::readdir(top)) {
    if (e->d_name[0] == '.') continue;
    const CacheDir sub = dir_.subdirectory(e->d_name);
    DIR *d = sub.enabled() ? list(sub.fd(), ".") : nullptr;
    if (!d) continue;
    while (dirent *f = ::readdir(d)) {
      if (f->d_name[0] == '.') continue;
      struct stat st;
      if (::fstatat(sub.fd(), f->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
      entries.push_back({sub, f->d_name, static_cast<int64_t>(st.st_mtim.tv_sec), static_cast<uint64_t>(st.st_size)});
      total += static_cast<uint64_t>(st.st_size);
    }
    ::closedir(d);
  }
  ::closedir(top);
  if (total <= limit) return;
  std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) { return a.mtime < b.mtime; });
  for (const Entry &e : entries) {
    if (total <= limit * 8 / 10) break;
    if (::unlinkat(e.dir.fd(), e.name.c_str(), 0) == 0) total -= e.size;
  }
}

}  // namespace hcc::rewriter
