// hcc driver — one source through hcc-instrument.
//
// Each source gets a private temp directory and its instrumented copy keeps
// the source's base name there, so the compiler's default output names
// (x.o, x.s, x.d, x.gcno …) stay those of the user's file.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "filter_texts.hpp"

namespace hcc::driver {

class TempDirs {
 public:
  // mkdtemp("$TMPDIR/hcc-XXXXXX"), /tmp when TMPDIR is unset or empty.
  std::optional<std::string> create(std::string &error);
  // Removes every directory made here with the files in it.
  void remove_all();
  const std::vector<std::string> &dirs() const { return dirs_; }

 private:
  std::vector<std::string> dirs_;
};

struct InstrumentResult {
  bool ok = false;
  std::string output;  // the instrumented copy (when ok)
  std::string why;     // why not (for --hcc-verbose)
  bool user_error = false;  // the instrumentor rejected the filter (exit 3): stop the build
};

// Runs `instrumentor` (command words, [0] a path) on `input`:
//   hcc-instrument [--verbose] --main-file-name=<path as typed> -o <tmp>/<base>
//                  <source> -- <compile_args>
// With a `shadow_root` (the project's headers are instrumented too, their
// copies written under it): … --shadow-dir=<root> …
// Its output is shown only when `verbose`. With `use_server` (the real
// hcc-instrument, HCC_SERVER not off) the command runs in the instrumentation
// server when one is up, and one is started for later files when none is
// (../server/client.h). `before_parse` runs when the result cache had no
// answer, right before the instrumentor is asked to parse. `filters` are
// the checked texts `instrumentor` names (--filter-fd=N:NAME): a tool
// started here inherits their descriptors, the server gets their texts.
InstrumentResult instrument_source(const std::vector<std::string> &instrumentor,
                                   const std::vector<const FilterText *> &filters,
                                   const InputFile &input,
                                   const std::vector<std::string> &compile_args,
                                   TempDirs &temps, bool verbose,
                                   const std::string &shadow_root = "", bool use_server = false,
                                   const std::function<void()> &before_parse = nullptr);

}  // namespace hcc::driver
