#include "paths.hpp"

#include <climits>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "io/regular_file.hpp"

namespace hcc::driver {

std::string real_path(const std::string &path) {
  char buf[PATH_MAX];
  if (!::realpath(path.c_str(), buf)) return {};
  return buf;
}

bool is_executable_file(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

bool file_exists(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

bool read_file(const std::string &path, std::string &out) {
  return io::read_regular_file(path, io::kBuildFileLimit, out);
}

bool file_contains(const std::string &path, std::string_view needle) {
  std::string text;
  return read_file(path, text) && text.find(needle) != std::string::npos;
}

std::vector<std::string> split_search_path(std::string_view list) {
  std::vector<std::string> dirs;
  for (;;) {
    size_t colon = list.find(':');
    std::string d(list.substr(0, colon));
    dirs.push_back(d.empty() ? "." : d);
    if (colon == std::string_view::npos) return dirs;
    list.remove_prefix(colon + 1);
  }
}

std::string dir_name(std::string_view path) {
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  // Strip the run of slashes before the base name ("a//x.c" -> "a").
  size_t end = slash;
  while (end > 0 && path[end - 1] == '/') --end;
  if (end == 0) return "/";
  return std::string(path.substr(0, end));
}

std::string base_name(std::string_view path) {
  size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string strip_extension(std::string_view path) {
  size_t slash = path.rfind('/');
  size_t base = slash == std::string_view::npos ? 0 : slash + 1;
  size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || dot <= base) return std::string(path);
  return std::string(path.substr(0, dot));
}

std::optional<std::string> find_program(const std::string &name,
                                        const std::string &skip_real_path) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    if (is_executable_file(name)) return name;
    return std::nullopt;
  }
  const char *env = std::getenv("PATH");
  std::string path_list = env ? env : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  for (;;) {
    size_t colon = path_list.find(':', start);
    std::string dir = path_list.substr(start, colon - start);
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (is_executable_file(candidate) &&
        (skip_real_path.empty() || real_path(candidate) != skip_real_path))
      return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return std::nullopt;
}

std::string self_executable(const char *argv0) {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    buf[n] = '\0';
    std::string r = real_path(buf);
    if (!r.empty()) return r;
  }
  // No /proc (some containers, chroots): fall back to argv[0].
  if (!argv0 || !*argv0) return {};
  std::string a = argv0;
  if (a.find('/') != std::string::npos) return real_path(a);
  if (auto found = find_program(a, "")) return real_path(*found);
  return {};
}

Layout layout_for(const std::string &executable, const InstallDirs &dirs) {
  // An absolute directory from the build configuration would tie hcc to one
  // place; fall back to the usual relative one instead.
  auto rel = [](const std::string &d, const char *fallback) {
    return d.empty() || d[0] == '/' ? std::string(fallback) : d;
  };
  Layout l;
  l.executable = executable;
  std::string root = dir_name(dir_name(executable));  // <prefix>/bin/hcc
  if (root == "/") root.clear();                      // no "//lib" for /bin/hcc
  l.prefix = root.empty() ? "/" : root;
  l.libexec_dir = root + "/" + rel(dirs.libexec, "libexec/hcc");
  l.include_dir = root + "/" + rel(dirs.include, "include");
  l.lib_dir = root + "/lib";
  std::string other_lib = root + "/" + rel(dirs.lib, "lib");
  if (other_lib != l.lib_dir && !file_exists(l.lib_dir + "/libhcc.so") &&
      file_exists(other_lib + "/libhcc.so"))
    l.lib_dir = other_lib;
  l.instrumentor = l.libexec_dir + "/hcc-instrument";
  l.runtime_library = l.lib_dir + "/libhcc.so";
  l.prelude = l.include_dir + "/hcc/detail/inject.h";
  l.prelude_openmp = l.include_dir + "/hcc/detail/inject_openmp.h";
  // The CMake package is installed beside the runtime (CMAKE_INSTALL_LIBDIR).
  l.cmake_dir = l.lib_dir + "/cmake/hcc";
  return l;
}

}  // namespace hcc::driver
