// hcc driver — where things are.
//
// hcc is relocatable: everything is found relative to the real location of
// the running binary, <prefix>/bin/hcc, never through paths baked in at build
// time. The build tree has the installed layout, so the same code serves both.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hcc::driver {

struct Layout {
  std::string executable;       // realpath of the running hcc
  std::string prefix;           // <prefix>
  std::string libexec_dir;      // <prefix>/libexec/hcc
  std::string lib_dir;          // <prefix>/lib
  std::string include_dir;      // <prefix>/include
  std::string instrumentor;     // <prefix>/libexec/hcc/hcc-instrument
  std::string runtime_library;  // <prefix>/lib/libhcc.so
  std::string prelude;          // <prefix>/include/hcc/detail/inject.h
  std::string prelude_openmp;   // <prefix>/include/hcc/detail/inject_openmp.h
  std::string cmake_dir;        // <lib_dir>/cmake/hcc: toolchain file, find_package(hcc)
};

// Real path of the running executable: /proc/self/exe, else argv[0]
// (as a path, or looked up in PATH). Empty when nothing works.
std::string self_executable(const char *argv0);

// Directories relative to the prefix, as the installation lays them out
// (from GNUInstallDirs at build time; relative, so hcc stays relocatable).
struct InstallDirs {
  std::string lib = "lib";              // CMAKE_INSTALL_LIBDIR (lib64, lib/<multiarch> …)
  std::string libexec = "libexec/hcc";  // CMAKE_INSTALL_LIBEXECDIR/hcc
  std::string include = "include";      // CMAKE_INSTALL_INCLUDEDIR
};

// The layout of the installation `executable` belongs to. The runtime is
// looked for in <prefix>/lib (the build tree, most installs) and then in
// <prefix>/<dirs.lib>; when neither has libhcc.so, <prefix>/lib is reported.
Layout layout_for(const std::string &executable, const InstallDirs &dirs = {});

// "src/x.c" -> "src", "x.c" -> ".", "/x.c" -> "/"
std::string dir_name(std::string_view path);
// "src/x.c" -> "x.c"
std::string base_name(std::string_view path);
// "obj/x.o" -> "obj/x", "x" -> "x", "a.b/c" -> "a.b/c"
std::string strip_extension(std::string_view path);

std::string real_path(const std::string &path);  // "" on failure
bool is_executable_file(const std::string &path);
bool file_exists(const std::string &path);
// The file's bytes in `out`; false when it cannot be read, is not a regular
// file (a FIFO, a device, a directory) or is larger than
// io::kBuildFileLimit (io/regular_file.hpp).
bool read_file(const std::string &path, std::string &out);
// Whether the file's bytes contain `needle` (false when it cannot be read).
bool file_contains(const std::string &path, std::string_view needle);
// The directories of a colon-separated search path (CPATH); an empty
// element is the working directory, as for the compiler.
std::vector<std::string> split_search_path(std::string_view list);

// Finds a program like the shell does: a name with a slash is taken as a
// path, anything else is searched in PATH. Candidates whose real path is
// `skip_real_path` are passed over, so hcc installed as `cc` in PATH never
// ends up calling itself.
std::optional<std::string> find_program(const std::string &name,
                                        const std::string &skip_real_path);

}  // namespace hcc::driver
