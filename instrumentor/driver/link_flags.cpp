#include "link_flags.hpp"

#include <unistd.h>

#include <initializer_list>

namespace hcc::driver {
namespace {

// Where -l finds `libs`: the link stubs when all of them are there, else the
// real libraries (an installation older than the stubs). With the real
// libhcc.so the linker opens its 21 dependencies (libxml2, ICU, libarchive,
// libdw, libstdc++ ...) only to check its undefined symbols: a trivial link
// took 2.6 times as long.
std::string search_dir(const std::string &lib_dir, std::initializer_list<const char *> libs) {
  const std::string stubs = lib_dir + "/" + kLinkStubDir;
  for (const char *lib : libs)
    if (access((stubs + "/" + lib).c_str(), F_OK) != 0) return lib_dir;
  return stubs;
}

// The runtime's link flags with -L<search>; -rpath is always the real
// libraries' directory, which the program loads them from.
std::vector<std::string> link_flags(const std::string &search, const std::string &lib_dir) {
  std::vector<std::string> flags;
  flags.push_back("-L" + search);
  if (lib_dir.find(',') == std::string::npos) {
    flags.push_back("-Wl,-rpath," + lib_dir);
  } else {
    // -Wl, splits at commas; -Xlinker passes the path as one argument.
    flags.insert(flags.end(), {"-Xlinker", "-rpath", "-Xlinker", lib_dir});
  }
  // Objects from hcc carry their own way to the runtime (bind.h), so no
  // undefined symbol of theirs needs libhcc and --as-needed (a distribution
  // default, or the user's) would drop it; linked, it precedes libc, which
  // its interposed longjmp and the PMPI wrappers need. A program none of
  // whose code was instrumented still loads it and, marked by the symbol
  // __hcc_linked_by_hcc, says at exit that it measured nothing
  // (runtime/core/nothing_measured.cpp).
  flags.insert(flags.end(), {"-Wl,--defsym,__hcc_linked_by_hcc=1", "-Wl,--push-state,--no-as-needed", "-lhcc",
                             "-Wl,--pop-state"});
  return flags;
}

}  // namespace

std::vector<std::string> runtime_link_flags(const std::string &lib_dir) {
  return link_flags(search_dir(lib_dir, {"libhcc.so"}), lib_dir);
}

std::string runtime_path_define(const std::string &runtime_library) {
  // The value ends up inside an assembler string inside a C string literal:
  // escape for the assembler, then for C. A path with a newline gets no
  // define (the objects then look for libhcc.so in the library path).
  if (runtime_library.empty() || runtime_library.find_first_of("\n\r") != std::string::npos) return "";
  auto escape = [](const std::string &in) {
    std::string out;
    for (char c : in) {
      if (c == '\\' || c == '"') out += '\\';
      out += c;
    }
    return out;
  };
  return "-DHCC_RUNTIME_LIBRARY_=\"" + escape(escape(runtime_library)) + "\"";
}

std::vector<std::string> mpi_link_flags(const std::string &lib_dir) {
  if (access((lib_dir + "/libhcc_mpi.so").c_str(), F_OK) != 0) return {};
  std::vector<std::string> flags = link_flags(search_dir(lib_dir, {"libhcc_mpi.so", "libhcc.so"}), lib_dir);
  // libhcc right behind it: loaded as a mere dependency of libhcc_mpi (an
  // uninstrumented program, which --as-needed would drop libhcc from) it
  // would come after libc, and its interposed longjmp could not find libc's.
  flags.insert(flags.end() - 2, "-lhcc_mpi");  // before "-lhcc", "-Wl,--pop-state"
  return flags;
}

bool links_mpi_library(const std::vector<std::string> &args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    std::string lib = a.rfind("-l", 0) == 0 ? a.substr(2) : "";
    if (a == "-l" && i + 1 < args.size()) lib = args[i + 1];
    if (lib == "mpi" || lib == "mpich") return true;
    // A library by path, as CMake's find_package(MPI) links it:
    // /usr/lib/x86_64-linux-gnu/openmpi/lib/libmpi.so
    const std::string base = a.substr(a.rfind('/') == std::string::npos ? 0 : a.rfind('/') + 1);
    if (base.rfind("libmpi.so", 0) == 0 || base.rfind("libmpich.so", 0) == 0) return true;
  }
  return false;
}

}  // namespace hcc::driver
