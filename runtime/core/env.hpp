// hcc runtime — the HCC_* environment variables: one table of known names,
// validation with a message naming the variable and value, and a warning for
// unknown HCC_* names (usually typos).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "clock.hpp"

namespace hcc::rt {

struct Settings {
  std::string output_dir;          // HCC_OUTPUT_DIR; "" = a new directory per run
  int verbose = 1;                 // HCC_VERBOSE: 0 quiet, 1 one line, 2 details
  uint32_t max_depth = 1024;       // HCC_MAX_DEPTH
  bool signals = true;             // HCC_SIGNALS
  bool overwrite = false;          // HCC_OVERWRITE: replace an earlier run's files
  bool cfg = true;                 // HCC_CFG: predecessor lists (cfg.hpp)
  ClockRequest clock = ClockRequest::Auto;  // HCC_CLOCK
};

struct EnvResult {
  Settings settings;
  std::vector<std::string> messages;  // complete lines, "hcc: error: ..." / "hcc: warning: ..."
};

// Pure: reads `envp` (NAME=value strings, NULL-terminated), touches nothing else.
EnvResult parse_environment(const char *const *envp);

// One row per known variable, for the README and for "did you mean".
struct KnownVariable {
  const char *name;
  const char *default_text;
  const char *purpose;
};
std::vector<KnownVariable> known_variables();

// The settings of this process: parsed from `environ` once, at the first
// event (programs that never enter a region read and print nothing).
const Settings &settings();

// A comma-separated HCC_* list ("f, g,,h"): names with blanks trimmed, empty
// entries dropped, in order (duplicates kept). Used by every service that
// reads a list of names (HCC_SELECT, HCC_TRACE_SELECT, HCC_METRICS …).
std::vector<std::string> split_list(const char *v);
void settings_init();  // parses and prints the messages to stderr
// The same settings, writable: for use_output_dir() (output.cpp) only.
Settings &settings_to_change();

}  // namespace hcc::rt
