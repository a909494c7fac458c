// hcc-instrument: the command-line contract with the `hcc` driver.
//
//   hcc-instrument [--verbose] [--main-file-name=NAME] [--shadow-dir=ROOT] -o OUT SOURCE
//                  -- <compiler args>
//
// Exit 0 and OUT written: OUT is `#line 1 "NAME"` + SOURCE with region guards.
// Exit non-zero and no OUT: the driver compiles SOURCE unchanged, and the real
// compiler prints whatever is wrong with it; so nothing is printed here
// unless --verbose (usage errors excepted: they are the driver's bugs).
// With --shadow-dir the project's own headers are instrumented too, their
// copies written under ROOT (shadow_tree.h).
#include "instrument.h"
#include "atomic_file.h"
#include "result_cache.h"
#include "shadow_tree.h"

#include "filter/filter.hpp"

#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/raw_ostream.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int kFailed = 1;  // the file could not be instrumented
constexpr int kUsage = 2;   // the command line is wrong
constexpr int kBadFilter = 3;  // a --filter file or pattern is wrong: the user's error, not ours

const char kUsageText[] =
    "usage: hcc-instrument [--verbose] [--main-file-name=NAME] [--filter=FILE]... "
    "[--include=PATTERN]... [--exclude=PATTERN]... [--openmp=on|off] [--functions=auto|all|none] [--min-size=N] "
    "[--shadow-dir=ROOT] -o OUT SOURCE -- <compiler arguments>\n";

struct CommandLine {
  bool verbose = false;
  int openmp = -1;  // --openmp=on|off; -1: kOpenMPDefault
  // --functions=auto|all|none: the tool's default is auto (function_size.h).
  hcc::rewriter::FunctionPolicy functions = hcc::rewriter::FunctionPolicy::Auto;
  unsigned min_size = hcc::rewriter::kAutoMinSize;  // --min-size=N
  std::string main_file_name;
  std::string shadow_dir;  // --shadow-dir: also the project's headers
  std::string out;
  std::string source;
  std::vector<std::string> compile_args;
  // Selective instrumentation, in command-line order.
  std::vector<std::string> filter_files, includes, excludes;
};

bool parse(int argc, char **argv, CommandLine &cl, std::string &error) {
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "--verbose") {
      cl.verbose = true;
    } else if (a.rfind("--main-file-name=", 0) == 0) {
      cl.main_file_name = a.substr(sizeof("--main-file-name=") - 1);
    } else if (a.rfind("--shadow-dir=", 0) == 0) {
      cl.shadow_dir = a.substr(sizeof("--shadow-dir=") - 1);
    } else if (a == "--functions=auto") {
      cl.functions = hcc::rewriter::FunctionPolicy::Auto;
    } else if (a == "--functions=all") {
      cl.functions = hcc::rewriter::FunctionPolicy::All;
    } else if (a == "--functions=none") {
      cl.functions = hcc::rewriter::FunctionPolicy::None;
    } else if (a.rfind("--min-size=", 0) == 0) {
      std::string v = a.substr(sizeof("--min-size=") - 1);
      char *end = nullptr;
      unsigned long n = v.empty() ? 0 : std::strtoul(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || v[0] == '-' || n > 1000000) {
        error = "--min-size takes a number of statements and operations, e.g. --min-size=" +
                std::to_string(hcc::rewriter::kAutoMinSize) + " (got '" + v + "')";
        return false;
      }
      cl.min_size = unsigned(n);
    } else if (a == "--openmp=on" || a == "--openmp=off") {
      cl.openmp = a == "--openmp=on" ? 1 : 0;
    } else if (a.rfind("--filter=", 0) == 0) {
      cl.filter_files.push_back(a.substr(sizeof("--filter=") - 1));
    } else if (a.rfind("--include=", 0) == 0) {
      cl.includes.push_back(a.substr(sizeof("--include=") - 1));
    } else if (a.rfind("--exclude=", 0) == 0) {
      cl.excludes.push_back(a.substr(sizeof("--exclude=") - 1));
    } else if (a == "-o") {
      if (++i == argc) {
        error = "-o needs a file name";
        return false;
      }
      cl.out = argv[i];
    } else if (a.size() > 1 && a[0] == '-') {
      error = "unknown option '" + a + "'";
      return false;
    } else if (cl.source.empty()) {
      cl.source = a;
    } else {
      error = "more than one source file ('" + cl.source + "', '" + a + "')";
      return false;
    }
  }
  for (; i < argc; ++i) cl.compile_args.push_back(argv[i]);
  if (cl.out.empty() || cl.source.empty()) {
    error = cl.out.empty() ? "missing -o OUT" : "missing SOURCE";
    return false;
  }
  return true;
}


// Everything the result depends on that is known before parsing, for the
// cache key (result_cache.h); false when the source cannot be read.
bool cacheKeyParts(const CommandLine &cl, const hcc::rewriter::Options &options,
                   std::vector<std::string> &parts) {
  auto source = llvm::MemoryBuffer::getFile(cl.source);
  if (!source) return false;
  llvm::sys::fs::file_status exe;
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (llvm::sys::fs::status(self, exe)) return false;
  llvm::SmallString<256> cwd, abs_source(cl.source);
  llvm::sys::fs::current_path(cwd);
  llvm::sys::fs::make_absolute(abs_source);
  parts = {self, std::to_string(exe.getSize()),
           std::to_string(exe.getLastModificationTime().time_since_epoch().count()),
           cwd.str().str(), abs_source.str().str(), (*source)->getBuffer().str(),
           cl.main_file_name, options.openmp ? "openmp" : "no-openmp",
           options.headers ? "headers" : "no-headers",
           "functions=" + std::to_string(int(options.functions)) + ",min-size=" + std::to_string(options.min_size)};
  for (const char *env : {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH"}) {
    const char *v = getenv(env);
    parts.push_back(std::string(env) + "=" + (v ? v : ""));
  }
  parts.push_back("--");
  parts.insert(parts.end(), cl.compile_args.begin(), cl.compile_args.end());
  parts.push_back("--filters");
  for (const std::string &f : cl.filter_files) {
    auto text = llvm::MemoryBuffer::getFile(f);
    if (!text) return false;
    parts.push_back(f);
    parts.push_back((*text)->getBuffer().str());
  }
  for (const std::string &p : cl.includes) parts.push_back("+" + p);
  for (const std::string &p : cl.excludes) parts.push_back("-" + p);
  return true;
}

// Exit without running destructors: the AST was deliberately leaked
// (Options::leak_ast), and after a recovered crash Clang's state must not be
// touched again.
[[noreturn]] void finish(int status) {
  llvm::outs().flush();
  llvm::errs().flush();
  _exit(status);
}

}  // namespace

int main(int argc, char **argv) {
  CommandLine cl;
  std::string error;
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    fputs(kUsageText, stdout);
    return 0;
  }
  if (!parse(argc, argv, cl, error)) {
    fprintf(stderr, "hcc-instrument: %s\n%s", error.c_str(), kUsageText);
    return kUsage;
  }

  // An OUT left over from an earlier run must not pass for this run's
  // result if we fail (or crash) below.
  llvm::sys::fs::remove(cl.out);

  // A bad filter stops the build with the file and line at fault (exit 3,
  // which the driver reports instead of falling back to the original): the
  // user asked for a selection we cannot honour.
  hcc::filter::Filter filter;
  for (const std::string &f : cl.filter_files)
    if (!filter.add_file(f, error)) {
      fprintf(stderr, "hcc: error: %s\n", error.c_str());
      return kBadFilter;
    }
  for (const std::string &p : cl.includes)
    if (!filter.add_include(p, error)) {
      fprintf(stderr, "hcc: error: --hcc-include: %s\n", error.c_str());
      return kBadFilter;
    }
  for (const std::string &p : cl.excludes)
    if (!filter.add_exclude(p, error)) {
      fprintf(stderr, "hcc: error: --hcc-exclude: %s\n", error.c_str());
      return kBadFilter;
    }

  hcc::rewriter::Options options;
  options.main_file_name = cl.main_file_name;
  options.filter = &filter;
  options.leak_ast = true;
  if (cl.openmp >= 0) options.openmp = cl.openmp == 1;
  options.headers = !cl.shadow_dir.empty();
  options.functions = cl.functions;
  options.min_size = cl.min_size;
  hcc::rewriter::Result result;

  // An unchanged file compiled again: its stored result (result_cache.h).
  hcc::rewriter::ResultCache cache(hcc::rewriter::ResultCache::directoryFromEnvironment());
  options.preamble_dir = cache.enabled() ? hcc::rewriter::ResultCache::directoryFromEnvironment() : "";
  std::string key;
  std::vector<std::string> key_parts;
  if (cache.enabled() && cacheKeyParts(cl, options, key_parts))
    key = hcc::rewriter::ResultCache::key(key_parts);
  bool survived = true, cached = false;
  if (!key.empty()) {
    if (auto hit = cache.lookup(key)) {
      result = std::move(*hit);
      cached = true;
    }
  }
  if (!cached) {
    // A crash inside Clang on some unusual input must end as a plain failure
    // (the driver then compiles the original), not as a core dump and a
    // stack trace in the user's build log.
    llvm::CrashRecoveryContext::Enable();
    llvm::CrashRecoveryContext crc;
    survived = crc.RunSafely([&] {
      result = hcc::rewriter::instrumentFile(cl.source, cl.compile_args, options);
    });
    if (survived && result.ok && !key.empty()) cache.store(key, result);
  }

  if (cl.verbose) {
    for (const std::string &m : result.messages) llvm::errs() << m << '\n';
    if (!survived) llvm::errs() << "hcc: " << cl.source << ": the instrumentor crashed\n";
  }
  if (!survived || !result.ok) finish(kFailed);

  if (!hcc::rewriter::writeFileAtomically(cl.out, result.output, &error)) {
    if (cl.verbose) llvm::errs() << "hcc: " << error << '\n';
    finish(kFailed);
  }
  if (!cl.shadow_dir.empty()) {
    // The source's directory is mirrored too: the driver searches its copy
    // (-iquote) before it.
    llvm::SmallString<256> main_dir;
    llvm::StringRef src_dir = llvm::sys::path::parent_path(cl.source);
    if (llvm::sys::fs::real_path(src_dir.empty() ? "." : src_dir, main_dir)) main_dir = "/";
    std::vector<std::string> notes;
    bool wrote = hcc::rewriter::writeShadowTree(cl.shadow_dir, result.files, main_dir.str().str(), notes, error);
    if (cl.verbose)
      for (const std::string &m : notes) llvm::errs() << m << '\n';
    if (!wrote) {
      if (cl.verbose) llvm::errs() << "hcc: " << error << '\n';
      llvm::sys::fs::remove(cl.out);
      finish(kFailed);
    }
  }
  if (cl.verbose) {
    llvm::errs() << "hcc: " << (cl.main_file_name.empty() ? cl.source : cl.main_file_name)
                 << ": " << (cached ? "(from the instrumentation cache) " : "") << result.guards
                 << " function guard(s), " << result.setjmp_marks << " setjmp mark(s)";
    if (result.left_out)
      llvm::errs() << ", " << result.left_out << " function(s) left out by --hcc-functions="
                   << (cl.functions == hcc::rewriter::FunctionPolicy::None ? "none" : "auto");
    if (!filter.empty())
      llvm::errs() << ", " << result.filtered << " function(s) filtered out, " << result.loops << " loop region(s)";
    if (result.openmp_directives) llvm::errs() << ", " << result.openmp_directives << " OpenMP directive(s)";
    if (result.user_regions) llvm::errs() << ", " << result.user_regions << " region pragma(s)";
    llvm::errs() << "\n";
  }
  finish(0);
}
