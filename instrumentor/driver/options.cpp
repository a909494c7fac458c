#include "options.hpp"

#include <cctype>
#include "config/config.hpp"

namespace hcc::driver {

bool is_hcc_option(std::string_view arg) { return arg.rfind("--hcc-", 0) == 0; }

std::vector<std::string> split_patterns(std::string_view list) {
  // Commas inside <>, () or [] belong to the name ("f<int, char>",
  // "g(int, double)"); the others separate patterns.
  std::vector<std::string> out;
  std::string cur;
  int nesting = 0;
  for (char c : list) {
    if (c == '<' || c == '(' || c == '[') ++nesting;
    if ((c == '>' || c == ')' || c == ']') && nesting > 0) --nesting;
    if (c == ',' && nesting == 0) {
      out.push_back(std::move(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(std::move(cur));
  return out;
}

std::optional<std::string> take_hcc_options(std::vector<std::string> &args,
                                            HccOptions &opts) {
  std::optional<std::string> error;
  std::vector<std::string> rest;
  rest.reserve(args.size());
  for (auto &arg : args) {
    if (!is_hcc_option(arg)) {
      rest.push_back(std::move(arg));
      continue;
    }
    std::string_view a = arg;
    if (a == "--hcc-off") {
      opts.off = true;
    } else if (a == "--hcc-keep") {
      opts.keep = true;
    } else if (a == "--hcc-verbose") {
      opts.verbose = true;
    } else if (a == "--hcc-version") {
      opts.version = true;
    } else if (a == "--hcc-show-config") {
      opts.show_config = true;
    } else if (a == "--hcc-help") {
      opts.help = true;
    } else if (a.rfind("--hcc-compiler=", 0) == 0) {
      std::string cmd(a.substr(15));
      if (split_command(cmd).empty()) {
        if (!error) error = "option '--hcc-compiler=' needs a command, e.g. --hcc-compiler=gcc";
      } else {
        opts.compiler = std::move(cmd);
      }
    } else if (a.rfind("--hcc-filter=", 0) == 0 || a.rfind("--hcc-include=", 0) == 0 ||
               a.rfind("--hcc-exclude=", 0) == 0) {
      size_t eq = a.find('=');
      if (eq + 1 == a.size()) {
        if (!error) error = "option '" + std::string(a.substr(0, eq + 1)) + "' needs a value";
      } else {
        opts.instrument_args.push_back("--" + std::string(a.substr(6)));
      }
    } else if (a == "--hcc-openmp=on" || a == "--hcc-openmp=off") {
      // OpenMP directives to POMP2 calls: passed to hcc-instrument as --openmp=on|off.
      opts.instrument_args.push_back("--" + std::string(a.substr(6)));
    } else if (a == "--hcc-headers=on" || a == "--hcc-headers=off") {
      opts.headers = a == "--hcc-headers=on";
    } else if (a.rfind("--hcc-headers", 0) == 0) {
      if (!error) error = "option '" + arg + "' takes on or off: --hcc-headers=on|off";
    } else if (a == "--hcc-functions=auto" || a == "--hcc-functions=all" || a == "--hcc-functions=none") {
      // Which functions get a guard: auto (the default: not those too small
      // to be worth an enter/exit), all, or none (OpenMP, MPI and user
      // regions only); the filters apply on top.
      opts.instrument_args.push_back("--" + std::string(a.substr(6)));
    } else if (a.rfind("--hcc-functions=count:", 0) == 0) {
      // Count mode: these functions are counted, not timed (visits on
      // their call path, no clock). Independent of auto|all|none, which
      // may be given too; a function named here counts as named by an
      // include (auto keeps it whatever its size).
      bool any = false;
      for (std::string &p : split_patterns(a.substr(22))) {
        size_t b = p.find_first_not_of(" \t"), e = p.find_last_not_of(" \t");
        if (b == std::string::npos) continue;
        opts.instrument_args.push_back("--count=" + p.substr(b, e - b + 1));
        any = true;
      }
      if (!any && !error)
        error = "option '" + arg + "' names no function: --hcc-functions=count:NAME[,NAME...] (shell wildcards * ?)";
    } else if (a.rfind("--hcc-functions", 0) == 0) {
      if (!error) error = "option '" + arg + "' takes auto, all, none or count:NAME[,NAME...]: --hcc-functions=auto|all|none|count:NAMES";
    } else if (a.rfind("--hcc-min-size=", 0) == 0 && a.size() > 15 &&
               a.find_first_not_of("0123456789", 15) == std::string_view::npos && a.size() <= 22) {
      // --hcc-functions=auto's minimum size (statements + operations).
      opts.instrument_args.push_back("--" + std::string(a.substr(6)));
    } else if (a.rfind("--hcc-min-size", 0) == 0) {
      if (!error) error = "option '" + arg + "' takes a number: --hcc-min-size=N (statements + operations; default 40)";
    } else if (a.rfind("--hcc-openmp", 0) == 0) {
      if (!error) error = "option '" + arg + "' takes on or off: --hcc-openmp=on|off";
    } else if (a == "--hcc-filter" || a == "--hcc-include" || a == "--hcc-exclude") {
      if (!error) error = "option '" + arg + "' needs a value: " + arg + "=" +
                          (a == "--hcc-filter" ? "FILE" : "PATTERN");
    } else if (a == "--hcc-compiler") {
      if (!error) error = "option '--hcc-compiler' needs a value: --hcc-compiler=CMD";
    } else if (!error) {
      error = "unknown option '" + arg +
              "' (known: --hcc-compiler=CMD, --hcc-filter=FILE, --hcc-include=PATTERN, "
              "--hcc-exclude=PATTERN, --hcc-openmp=on|off, --hcc-headers=on|off, --hcc-functions=auto|all|none|count:NAMES, --hcc-min-size=N, "
              "--hcc-off, --hcc-keep, --hcc-verbose, "
              "--hcc-version, --hcc-show-config, --hcc-help)";
    }
  }
  args = std::move(rest);
  return error;
}

std::vector<std::string> split_command(std::string_view cmd) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < cmd.size()) {
    while (i < cmd.size() && std::isspace(static_cast<unsigned char>(cmd[i]))) ++i;
    size_t start = i;
    while (i < cmd.size() && !std::isspace(static_cast<unsigned char>(cmd[i]))) ++i;
    if (i > start) words.emplace_back(cmd.substr(start, i - start));
  }
  return words;
}

bool switched_off(const char *name) { return !config::flag(name, "using on", true); }

}  // namespace hcc::driver
