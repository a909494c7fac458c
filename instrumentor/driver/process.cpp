#include "process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace hcc::driver {
namespace {

volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_signal = 0;

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void on_signal(int sig) {
  g_signal = sig;
  pid_t child = g_child;
  if (child > 0) ::kill(child, sig);
}

std::vector<char *> c_argv(const std::vector<std::string> &argv) {
  std::vector<char *> v;
  v.reserve(argv.size() + 1);
  for (const auto &a : argv) v.push_back(const_cast<char *>(a.c_str()));
  v.push_back(nullptr);
  return v;
}

}  // namespace

int ProcessResult::shell_status() const {
  if (!started) return start_errno == ENOENT ? 127 : 126;
  if (term_signal) return 128 + term_signal;
  return exit_code;
}

void install_signal_forwarding() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : kForwarded) {
    struct sigaction old {};
    ::sigaction(sig, nullptr, &old);
    if (old.sa_handler == SIG_IGN) continue;  // e.g. nohup: keep ignoring
    ::sigaction(sig, &sa, nullptr);
  }
}

int received_signal() { return g_signal; }

void forward_signals_to(pid_t pid) {
  g_child = pid;
  // A signal that came before the pid was known was not passed on yet.
  if (pid > 0 && g_signal) ::kill(pid, g_signal);
}

void die_of_signal(int sig) {
  ::signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
  ::raise(sig);
  std::_Exit(128 + sig);  // the signal was ignored after all
}

Started start_process(const std::vector<std::string> &argv, const RunOptions &opts) {
  Started c;
  ProcessResult &r = c.result;
  int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);

  auto setup = [&](Stream s, int target, int pipe_fds[2]) -> bool {
    switch (s) {
      case Stream::Inherit:
        return true;
      case Stream::Null:
        return posix_spawn_file_actions_addopen(&fa, target, "/dev/null", O_WRONLY, 0) == 0;
      case Stream::ToStderr:
        return posix_spawn_file_actions_adddup2(&fa, 2, target) == 0;
      case Stream::Capture:
        if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return false;
        // dup2 clears close-on-exec on the child's copy only.
        return posix_spawn_file_actions_adddup2(&fa, pipe_fds[1], target) == 0;
    }
    return false;
  };
  // dup2 onto its own number clears close-on-exec in the child only
  // (POSIX 2024; glibc since 2.29).
  bool kept = true;
  for (int fd : opts.inherit) kept = kept && posix_spawn_file_actions_adddup2(&fa, fd, fd) == 0;
  if (!kept || !setup(opts.out, 1, out_pipe) || !setup(opts.err, 2, err_pipe)) {
    r.start_errno = errno ? errno : EIO;
    posix_spawn_file_actions_destroy(&fa);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]})
      if (fd >= 0) ::close(fd);
    return c;
  }

  auto cargv = c_argv(argv);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, cargv[0], &fa, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (out_pipe[1] >= 0) ::close(out_pipe[1]);
  if (err_pipe[1] >= 0) ::close(err_pipe[1]);
  if (rc != 0) {
    r.start_errno = rc;
    if (out_pipe[0] >= 0) ::close(out_pipe[0]);
    if (err_pipe[0] >= 0) ::close(err_pipe[0]);
    return c;
  }
  r.started = true;
  c.pid = pid;
  c.out_fd = out_pipe[0];
  c.err_fd = err_pipe[0];
  g_child = pid;
  // A signal that came between spawn and here was not forwarded yet.
  if (g_signal) ::kill(pid, g_signal);
  return c;
}

namespace {

void take_status(ProcessResult &r, int status) {
  if (WIFSIGNALED(status))
    r.term_signal = WTERMSIG(status);
  else if (WIFEXITED(status))
    r.exit_code = WEXITSTATUS(status);
}

}  // namespace

bool has_exited(Started &child) {
  if (child.pid <= 0) return true;
  int status = 0;
  pid_t p = ::waitpid(child.pid, &status, WNOHANG);
  if (p != child.pid) return false;
  take_status(child.result, status);
  if (g_child == child.pid) g_child = 0;  // the pid may be reused from now on
  child.pid = 0;  // reaped
  return true;
}

void collect_output(Started &child, int timeout_ms) {
  pollfd fds[2];
  int *owner[2];
  int nfds = 0;
  for (int *fd : {&child.out_fd, &child.err_fd})
    if (*fd >= 0) {
      owner[nfds] = fd;
      fds[nfds++] = {*fd, POLLIN, 0};
    }
  if (nfds == 0) {
    ::poll(nullptr, 0, timeout_ms);
    return;
  }
  if (::poll(fds, static_cast<nfds_t>(nfds), timeout_ms) <= 0) return;
  char buf[16384];
  for (int k = 0; k < nfds; ++k) {
    if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    ssize_t n = ::read(fds[k].fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n > 0) {
      (owner[k] == &child.out_fd ? child.result.out : child.result.err).append(buf, static_cast<size_t>(n));
    } else {
      ::close(*owner[k]);  // EOF or error: this stream is done
      *owner[k] = -1;
    }
  }
}

ProcessResult finish_process(Started &child) {
  ProcessResult &r = child.result;
  if (!r.started) return r;
  // The signal handler's target while this child is waited for.
  g_child = child.pid;
  // Until both streams end; poll, so that a child filling one pipe while
  // hcc waits on the other cannot deadlock.
  while (child.out_fd >= 0 || child.err_fd >= 0) collect_output(child, -1);
  if (child.pid > 0) {
    int status = 0;
    while (::waitpid(child.pid, &status, 0) < 0) {
      if (errno != EINTR) {
        status = 0;
        break;
      }
    }
    take_status(r, status);
    child.pid = 0;
  }
  g_child = 0;
  return r;
}

ProcessResult run_process(const std::vector<std::string> &argv, const RunOptions &opts) {
  Started c = start_process(argv, opts);
  return finish_process(c);
}

void exec_process(const std::vector<std::string> &argv) {
  auto cargv = c_argv(argv);
  ::execv(cargv[0], cargv.data());
}

}  // namespace hcc::driver
