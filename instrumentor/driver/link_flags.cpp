#include "link_flags.hpp"

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
  flags.push_back("-lhcc");
  return flags;
}

}  // namespace hcc::driver
