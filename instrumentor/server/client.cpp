#include "client.h"

#include "private_dir.hpp"
#include "protocol.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include "config/config.hpp"

extern char **environ;

namespace hcc::server {
namespace {

// FNV-1a: a stable name for a tool binary, the same in every process.
uint64_t fnv1a(const std::string &s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// A directory for sockets that no other user can reach or replace: the
// rule every private directory of hcc follows (private_dir.hpp; the
// instrumentation cache too), here with no access at all for others.
bool privateDirectory(const std::string &dir) {
  std::string error;
  const int fd = rt::open_private_dir(dir, error, 077);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

}  // namespace

int serverIdleSeconds() {
  // Silent on a bad value (the server's stderr is often nobody's): 120 s.
  return static_cast<int>(hcc::config::number("HCC_SERVER_IDLE", nullptr).value_or(120));
}

std::string socketPath(const std::string &tool) {
  struct stat st {};
  if (::stat(tool.c_str(), &st) != 0) return "";
  const char *xdg = std::getenv("XDG_RUNTIME_DIR");
  std::string dir = xdg && xdg[0] == '/' ? std::string(xdg) + "/hcc" : "/tmp/hcc-" + std::to_string(::getuid());
  if (!privateDirectory(dir)) return "";
  // The mount namespace too: a container sharing /tmp must not be served by
  // a worker that sees another file system (and other pids).
  char ns[64] = "";
  const ssize_t n = ::readlink("/proc/self/ns/mnt", ns, sizeof ns - 1);
  const std::string identity = tool + '\0' + std::to_string(st.st_size) + '\0' +
                               std::to_string(st.st_mtim.tv_sec) + '.' + std::to_string(st.st_mtim.tv_nsec) +
                               '\0' + std::string(ns, n > 0 ? static_cast<size_t>(n) : 0);
  char name[32];
  std::snprintf(name, sizeof name, "/%016llx.sock", static_cast<unsigned long long>(fnv1a(identity)));
  std::string path = dir + name;
  // Room for bindSocket's temporary ".PID" suffix too.
  if (path.size() + 12 >= sizeof(sockaddr_un{}.sun_path)) return "";
  return path;
}

int connectToServer(const std::string &socket_path) {
  sockaddr_un addr{};
  if (socket_path.empty() || socket_path.size() >= sizeof addr.sun_path) return -1;
  // Non-blocking: connect() to a full queue fails at once (EAGAIN) instead
  // of waiting for room; the protocol waits with deadlines (protocol.h).
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
  int rc;
  do rc = ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
  while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    const int why = errno;  // ECONNREFUSED: a socket nobody listens on; EAGAIN: a full queue
    ::close(fd);
    errno = why;
    return -1;
  }
  return fd;
}

Served runOnServer(int fd, const std::vector<std::string> &args, const std::vector<DescriptorText> &descriptors,
                   int out_fd, int err_fd, void (*on_pid)(pid_t), const Timeouts &timeouts) {
  Served s;
  Request req;
  char cwd[PATH_MAX];
  if (!::getcwd(cwd, sizeof cwd)) {
    ::close(fd);
    return s;
  }
  req.cwd = cwd;
  req.umask = ::umask(0);
  ::umask(req.umask);
  req.args = args;
  for (char **e = environ; *e; ++e) req.env.emplace_back(*e);
  req.descriptors = descriptors;
  if (!sendRequest(fd, req, deadlineIn(timeouts.send))) {
    s.timed_out = errno == ETIMEDOUT;
    ::close(fd);
    return s;
  }
  // First the acknowledgement, then the streams, then the parse (Timeouts).
  Deadline by = deadlineIn(timeouts.ack);
  pid_t worker = 0;
  for (;;) {
    errno = 0;
    auto reply = receiveReply(fd, by);
    // An acknowledgement that arrived as the wait ended still counts: a
    // worker that got it through is at work, and must not run the request
    // beside the tool started here. (One sent after the close below fails,
    // and the worker drops the request.)
    if (!reply && errno == ETIMEDOUT && worker <= 0) reply = receiveReply(fd, Clock::now());
    if (!reply) {
      s.timed_out = errno == ETIMEDOUT;
      break;
    }
    if (reply->first == Reply::Pid) {
      if (worker <= 0) {
        // Only now do our streams leave this process: until a worker has
        // taken the request, it may wait in the queue long after we gave
        // up, and a descriptor in it would hold our caller's pipe open.
        if (!sendStreams(fd, out_fd, err_fd, deadlineIn(timeouts.send))) {
          s.timed_out = errno == ETIMEDOUT;
          break;  // the worker never got them: it drops the request unrun
        }
        by = deadlineIn(timeouts.work);
      }
      worker = reply->second;
      if (on_pid) on_pid(worker);
      continue;
    }
    s.finished = true;
    s.status = reply->second;
    break;
  }
  if (on_pid) on_pid(0);
  if (s.timed_out && worker > 0) {
    // A worker that took the request and went silent: it must not write
    // the output later, beside the tool the driver starts now, nor keep our
    // streams. Its end closes the connection; the server starts another
    // worker.
    ::kill(worker, SIGKILL);
    errno = 0;
    while (receiveReply(fd, deadlineIn(timeouts.send))) {
    }
  }
  ::close(fd);
  return s;
}

bool startServer(const std::string &tool, const std::string &socket_path, int idle_seconds) {
  // One start at a time: the files of a parallel build's first moments all
  // miss the server, and one server is enough. The server removes the mark
  // once it listens; a mark older than that start can take is stale.
  const std::string mark = startMark(socket_path);
  int m = ::open(mark.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
  if (m < 0) {
    struct stat st {};
    if (errno == EEXIST && ::stat(mark.c_str(), &st) == 0 && std::time(nullptr) - st.st_mtime > 10)
      ::unlink(mark.c_str());
    return false;
  }
  ::close(m);
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  for (int fd = 0; fd <= 2; ++fd) posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", O_RDWR, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);
  std::string serve = "--serve=" + socket_path, idle = "--idle=" + std::to_string(idle_seconds);
  char *argv[] = {const_cast<char *>(tool.c_str()), serve.data(), idle.data(), nullptr};
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, tool.c_str(), &fa, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) ::unlink(mark.c_str());
  return rc == 0;
}

std::string startMark(const std::string &socket_path) { return socket_path + ".starting"; }

}  // namespace hcc::server
