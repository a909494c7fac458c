#include "help.hpp"

namespace hcc::driver {

// Kept to 40 lines (tests/driver checks): the full references are the
// README's tables and `hcc-report --help`. Every option here is one
// take_hcc_options accepts, every variable one the configuration table (config/) knows
// (also checked by the test).
const std::string &hcc_help_text() {
  static const std::string text =
      "usage: hcc [--hcc-OPTION ...] COMPILER-ARGUMENTS   (like cc/c++; the program is measured)\n"
      "  also hcc-gcc, hcc-clang++ ... (compiler in the name) or hcc gcc ... (prefix mode)\n"
      "hcc's options (taken out wherever they appear; the compiler never sees them):\n"
      "  --hcc-compiler=CMD          compiler to run (default: cc for C, c++ for C++ and links)\n"
      "  --hcc-functions=auto|all|none  functions measured (auto: no straight-line leaves)\n"
      "  --hcc-min-size=N            auto keeps a caller of unknown code from this size (40)\n"
      "  --hcc-openmp=on|off         OpenMP directives as measured regions (POMP2)\n"
      "  --hcc-headers=on|off        the project's own headers instrumented too (on)\n"
      "  --hcc-filter=FILE           TAU select file, Score-P filter file or hcc filter\n"
      "  --hcc-include=PATTERN       instrument only what matches (* ?)\n"
      "  --hcc-exclude=PATTERN       do not instrument what matches (* ?)\n"
      "  --hcc-off                   pass everything to the compiler unchanged\n"
      "  --hcc-keep                  keep the instrumented sources\n"
      "  --hcc-verbose               print every command and why a function was left alone\n"
      "  --hcc-show-config           where hcc's parts are and which are on\n"
      "  --hcc-version               hcc's version\n"
      "  --hcc-help                  this text (--help is the compiler's own help)\n"
      "Building (environment):\n"
      "  HCC_COMPILER=CMD            as --hcc-compiler\n"
      "  HCC_WRAPPER=off             as --hcc-off (for configure steps)\n"
      "  HCC_CACHE=off, HCC_SERVER=off  no result cache, no instrumentation server\n"
      "Running the program (environment):\n"
      "  HCC_OUTPUT_DIR=DIR          where profile.cubex and summary.txt go\n"
      "                              (default: a new ./hcc-<program>-<date>_<time>)\n"
      "  HCC_VERBOSE=0|1|2           silent / one line naming the profile / details\n"
      "  HCC_OVERWRITE=1             replace an earlier run's profile in HCC_OUTPUT_DIR\n"
      "  HCC_METRICS=EV,...          PAPI or perf:: counters per call path\n"
      "  HCC_SAMPLING=on|HZ          sample call paths on CPU time (on: 200 Hz)\n"
      "  HCC_TRACE=1                 also an OTF2 trace\n"
      "  HCC_FILTER=FILE, HCC_INCLUDE=P,..., HCC_EXCLUDE=P,...  regions recorded\n"
      "  HCC_SELECT=R,..., HCC_PRUNE=R,...  only below / nothing below these regions\n"
      "  HCC_GPROF=1                 also gmon.out for GNU gprof\n"
      "  HCC_MPI_GROUPS=GROUPS       MPI function groups measured\n"
      "Reading: hcc-report DIR (or DIR/profile.cubex); hcc-report --help for its views.\n"
      "Every variable: README.md, \"Running an instrumented program\" and \"Using hcc\".\n";
  return text;
}

const std::string &help_pointer_line() {
  static const std::string line =
      "hcc: the compiler's help follows; hcc's own options: hcc --hcc-help\n";
  return line;
}

bool asks_for_compiler_help(const std::string &o) {
  return o == "--help" || o == "-help" || o.rfind("--help=", 0) == 0;
}

}  // namespace hcc::driver
