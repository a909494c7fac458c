// Helpers shared by the hcc_cube and hcc-report tests: sample profiles, raw
// access to .cubex members (with libarchive, and with CubeLib's own padding
// rule), temporary directories.
#pragma once

#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "profile.hpp"

namespace hcc_test {

namespace fs = std::filesystem;
using namespace hcc::profile;

// A fresh directory under the system temp dir, removed at scope exit.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "hcc-cube-test-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
  std::string file(const std::string &name) const { return (path / name).string(); }
};

inline Metric metric(const std::string &name, const std::string &uom, DType t, CubeType ct, int parent = -1) {
  Metric m;
  m.uniq_name = name;
  m.disp_name = name.empty() ? name : std::string(1, static_cast<char>(std::toupper(name[0]))) + name.substr(1);
  m.uom = uom;
  m.descr = "the " + name;
  m.url = "https://example.org/" + name;
  m.dtype = t;
  m.cube_type = ct;
  m.parent = parent;
  return m;
}

inline Region region(const std::string &name, const std::string &file, int b, int e) {
  Region r;
  r.name = name;
  r.mangled = "_Z" + name;
  r.file = file;
  r.begin_line = b;
  r.end_line = e;
  return r;
}

// main{foo{bar}, baz} with ids main=0 foo=1 bar=2 baz=3, so depth-first
// pre-order is the id order while the inclusive order is 0 1 3 2.
// Two locations (rank 0 thread 0/1). Exclusive time on location 0:
// main 1, foo 2, bar 4, baz 8 seconds; location 1: ten times that.
// Visits: main 1, foo 10, bar 100, baz 1000 (location 1: +1 each).
inline Profile sample_profile() {
  Profile p;
  p.attrs = {{"program", "app"}, {"hcc.version", "0.1"}};
  p.machine = "testbox";
  p.hosts = {"node-a"};
  p.metrics = {metric("time", "sec", DType::Double, CubeType::Inclusive),
               metric("visits", "occ", DType::UInt64, CubeType::Exclusive)};
  p.regions = {region("main", "app.c", 1, 20), region("foo", "app.c", 22, 30), region("bar", "app.c", 32, 40),
               region("baz", "lib.c", 5, 9)};
  p.cnodes = {{0, -1}, {1, 0}, {2, 1}, {3, 0}};
  p.locations = {{"thread 0", 0, 0}, {"thread 1", 0, 1}};
  p.excl.assign(2, std::vector<double>(p.cnodes.size() * p.nloc(), 0.0));
  const double t[] = {1, 2, 4, 8};
  const double v[] = {1, 10, 100, 1000};
  for (std::size_t c = 0; c < 4; ++c) {
    p.at(0, c, 0) = t[c];
    p.at(0, c, 1) = 10 * t[c];
    p.at(1, c, 0) = v[c];
    p.at(1, c, 1) = v[c] + 1;
  }
  return p;
}

// sample_profile() as a hybrid run writes it (text_views/marks.hpp): bar is
// counted and baz throttled (their descr), and `exp`, a function only
// sampling saw (paradigm "sampling", no visits), runs below bar with 16 s on
// location 0 and 160 s on location 1. Their times came from samples; main's
// and foo's from the clock. Exclusive times summed over the locations:
// main 11, foo 22, bar 44, baz 88, exp 176 s (341 s in all).
inline Profile hybrid_profile() {
  Profile p = sample_profile();
  p.attrs.push_back({"hcc.sampling", "200 Hz of each thread's CPU time"});
  p.regions[2].descr = kCountedRegionDescr;
  p.regions[3].descr = kThrottledRegionDescr;
  Region exp = region("exp", "/lib/libm.so.6", -1, -1);
  exp.paradigm = "sampling";
  p.regions.push_back(exp);
  p.cnodes.push_back({4, 2});
  p.excl[0].insert(p.excl[0].end(), {16.0, 160.0});
  p.excl[1].insert(p.excl[1].end(), {0.0, 0.0});
  return p;
}

// Reads every member of a tar archive with libarchive (name -> bytes).
inline std::map<std::string, std::string> tar_members(const std::string &path) {
  std::map<std::string, std::string> out;
  archive *a = archive_read_new();
  archive_read_support_format_tar(a);
  if (archive_read_open_filename(a, path.c_str(), 10240) != ARCHIVE_OK) {
    const std::string msg = archive_error_string(a) ? archive_error_string(a) : "?";
    archive_read_free(a);
    throw std::runtime_error("cannot open " + path + ": " + msg);
  }
  archive_entry *e;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    std::string bytes;
    char buf[8192];
    la_ssize_t n;
    while ((n = archive_read_data(a, buf, sizeof buf)) > 0) bytes.append(buf, static_cast<std::size_t>(n));
    out[archive_entry_pathname(e)] = bytes;
  }
  archive_read_free(a);
  return out;
}

// Walks a tar file the way CubeLib's TarReader does: after a member of
// `size` bytes it skips (size/512 + 1) * 512 bytes, whatever the padding.
// A member whose size is a multiple of 512 makes this walk lose the next one.
inline std::map<std::string, std::string> cubelib_walk(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string f = ss.str();
  std::map<std::string, std::string> out;
  std::size_t pos = 0;
  while (pos + 512 <= f.size()) {
    const std::string name(f.c_str() + pos, strnlen(f.c_str() + pos, 100));
    if (name.empty()) break;
    const std::size_t size = std::stoul(std::string(f, pos + 124, 12), nullptr, 8);
    out[name] = f.substr(pos + 512, size);
    pos += 512 + (size / 512 + 1) * 512;
  }
  return out;
}

// One tar header block written by hand: a regular member ('0', POSIX
// "ustar") or another `type` with GNU's "ustar  " magic; `fill` may set
// further fields (GNU sparse maps) before the checksum is computed.
template <class Fill>
inline std::string tar_header(const std::string &name, std::uint64_t size, char type, Fill fill) {
  char h[512];
  std::memset(h, 0, sizeof h);
  std::snprintf(h, 100, "%s", name.c_str());
  std::snprintf(h + 100, 8, "%07o", 0644);
  std::snprintf(h + 108, 8, "%07o", 0);
  std::snprintf(h + 116, 8, "%07o", 0);
  std::snprintf(h + 124, 12, "%011lo", static_cast<unsigned long>(size));
  std::snprintf(h + 136, 12, "%011lo", 0ul);
  h[156] = type;
  if (type == '0') {
    std::memcpy(h + 257, "ustar", 6);
    std::memcpy(h + 263, "00", 2);
  } else {
    std::memcpy(h + 257, "ustar  ", 8);  // GNU magic and version
  }
  fill(h);
  std::memset(h + 148, ' ', 8);
  unsigned sum = 0;
  for (unsigned char c : std::string(h, 512)) sum += c;
  std::snprintf(h + 148, 8, "%06o", sum);
  return std::string(h, 512);
}

// A ustar archive written by hand, padded the way CubeLib's writer pads
// ((size/512 + 1) * 512, i.e. a whole zero block after a member whose size
// is a multiple of 512): the kind of file Score-P produces.
inline std::string cubelib_style_tar(const std::vector<std::pair<std::string, std::string>> &members) {
  std::string out;
  for (const auto &[name, data] : members) {
    out += tar_header(name, data.size(), '0', [](char *) {});
    out += data;
    out.append((data.size() / 512 + 1) * 512 - data.size(), '\0');
  }
  out.append(1024, '\0');
  return out;
}

inline void put_file(const std::string &path, const std::string &bytes) {
  std::ofstream o(path, std::ios::binary);
  o << bytes;
}

inline std::uint64_t le64(const std::string &s, std::size_t off) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[off + static_cast<std::size_t>(i)]);
  return v;
}
inline double le_double(const std::string &s, std::size_t off) {
  const std::uint64_t u = le64(s, off);
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}
inline void put_le(std::string &s, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
inline void put_double(std::string &s, double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
  put_le(s, u, 8);
}

}  // namespace hcc_test
