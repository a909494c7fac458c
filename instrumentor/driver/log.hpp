// hcc driver — messages to the user.
//
// Every message goes to stderr as one write(2), so lines from parallel
// compiles (make -j) do not interleave in the middle.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hcc::driver {

void print_error(std::string_view msg);    // "hcc: error: <msg>"
void print_warning(std::string_view msg);  // "hcc: warning: <msg>"
void print_note(std::string_view msg);     // "hcc: <msg>"  (verbose output)
void write_stderr(std::string_view text);  // verbatim, e.g. captured compiler output
void write_stdout(std::string_view text);

// Quotes one argument so that a POSIX shell reads it back unchanged; used to
// print commands the user can copy and rerun.
std::string shell_quote(std::string_view arg);
std::string shell_command(const std::vector<std::string> &argv);

}  // namespace hcc::driver
