// hcc-instrument: the command-line contract with the `hcc` driver.
//
//   hcc-instrument [--verbose] [--main-file-name=NAME] [--shadow-dir=ROOT] [--names=gcc|clang]
//                  [--filter=FILE | --filter-fd=N:NAME]... -o OUT SOURCE
//                  -- <compiler args>
//
// (--filter-fd: a filter the driver read and checked, descriptor N holding
// its text; NAME is never opened: ../cache/command_line.h.)
//
// Exit 0 and OUT written: OUT is `#line 1 "NAME"` + SOURCE with region guards.
// Exit non-zero and no OUT: the driver compiles SOURCE unchanged, and the real
// compiler prints whatever is wrong with it; so nothing is printed here
// unless --verbose (usage errors excepted: they are the driver's bugs).
// With --shadow-dir the project's own headers are instrumented too, their
// copies written under ROOT (shadow_tree.h).
//
//   hcc-instrument --serve=SOCKET [--idle=SECONDS]
//
// keeps the tool started and runs such command lines for the driver in warm
// worker processes (../server/serve.h).
#include "instrument.h"
#include "cached_run.h"
#include "command_line.h"
#include "result_cache.h"
#include "serve.h"

#include "filter/filter.hpp"

#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace hcc::rewriter;

// Exit without running destructors: the AST was deliberately leaked
// (Options::leak_ast), and after a recovered crash Clang's state must not be
// touched again.
[[noreturn]] void finish(int status) {
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  _exit(status);
}

// One command line's work, to its exit status. Runs once per process when
// started by the driver, or many times in an instrumentation server's worker
// (../server/serve.h): nothing here may outlive a run (a started tool
// leaks the AST, a worker frees it). `sent`: in a worker, the texts of the
// client's descriptors that --filter-fd names (a worker's own descriptor of
// that number is something else); nullptr in a started tool, which reads
// the descriptors it inherited.
int run(const std::vector<std::string> &args, const std::vector<hcc::server::DescriptorText> *sent) {
  CommandLine cl;
  std::string error;
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    fputs(kUsageText, stdout);
    return 0;
  }
  if (!parseCommandLine(args, cl, error)) {
    fprintf(stderr, "hcc-instrument: %s\n%s", error.c_str(), kUsageText);
    return kUsage;
  }

  // An OUT left over from an earlier run must not pass for this run's
  // result if we fail (or crash) below.
  llvm::sys::fs::remove(cl.out);

  // A bad filter stops the build with the file and line at fault (exit 3,
  // which the driver reports instead of falling back to the original): the
  // user asked for a selection we cannot honour. Each filter is read once
  // here; the cache key and the filter use that text.
  const DescriptorReader read = [sent](int fd, std::string &text, std::string &why) {
    if (!sent) return readOwnDescriptor(fd, text, why);
    for (const hcc::server::DescriptorText &d : *sent)
      if (d.fd == fd) {
        text = d.text;
        return true;
      }
    why = "not sent with the request";
    return false;
  };
  hcc::filter::Filter filter;
  if (int status = readFilters(cl, read, error)) {
    fprintf(stderr, "%s\n", error.c_str());
    return status;
  }
  if (int status = loadFilter(cl, filter, error)) {
    fprintf(stderr, "%s\n", error.c_str());
    return status;
  }

  // An unchanged file compiled again: its stored result (result_cache.h).
  // The driver has usually looked already (cached_run.h); this serves
  // callers that start the tool directly.
  // The cache is opened once, and used only when it is private (cache_dir.h);
  // the driver has said so already when it is not (and turned it off for
  // this run), so this warns only a caller that starts the tool directly.
  std::string refusal;
  const CacheDir cache = CacheDir::fromEnvironment(&refusal);
  if (!refusal.empty()) llvm::errs() << "hcc: warning: " << refusal << '\n';
  const std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  std::string key;
  if (std::optional<int> status = serveFromCache(cache, cl, self, &key)) return *status;

  Options options;
  options.main_file_name = cl.main_file_name;
  options.filter = &filter;
  // A started tool exits right after: freeing the AST would be wasted work.
  // A server's worker runs on, and reuses what it frees.
  options.leak_ast = !hcc::server::inWorker();
  options.openmp = openmpOn(cl);
  options.headers = headersOn(cl);
  options.clang_names = cl.clang_names;
  options.functions = cl.functions;
  options.min_size = cl.min_size;
  options.cache = cache;
  // In a server's worker, a preamble's precompilation waits until the
  // driver has this file's answer (serve.h).
  if (hcc::server::inWorker())
    options.defer = [](std::function<void()> job) {
      return hcc::server::afterReply([job] {
        llvm::CrashRecoveryContext crc;
        crc.RunSafely(job);
      });
    };
  Result result;

  // A crash inside Clang on some unusual input must end as a plain failure
  // (the driver then compiles the original), not as a core dump and a
  // stack trace in the user's build log.
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext crc;
  const bool survived = crc.RunSafely([&] { result = instrumentFile(cl.source, cl.compile_args, options); });
  if (survived && result.ok && !key.empty()) ResultCache(cache).store(key, result);

  if (!survived || !result.ok) {
    if (cl.verbose) {
      for (const std::string &m : result.messages) llvm::errs() << m << '\n';
      if (!survived) llvm::errs() << "hcc: " << cl.source << ": the instrumentor crashed\n";
    }
    if (!survived) hcc::server::retireAfterRequest();
    return kFailed;
  }
  return writeResult(cl, result, /*cached=*/false, !filter.empty());
}

// `--serve=SOCKET [--idle=SECONDS]`, or nullopt when `args` are not that.
std::optional<int> serveIfAsked(const std::vector<std::string> &args) {
  const std::string kServe = "--serve=", kIdle = "--idle=";
  if (args.empty() || args[0].rfind(kServe, 0) != 0) return std::nullopt;
  int idle = 120;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i].rfind(kIdle, 0) != 0) return kUsage;
    idle = std::atoi(args[i].c_str() + kIdle.size());
  }
  return hcc::server::serve(args[0].substr(kServe.size()), idle,
                            [](const std::vector<std::string> &a, const std::vector<hcc::server::DescriptorText> &d) {
    int status = run(a, &d);
    llvm::outs().flush();
    llvm::errs().flush();
    return status;
  });
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (std::optional<int> status = serveIfAsked(args)) return *status;
  finish(run(args, nullptr));
}
