// hcc driver — the driver's own `--hcc-*` options and environment switches.
//
// They are taken out of the argument list wherever they appear, so no
// compiler ever sees them (a `--hcc-verbose` added to CFLAGS still works).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hcc::driver {

struct HccOptions {
  std::optional<std::string> compiler;  // --hcc-compiler=CMD
  bool off = false;                     // --hcc-off
  bool keep = false;                    // --hcc-keep
  bool verbose = false;                 // --hcc-verbose
  bool version = false;                 // --hcc-version
  bool show_config = false;             // --hcc-show-config
  bool help = false;                    // --hcc-help
  bool headers = true;                  // --hcc-headers=on|off: the project's own headers too
  // Selective instrumentation, passed on to hcc-instrument in order:
  // --hcc-filter=FILE -> --filter=FILE, --hcc-include=P -> --include=P,
  // --hcc-exclude=P -> --exclude=P; also --hcc-openmp=X -> --openmp=X and
  // --hcc-functions=auto|all|none -> --functions=…, --hcc-min-size=N -> --min-size=N,
  // --hcc-functions=count:A,B -> --count=A --count=B (count mode).
  std::vector<std::string> instrument_args;
};

// True for arguments that belong to the driver (start with "--hcc-").
bool is_hcc_option(std::string_view arg);

// Removes every `--hcc-*` argument from `args`, recording it in `opts`.
// Returns an error message naming the first unknown or malformed option.
std::optional<std::string> take_hcc_options(std::vector<std::string> &args,
                                            HccOptions &opts);

// Splits --hcc-functions=count:'s list on commas outside <>, () and [].
std::vector<std::string> split_patterns(std::string_view list);

// Splits a command such as "ccache gcc -m64" on blanks. No quoting: the
// documented form of HCC_COMPILER/--hcc-compiler is a plain word list.
std::vector<std::string> split_command(std::string_view cmd);

// Whether the switch `name` (HCC_WRAPPER, HCC_SERVER, HCC_EARLY_START) is
// off in the environment, in the one vocabulary (config/switch_words.cpp):
// off/0/no/false, any case. Unset or empty leaves it on; another word is
// reported ("hcc: error: NAME='x' is not on, off, ...; using on") and leaves it on.
bool switched_off(const char *name);

}  // namespace hcc::driver
