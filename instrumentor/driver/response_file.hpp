// hcc driver — `@file` response files, read and written the way GCC's
// libiberty (expandargv/buildargv) does, so hcc sees the same arguments the
// compiler would.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hcc::driver {

struct Expansion {
  std::vector<std::string> args;
  bool expanded_any = false;  // at least one @file was read
};

// Replaces each readable `@file` by the arguments it contains, recursively
// (a response file may name another). A `@file` that cannot be read, is not
// a regular file (a directory, a FIFO, a device) or is larger than
// io::kBuildFileLimit stays as it is: the compiler reports it just as
// without hcc.
Expansion expand_response_files(const std::vector<std::string> &args);

// Splits response-file text: blanks separate arguments; '…' and "…" group;
// a backslash takes the next character literally, also inside quotes.
std::vector<std::string> split_response_text(std::string_view text);

// The inverse of split_response_text for one argument.
std::string quote_for_response_file(std::string_view arg);

}  // namespace hcc::driver
