// hcc-instrument's command line, the contract with the `hcc` driver:
//
//   hcc-instrument [--verbose] [--main-file-name=NAME] [--shadow-dir=ROOT] [--names=gcc|clang]
//                  [--filter=FILE | --filter-fd=N:NAME]... -o OUT SOURCE
//                  -- <compiler args>
//
// Parsed here for the tool and for the driver, which serves a result from
// the cache without starting the tool (cached_run.h): both read the same
// words the same way, so both compute the same cache key.
//
// --filter-fd=N:NAME is how the driver passes a filter it has read and
// checked (a plan, a --hcc-filter file): descriptor N holds the text, NAME
// is the file it came from, for messages and the cache key. The tool never
// opens NAME: a file read twice by name can be another file the second time
// (a plan swapped in a sticky directory between the driver's check and the
// tool's read). In a server's worker, N is the client's descriptor, whose
// text came with the request (../server/protocol.h).
#ifndef HCC_CACHE_COMMAND_LINE_H
#define HCC_CACHE_COMMAND_LINE_H

#include "policy.h"

#include <functional>
#include <string>
#include <vector>

namespace hcc::filter {
class Filter;
}

namespace hcc::rewriter {

constexpr int kFailed = 1;     // the file could not be instrumented
constexpr int kUsage = 2;      // the command line is wrong
constexpr int kBadFilter = 3;  // a --filter file or pattern is wrong: the user's error, not ours

extern const char kUsageText[];

// One --filter or --filter-fd, in command-line order.
struct FilterSource {
  std::string name;  // the file: messages and the cache key say this
  int fd = -1;       // --filter-fd=N: the text is descriptor N's; -1: read `name`
  std::string text;  // filled by readFilters
};

struct CommandLine {
  bool verbose = false;
  int openmp = -1;  // --openmp=on|off; -1: kOpenMPDefault
  // --functions=auto|all|none: the tool's default is auto (function_size.h).
  FunctionPolicy functions = FunctionPolicy::Auto;
  unsigned min_size = kAutoMinSize;  // --min-size=N
  std::string main_file_name;
  std::string shadow_dir;  // --shadow-dir: also the project's headers
  bool clang_names = false;  // --names=clang|gcc: header names as that compiler prints them
  std::string out;
  std::string source;
  std::vector<std::string> compile_args;
  // Selective instrumentation, in command-line order.
  std::vector<FilterSource> filters;
  std::vector<std::string> includes, excludes;
  std::vector<std::string> counts;  // --count=PATTERN (--hcc-functions=count:): count mode
};

// Whether OpenMP directives are rewritten; whether the project's headers are
// (a shadow tree to write them to).
inline bool openmpOn(const CommandLine &cl) { return cl.openmp < 0 ? kOpenMPDefault : cl.openmp == 1; }
inline bool headersOn(const CommandLine &cl) { return !cl.shadow_dir.empty(); }

// `args`: the words after the program's name. False with `error` when they
// are not a valid command line.
bool parseCommandLine(const std::vector<std::string> &args, CommandLine &cl, std::string &error);

// The text of descriptor `fd` (--filter-fd=N), false with `why` when there
// is none. A started tool reads its own descriptor (readOwnDescriptor); a
// server's worker looks the number up in the request.
using DescriptorReader = std::function<bool(int fd, std::string &text, std::string &why)>;

// Descriptor `fd` of this process, read whole from its start (it may be the
// driver's own copy, read there first), a bounded regular file
// (io/regular_file.hpp: the driver's sealed memfd is one).
bool readOwnDescriptor(int fd, std::string &text, std::string &why);

// Every filter's text, each read once: --filter=FILE from FILE, --filter-fd
// through `read`. kBadFilter with the message to print ("hcc: error: FILE:
// cannot read the filter file: …") when one cannot be read, else 0.
int readFilters(CommandLine &cl, const DescriptorReader &read, std::string &message);

// The selection the command line asks for, into `filter`, from the texts
// readFilters read; kBadFilter with the message to print ("hcc: error: …",
// naming the file and line) when a filter file or pattern is wrong, else 0.
int loadFilter(const CommandLine &cl, hcc::filter::Filter &filter, std::string &message);

// Everything the result depends on that is known before parsing, for the
// cache key (result_cache.h): `self` is the instrumentor binary (its size
// and time, so a rebuilt tool misses); each filter by its name and the text
// readFilters read. False when the source cannot be read.
bool cacheKeyParts(const CommandLine &cl, const std::string &self, std::vector<std::string> &parts);

}  // namespace hcc::rewriter

#endif
