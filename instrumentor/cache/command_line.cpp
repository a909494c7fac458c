#include "command_line.h"

#include "filter/filter.hpp"
#include "io/regular_file.hpp"

#include <llvm/Support/FileSystem.h>

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace hcc::rewriter {

const char kUsageText[] =
    "usage: hcc-instrument [--verbose] [--main-file-name=NAME] [--filter=FILE | --filter-fd=N:NAME]... "
    "[--include=PATTERN]... [--exclude=PATTERN]... [--count=PATTERN]... [--openmp=on|off] [--functions=auto|all|none] [--min-size=N] "
    "[--shadow-dir=ROOT] [--names=gcc|clang] -o OUT SOURCE -- <compiler arguments>\n";

bool parseCommandLine(const std::vector<std::string> &args, CommandLine &cl, std::string &error) {
  const size_t argc = args.size();
  size_t i = 0;
  for (; i < argc; ++i) {
    const std::string &a = args[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "--verbose") {
      cl.verbose = true;
    } else if (a.rfind("--main-file-name=", 0) == 0) {
      cl.main_file_name = a.substr(sizeof("--main-file-name=") - 1);
    } else if (a.rfind("--shadow-dir=", 0) == 0) {
      cl.shadow_dir = a.substr(sizeof("--shadow-dir=") - 1);
    } else if (a == "--names=gcc" || a == "--names=clang") {
      cl.clang_names = a == "--names=clang";
    } else if (a == "--functions=auto") {
      cl.functions = FunctionPolicy::Auto;
    } else if (a == "--functions=all") {
      cl.functions = FunctionPolicy::All;
    } else if (a == "--functions=none") {
      cl.functions = FunctionPolicy::None;
    } else if (a.rfind("--min-size=", 0) == 0) {
      std::string v = a.substr(sizeof("--min-size=") - 1);
      char *end = nullptr;
      unsigned long n = v.empty() ? 0 : std::strtoul(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || v[0] == '-' || n > 1000000) {
        error = "--min-size takes a number of statements and operations, e.g. --min-size=" +
                std::to_string(kAutoMinSize) + " (got '" + v + "')";
        return false;
      }
      cl.min_size = unsigned(n);
    } else if (a == "--openmp=on" || a == "--openmp=off") {
      cl.openmp = a == "--openmp=on" ? 1 : 0;
    } else if (a.rfind("--filter=", 0) == 0) {
      cl.filters.push_back({a.substr(sizeof("--filter=") - 1), -1, ""});
    } else if (a.rfind("--filter-fd=", 0) == 0) {
      const std::string v = a.substr(sizeof("--filter-fd=") - 1);
      const size_t colon = v.find(':');
      char *end = nullptr;
      const long fd = colon == 0 || colon == std::string::npos ? -1 : std::strtol(v.c_str(), &end, 10);
      if (fd < 0 || fd > 1 << 20 || end != v.c_str() + colon || v.size() == colon + 1) {
        error = "--filter-fd takes a descriptor and the file it holds, e.g. --filter-fd=3:hcc.plan (got '" + v + "')";
        return false;
      }
      cl.filters.push_back({v.substr(colon + 1), int(fd), ""});
    } else if (a.rfind("--include=", 0) == 0) {
      cl.includes.push_back(a.substr(sizeof("--include=") - 1));
    } else if (a.rfind("--exclude=", 0) == 0) {
      cl.excludes.push_back(a.substr(sizeof("--exclude=") - 1));
    } else if (a.rfind("--count=", 0) == 0) {
      cl.counts.push_back(a.substr(sizeof("--count=") - 1));
    } else if (a == "-o") {
      if (++i == argc) {
        error = "-o needs a file name";
        return false;
      }
      cl.out = args[i];
    } else if (a.size() > 1 && a[0] == '-') {
      error = "unknown option '" + a + "'";
      return false;
    } else if (cl.source.empty()) {
      cl.source = a;
    } else {
      error = "more than one source file ('" + cl.source + "', '" + a + "')";
      return false;
    }
  }
  for (; i < argc; ++i) cl.compile_args.push_back(args[i]);
  if (cl.out.empty() || cl.source.empty()) {
    error = cl.out.empty() ? "missing -o OUT" : "missing SOURCE";
    return false;
  }
  return true;
}


bool cacheKeyParts(const CommandLine &cl, const std::string &self, std::vector<std::string> &parts) {
  // Bounded regular files only: a FIFO read here would be empty for the
  // parse, /dev/zero would never end (io/regular_file.hpp).
  std::string source;
  if (!hcc::io::read_regular_file(cl.source, hcc::io::kBuildFileLimit, source)) return false;
  llvm::sys::fs::file_status exe;
  if (llvm::sys::fs::status(self, exe)) return false;
  llvm::SmallString<256> cwd, abs_source(cl.source);
  llvm::sys::fs::current_path(cwd);
  llvm::sys::fs::make_absolute(abs_source);
  parts = {self, std::to_string(exe.getSize()),
           std::to_string(exe.getLastModificationTime().time_since_epoch().count()),
           cwd.str().str(), abs_source.str().str(), source,
           cl.main_file_name, openmpOn(cl) ? "openmp" : "no-openmp",
           headersOn(cl) ? "headers" : "no-headers", cl.clang_names ? "clang-names" : "gcc-names",
           "functions=" + std::to_string(int(cl.functions)) + ",min-size=" + std::to_string(cl.min_size)};
  for (const char *env : {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH"}) {
    const char *v = getenv(env);
    parts.push_back(std::string(env) + "=" + (v ? v : ""));
  }
  parts.push_back("--");
  parts.insert(parts.end(), cl.compile_args.begin(), cl.compile_args.end());
  parts.push_back("--filters");
  for (const FilterSource &f : cl.filters) {
    parts.push_back(f.name);
    parts.push_back(f.text);
  }
  for (const std::string &p : cl.includes) parts.push_back("+" + p);
  for (const std::string &p : cl.excludes) parts.push_back("-" + p);
  for (const std::string &p : cl.counts) parts.push_back("#" + p);
  return true;
}

bool readOwnDescriptor(int fd, std::string &text, std::string &why) {
  if (::lseek(fd, 0, SEEK_SET) != 0) {
    why = std::strerror(errno);
    return false;
  }
  return hcc::io::read_regular_fd(fd, hcc::io::kFilterFileLimit, text, &why);
}

int readFilters(CommandLine &cl, const DescriptorReader &read, std::string &message) {
  for (FilterSource &f : cl.filters) {
    std::string why;
    const bool ok = f.fd < 0 ? hcc::io::read_regular_file(f.name, hcc::io::kFilterFileLimit, f.text, &why)
                             : read(f.fd, f.text, why);
    if (!ok) {
      message = "hcc: error: " + f.name + ": cannot read the filter file: " +
                (f.fd < 0 ? why : "descriptor " + std::to_string(f.fd) + ": " + why);
      return kBadFilter;
    }
  }
  return 0;
}

int loadFilter(const CommandLine &cl, hcc::filter::Filter &filter, std::string &message) {
  std::string error;
  for (const FilterSource &f : cl.filters)
    if (!filter.add_text(f.text, f.name, error)) {
      message = "hcc: error: " + error;
      return kBadFilter;
    }
  for (const std::string &p : cl.includes)
    if (!filter.add_include(p, error)) {
      message = "hcc: error: --hcc-include: " + error;
      return kBadFilter;
    }
  for (const std::string &p : cl.excludes)
    if (!filter.add_exclude(p, error)) {
      message = "hcc: error: --hcc-exclude: " + error;
      return kBadFilter;
    }
  for (const std::string &p : cl.counts)
    if (!filter.add_count(p, error)) {
      message = "hcc: error: --hcc-functions=count: " + error;
      return kBadFilter;
    }
  return 0;
}

}  // namespace hcc::rewriter
