// hcc driver — running programs.
//
// posix_spawn (vfork-like, cheap even from a big process) and exec; never
// system(): no shell between the user's arguments and the compiler.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace hcc::driver {

enum class Stream {
  Inherit,   // the child writes where hcc writes
  Capture,   // collected into ProcessResult
  Null,      // /dev/null
  ToStderr,  // (stdout only) sent to hcc's stderr
};

struct RunOptions {
  Stream out = Stream::Inherit;
  Stream err = Stream::Inherit;
  // Close-on-exec descriptors the child keeps, under the same numbers (the
  // instrumentor's checked filter texts, filter_texts.hpp); no other child
  // gets them.
  std::vector<int> inherit;
};

struct ProcessResult {
  bool started = false;
  int start_errno = 0;   // why it did not start
  int exit_code = 0;     // when it exited
  int term_signal = 0;   // when a signal killed it
  std::string out, err;  // captured streams

  bool ok() const { return started && term_signal == 0 && exit_code == 0; }
  // The status a shell would report: exit code, 128+signal, 127/126 when the
  // program could not be started.
  int shell_status() const;
};

// argv[0] is the program path (already looked up).
ProcessResult run_process(const std::vector<std::string> &argv, const RunOptions &opts);

// run_process in two steps, for a child that runs while hcc does other work
// (hcc's forwarded signals reach it from start to finish).
struct Started {
  pid_t pid = -1;
  int out_fd = -1, err_fd = -1;  // read ends of captured streams
  ProcessResult result;  // started / start_errno until finished
};
Started start_process(const std::vector<std::string> &argv, const RunOptions &opts);
// Collects its captured streams and waits for it.
ProcessResult finish_process(Started &child);
// Whether it has exited (reaped then: finish_process only drains its streams).
bool has_exited(Started &child);
// Collects what its captured streams have now, waiting at most `timeout_ms`
// for something to come.
void collect_output(Started &child, int timeout_ms);

// Replaces hcc by the program. Returns only if exec failed (errno is set).
void exec_process(const std::vector<std::string> &argv);

// While hcc waits for a child, SIGINT/SIGTERM/SIGHUP/SIGQUIT are recorded and
// passed on to the child instead of killing hcc at once, so hcc can remove its
// temporary files before it dies of the same signal.
void install_signal_forwarding();
int received_signal();  // 0 when none
// Makes `pid` (not hcc's child: the instrumentation server's worker) the
// process such signals are passed on to; 0 to stop.
void forward_signals_to(pid_t pid);
// Dies of `sig` with the default action, so the parent (make, ninja) sees
// the signal, not an exit code.
[[noreturn]] void die_of_signal(int sig);

}  // namespace hcc::driver
