#include "instrument_step.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include "client.h"
#include "header_shadow.hpp"
#include "log.hpp"
#include "paths.hpp"
#include "process.hpp"

#if HCC_DRIVER_SERVES_CACHE
#include "cached_run.h"
#endif

namespace hcc::driver {
namespace {

// `cmd` run in the instrumentation server (../server/client.h), as the
// tool's exit would say it; nullopt when the tool must be started here: no
// server is up (one is started for the files after this one), or the server
// lost the request (its worker died).
std::optional<ProcessResult> run_in_server(const std::vector<std::string> &cmd,
                                           const std::vector<const FilterText *> &filters, bool verbose) {
  char tool[PATH_MAX];
  if (!::realpath(cmd[0].c_str(), tool)) return std::nullopt;
  const std::string socket = server::socketPath(tool);
  if (socket.empty()) return std::nullopt;
  int conn = server::connectToServer(socket);
  if (conn < 0 && errno == EAGAIN) {  // it listens, but its queue is full
    if (verbose) print_note("the instrumentation server is busy; running the instrumentor here");
    return std::nullopt;
  }
  if (conn < 0) {
    if (server::startServer(tool, socket, server::serverIdleSeconds()) && verbose)
      print_note("started the instrumentation server (" + socket + ") for the files after this one");
    return std::nullopt;
  }
  if (verbose) print_note("run: " + shell_command(cmd) + " (in the instrumentation server)");
  // As when started here: quiet by contract unless --verbose.
  int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const int out = verbose ? 2 : null_fd;
  // The texts behind --filter-fd=N travel with the request: the worker is
  // another process, our descriptor N means nothing there.
  std::vector<server::DescriptorText> texts;
  for (const FilterText *f : filters) texts.push_back({f->fd, f->text});
  server::Served s = server::runOnServer(conn, std::vector<std::string>(cmd.begin() + 1, cmd.end()), texts,
                                         out, out, forward_signals_to);
  if (null_fd >= 0) ::close(null_fd);
  ProcessResult pr;
  pr.started = true;
  if (s.finished) {
    pr.exit_code = s.status;
    return pr;
  }
  if (int sig = received_signal()) {  // passed on to the worker, which died of it
    pr.term_signal = sig;
    return pr;
  }
  if (verbose)
    print_note(s.timed_out ? "the instrumentation server did not answer in time; running the instrumentor here"
                           : "the instrumentation server lost the request; running the instrumentor here");
  return std::nullopt;
}

}  // namespace

std::optional<std::string> TempDirs::create(std::string &error) {
  const char *env = std::getenv("TMPDIR");
  std::string base = env && *env ? env : "/tmp";
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  std::string templ = base + "/hcc-XXXXXX";
  if (!::mkdtemp(templ.data())) {
    error = "cannot create a temporary directory in '" + base + "': " + std::strerror(errno);
    return std::nullopt;
  }
  dirs_.push_back(templ);
  return templ;
}

void TempDirs::remove_all() {
  // A temp dir holds the instrumented source, maybe a response file, and
  // for the first source the shadow tree (symbolic links never followed).
  for (const auto &d : dirs_) remove_tree(d);
  dirs_.clear();
}

InstrumentResult instrument_source(const std::vector<std::string> &instrumentor,
                                   const std::vector<const FilterText *> &filters,
                                   const InputFile &input,
                                   const std::vector<std::string> &compile_args,
                                   TempDirs &temps, bool verbose,
                                   const std::string &shadow_root, bool use_server,
                                   const std::function<void()> &before_parse) {
  InstrumentResult r;
  if (instrumentor.empty() || !is_executable_file(instrumentor[0])) {
    r.why = "the instrumentor '" + (instrumentor.empty() ? std::string() : instrumentor[0]) +
            "' is not an executable file";
    return r;
  }
  std::string error;
  auto dir = temps.create(error);
  if (!dir) {
    r.why = error;
    return r;
  }
  std::string out = *dir + "/" + base_name(input.path);

  std::vector<std::string> cmd = instrumentor;
  if (verbose) cmd.push_back("--verbose");
  if (!shadow_root.empty()) cmd.push_back("--shadow-dir=" + shadow_root);
  cmd.push_back("--main-file-name=" + input.path);
  cmd.push_back("-o");
  cmd.push_back(out);
  cmd.push_back(input.path);
  cmd.push_back("--");
  cmd.insert(cmd.end(), compile_args.begin(), compile_args.end());

#if HCC_DRIVER_SERVES_CACHE
  // An unchanged source compiled again: its cached instrumentation, written
  // here by the tool's own code, without starting the tool (cached_run.h).
  // The binary is part of the key, so only entries the same tool stored
  // match; anything but a clean hit falls through to running it.
  {
    rewriter::CommandLine cl;
    std::string parse_error;
    char resolved[PATH_MAX];
    // The filters' texts from our own copies (filter_texts.hpp), as the
    // tool reads them.
    if (rewriter::parseCommandLine(std::vector<std::string>(cmd.begin() + 1, cmd.end()), cl, parse_error) &&
        rewriter::readFilters(cl, rewriter::readOwnDescriptor, parse_error) == 0 &&
        ::realpath(instrumentor[0].c_str(), resolved)) {
      // Checked again here (a few system calls): driver.cpp has warned and
      // turned the cache off when it is not private.
      std::optional<int> status =
          rewriter::serveFromCache(rewriter::CacheDir::fromEnvironment(nullptr), cl, resolved);
      if (status && *status == 0 && file_exists(out)) {
        r.ok = true;
        r.output = out;
        return r;
      }
    }
  }
#endif

  if (before_parse) before_parse();
  std::optional<ProcessResult> served;
  if (use_server) served = run_in_server(cmd, filters, verbose);
  if (!served && verbose) print_note("run: " + shell_command(cmd));
  RunOptions ro;
  // Quiet by contract unless --verbose; /dev/null also hides a crash message.
  ro.out = verbose ? Stream::ToStderr : Stream::Null;
  ro.err = verbose ? Stream::Inherit : Stream::Null;
  for (const FilterText *f : filters) ro.inherit.push_back(f->fd);
  ProcessResult pr = served ? *served : run_process(cmd, ro);

  if (!pr.started)
    r.why = "cannot run '" + cmd[0] + "': " + std::strerror(pr.start_errno);
  else if (pr.term_signal)
    r.why = "the instrumentor was killed by signal " + std::to_string(pr.term_signal) + " (" +
            strsignal(pr.term_signal) + ")";
  else if (pr.exit_code == 3) {
    r.user_error = true;
    r.why = "the instrumentor rejected the filter (--hcc-filter/--hcc-include/--hcc-exclude)";
  } else if (pr.exit_code != 0)
    r.why = "the instrumentor exited with status " + std::to_string(pr.exit_code);
  else if (!file_exists(out))
    r.why = "the instrumentor reported success but wrote no '" + out + "'";
  else {
    r.ok = true;
    r.output = out;
  }
  return r;
}

}  // namespace hcc::driver
