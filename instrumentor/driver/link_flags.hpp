// hcc driver — what a link needs to carry the runtime.
#pragma once

#include <string>
#include <vector>

namespace hcc::driver {

// -L<lib> -Wl,-rpath,<lib> -lhcc: appended after the user's arguments so the
// runtime resolves the symbols of every instrumented object, and the program
// finds libhcc.so at run time without LD_LIBRARY_PATH.
std::vector<std::string> runtime_link_flags(const std::string &lib_dir);

}  // namespace hcc::driver
