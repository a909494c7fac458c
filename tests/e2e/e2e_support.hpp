// hcc end-to-end test support: build a program plain and through `hcc`, run
// both, and look at the profile through `hcc-report --json` (the interface
// other tools consume, so the tests consume it too).
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hcc::e2e {

struct RunResult {
  int status = -1;  // exit status as a shell reports it (128+N for signal N)
  std::string out;
  std::string err;
};

// Runs `cmd` with /bin/sh, capturing stdout and stderr.
RunResult run(const std::string &cmd);

// A compiler pair under hcc: "gcc"/"g++" or "clang"/"clang++".
struct Toolchain {
  std::string name, cc, cxx;
};
std::vector<Toolchain> toolchains();
// How GoogleTest shows a toolchain parameter ("GetParam() = gcc/g++" in test
// listings, CTest names and failure messages) instead of its bytes. The test
// names themselves come from Toolchain::name ("Compilers/EndToEnd.X/gcc").
inline void PrintTo(const Toolchain &tc, std::ostream *os) { *os << tc.cc << '/' << tc.cxx; }

// Paths given by CMake (E2E_HCC_TREE=<build tree> takes hcc and hcc-report
// from another tree: the sanitizer configuration, scripts/test-sanitized.sh).
std::string hcc_bin();
std::string report_bin();
std::string programs_dir();
std::string samples_dir();

// A fresh, empty directory for one test (removed and recreated).
std::string scratch_dir(const std::string &name);

std::string shell_quote(const std::string &s);
std::string read_file(const std::string &path);

// The profile as `hcc-report --json` prints it, with call paths addressable by
// the short names of their regions: "main/fib/fib".
class Profile {
 public:
  static Profile load(const std::string &dir);  // runs hcc-report --json DIR
  explicit Profile(nlohmann::json j);

  const nlohmann::json &json() const { return j_; }
  std::size_t locations() const { return j_["locations"].size(); }
  // Short name of a region: "Square::area" for "Square::area() const",
  // "twice" for "T twice(T) [T = int]", "fib" for "fib".
  static std::string short_name(const std::string &region_name);
  std::string region_name(int callpath) const;
  std::string path(int callpath) const;  // "main/deep1/deep2"
  std::vector<std::string> paths() const;
  // Sum over locations of visits.excl of every call path whose path is `path`.
  long long visits(const std::string &path) const;
  // Sum over all call paths whose region short name is `name`.
  long long total_visits(const std::string &name) const;
  // Call paths whose region's full name satisfies `pred`.
  std::vector<int> callpaths_where(const std::function<bool(const std::string &)> &pred) const;
  double value(int callpath, const std::string &metric, const std::string &kind, int location) const;

 private:
  nlohmann::json j_;
};

}  // namespace hcc::e2e
