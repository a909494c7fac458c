// hcc driver — `hcc --hcc-help`: hcc's own options and the environment
// variables used most, in at most 40 lines. `hcc --help` stays the
// compiler's help, after one line saying where hcc's is (help_pointer).
#pragma once

#include <string>

namespace hcc::driver {

// The whole --hcc-help text (ends with a newline).
const std::string &hcc_help_text();

// The line printed before the compiler's own `--help` output.
const std::string &help_pointer_line();

// True for the compiler options that print its help (--help, -help, --help=…).
bool asks_for_compiler_help(const std::string &info_option);

}  // namespace hcc::driver
