#include "link_flags.hpp"

#include <unistd.h>

namespace hcc::driver {

std::vector<std::string> runtime_link_flags(const std::string &lib_dir) {
  std::vector<std::string> flags;
  flags.push_back("-L" + lib_dir);
  if (lib_dir.find(',') == std::string::npos) {
    flags.push_back("-Wl,-rpath," + lib_dir);
  } else {
    // -Wl, splits at commas; -Xlinker passes the path as one argument.
    flags.insert(flags.end(), {"-Xlinker", "-rpath", "-Xlinker", lib_dir});
  }
  // A program none of whose code was instrumented still loads the runtime
  // (--no-as-needed), which then says at exit that it measured nothing
  // instead of leaving no word at all; the symbol tells it that hcc linked
  // the program (runtime/core/nothing_measured.cpp).
  flags.insert(flags.end(), {"-Wl,--defsym,__hcc_linked_by_hcc=1", "-Wl,--push-state,--no-as-needed", "-lhcc",
                             "-Wl,--pop-state"});
  return flags;
}

std::vector<std::string> mpi_link_flags(const std::string &lib_dir) {
  if (access((lib_dir + "/libhcc_mpi.so").c_str(), F_OK) != 0) return {};
  std::vector<std::string> flags = runtime_link_flags(lib_dir);
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
