#include "serve.h"

#include "client.h"
#include "protocol.h"

#include <dirent.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <set>

extern char **environ;

namespace hcc::server {
namespace {

constexpr int kMaxWorkers = 32;
// How long a worker waits for a request once it has accepted a connection,
// and again for the client's streams once it has acknowledged. The driver
// sends its request (a few kB) right after connecting, so it is usually in
// the socket's buffer before the worker looks, and its streams as soon as
// it reads the acknowledgement; a connection that sends nothing in 5 s is
// stuck (a client stopped with Ctrl-Z, a stray connect) and must not hold a
// worker, which all other clients queue for.
constexpr std::chrono::seconds kRequestTimeout{5};
// The replies are 5 bytes each; only a client that stopped reading and let
// its buffer fill could make them wait.
constexpr std::chrono::seconds kReplyTimeout{5};
constexpr long kRetireRssKiB = 512L << 10;  // 512 MiB

bool g_retire = false;
bool g_in_worker = false;
int g_listen_fd = -1;
std::function<void()> g_after_reply;  // the request's job for after its status
pid_t g_job = 0;                      // the child running the last one

// Whether the last job's child has ended (reaped here: workers wait for
// nothing else of theirs).
bool jobDone() {
  if (g_job > 0 && ::waitpid(g_job, nullptr, WNOHANG) != 0) g_job = 0;
  return g_job == 0;
}

// The request's job, in a child that keeps nothing of the server's: not
// the socket (a server gone idle must not leave it half alive), not the
// client's streams (closed already).
void startJob() {
  std::function<void()> job = std::move(g_after_reply);
  g_after_reply = nullptr;
  if (!job) return;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(g_listen_fd);
    job();
    std::fflush(nullptr);
    ::_exit(0);
  }
  if (pid > 0) g_job = pid;
}

int64_t now() { return static_cast<int64_t>(std::time(nullptr)); }

// The server was started detached by a driver; nothing it inherited (a
// make jobserver's pipe, a test harness's pipes) may be held open by a
// process that lives on after the build.
void detach() {
  int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null >= 0) {
    for (int fd = 0; fd <= 2; ++fd) ::dup2(null, fd);
    if (null > 2) ::close(null);
  }
  if (::close_range(3, ~0u, 0) != 0) {
    long max = ::sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536) max = 65536;
    for (int fd = 3; fd < max; ++fd) ::close(fd);
  }
  ::setsid();
  // Nor may it keep the first client's directory busy (an unmount, a
  // removed build tree).
  if (::chdir("/") != 0) return;
}

struct Bound {
  int fd = -1;
  dev_t dev = 0;
  ino_t ino = 0;
};

// Bound under a private name, then renamed into place: a stale socket left
// by a server that died is replaced, and of two servers started at once the
// last one renamed serves (the other sees it lost the socket and ends).
Bound bindSocket(const std::string &path) {
  Bound b;
  sockaddr_un addr{};
  std::string tmp = path + "." + std::to_string(::getpid());
  if (tmp.size() >= sizeof addr.sun_path) return b;
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return b;
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, tmp.c_str(), tmp.size() + 1);
  ::unlink(tmp.c_str());
  struct stat st {};
  if (::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 || ::listen(fd, 128) != 0 ||
      ::stat(tmp.c_str(), &st) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    ::close(fd);
    return b;
  }
  b.fd = fd;
  b.dev = st.st_dev;
  b.ino = st.st_ino;
  return b;
}

bool stillOurs(const std::string &path, const Bound &b) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && st.st_dev == b.dev && st.st_ino == b.ino;
}

// What servers of other tool binaries left: the sockets of servers that
// were killed (a rebuilt tool's server is never asked again) and marks of
// starts that did not happen. One directory read per server start.
void removeStaleEntries(const std::string &socket_path) {
  const std::string dir = socket_path.substr(0, socket_path.rfind('/'));
  DIR *d = ::opendir(dir.c_str());
  if (!d) return;
  auto ends_with = [](const std::string &s, const std::string &tail) {
    return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
  };
  while (dirent *e = ::readdir(d)) {
    const std::string path = dir + "/" + e->d_name;
    if (path == socket_path) continue;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    if (ends_with(path, ".starting") && S_ISREG(st.st_mode) && now() - st.st_mtime > 60)
      ::unlink(path.c_str());
    else if (ends_with(path, ".sock") && S_ISSOCK(st.st_mode)) {
      int fd = connectToServer(path);
      if (fd >= 0) ::close(fd);  // a live server: it sees an empty request and ignores it
      else if (errno == ECONNREFUSED) ::unlink(path.c_str());
    }
  }
  ::closedir(d);
}

bool sameUser(int conn) {
  ucred cred{};
  socklen_t len = sizeof cred;
  return ::getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.uid == ::getuid();
}

// One request in this worker. The client's streams are held only while it
// runs: a worker keeping a test harness's pipe open would hang the harness.
// They come only after the acknowledgement (protocol.h), so a request that
// waited in the queue until its client gave up never brought them.
void handle(int conn, int null_fd, const RunTool &run) {
  Request req;
  int out_fd = -1, err_fd = -1;
  // The pid is the acknowledgement the client waits for (client.h's
  // Timeouts): sent before the work, and refused (EPIPE) by a client that
  // gave up waiting, whose request is then dropped unrun, as it is when its
  // streams do not follow.
  const bool ok = receiveRequest(conn, req, deadlineIn(kRequestTimeout)) &&
                  sendReply(conn, Reply::Pid, ::getpid(), deadlineIn(kReplyTimeout)) &&
                  receiveStreams(conn, out_fd, err_fd, deadlineIn(kRequestTimeout)) &&
                  ::chdir(req.cwd.c_str()) == 0 && ::dup2(out_fd, 1) >= 0 && ::dup2(err_fd, 2) >= 0;
  if (out_fd >= 0) ::close(out_fd);
  if (err_fd >= 0) ::close(err_fd);
  if (ok) {
    ::umask(req.umask);
    // The client's environment as it is: CPATH and the like steer Clang's
    // header search, HCC_* the tool. Its strings live until the next
    // request replaces them (single-threaded: nothing reads `environ` in
    // between).
    static Request current;
    static std::vector<char *> env;
    current = std::move(req);
    env.clear();
    for (std::string &e : current.env) env.push_back(e.data());
    env.push_back(nullptr);
    environ = env.data();

    int status = run(current.args, current.descriptors);
    std::fflush(nullptr);
    sendReply(conn, Reply::Status, status, deadlineIn(kReplyTimeout));
  }
  // Without a status the client runs the tool itself.
  ::dup2(null_fd, 1);
  ::dup2(null_fd, 2);
  ::close(conn);
  // Still in the client's directory: a job may name files relative to it.
  startJob();
  if (::chdir("/") != 0) return;  // the client's directory is not ours to keep busy
}

bool grownTooLarge() {
  rusage ru{};
  return ::getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_maxrss > kRetireRssKiB;
}

[[noreturn]] void worker(int listen_fd, std::atomic<int64_t> *last_request, const RunTool &run) {
  g_in_worker = true;
  g_listen_fd = listen_fd;
  // What a request frees stays in the heap for the next one: returning it to
  // the kernel (trimming, or an mmap per large block) would make every
  // request fault its memory in again.
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 1 << 30);
  ::signal(SIGCHLD, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  sigset_t all;
  sigemptyset(&all);
  ::sigprocmask(SIG_SETMASK, &all, nullptr);
  const int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  for (;;) {
    int conn = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (conn < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      ::_exit(1);
    }
    last_request->store(now());
    if (!sameUser(conn)) {
      ::close(conn);
      continue;
    }
    handle(conn, null_fd, run);
    jobDone();
    last_request->store(now());
    if (g_retire || grownTooLarge()) ::_exit(0);
  }
}

}  // namespace

void retireAfterRequest() { g_retire = true; }

bool afterReply(std::function<void()> job) {
  if (!g_in_worker || g_after_reply || !jobDone()) return false;
  g_after_reply = std::move(job);
  return true;
}

bool inWorker() { return g_in_worker; }

int serve(const std::string &socket_path, int idle_seconds, const RunTool &run) {
  detach();
  Bound b = bindSocket(socket_path);
  ::unlink(startMark(socket_path).c_str());
  if (b.fd < 0) return 1;
  removeStaleEntries(socket_path);
  ::signal(SIGPIPE, SIG_IGN);
  ::signal(SIGHUP, SIG_IGN);
  // The workers' last request time, for the server's idle check.
  void *shared = ::mmap(nullptr, sizeof(std::atomic<int64_t>), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) return 1;
  auto *last_request = new (shared) std::atomic<int64_t>(now());

  // Signals are waited for, not handled: a worker that ends is replaced at
  // once, a SIGTERM ends the server as going idle does (its socket removed),
  // and the idle check runs every second in between.
  sigset_t waited;
  sigemptyset(&waited);
  for (int sig : {SIGCHLD, SIGTERM, SIGINT}) sigaddset(&waited, sig);
  ::sigprocmask(SIG_BLOCK, &waited, nullptr);

  long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  const int workers = static_cast<int>(std::clamp(cpus, 2L, static_cast<long>(kMaxWorkers)));
  std::set<pid_t> running;
  auto start_worker = [&] {
    pid_t pid = ::fork();
    if (pid == 0) worker(b.fd, last_request, run);
    if (pid > 0) running.insert(pid);
  };
  for (int i = 0; i < workers; ++i) start_worker();

  const int64_t idle = idle_seconds > 0 ? idle_seconds : 1;
  for (;;) {
    timespec second{1, 0};
    const int sig = ::sigtimedwait(&waited, nullptr, &second);
    for (pid_t pid; (pid = ::waitpid(-1, nullptr, WNOHANG)) > 0;) running.erase(pid);
    if (sig == SIGTERM || sig == SIGINT) break;
    if (now() - last_request->load() >= idle || !stillOurs(socket_path, b)) break;
    while (static_cast<int>(running.size()) < workers) start_worker();
  }
  // A client connecting right now, or whose request a worker holds, sees
  // the connection end without a status and runs the tool itself.
  if (stillOurs(socket_path, b)) ::unlink(socket_path.c_str());
  ::close(b.fd);
  for (pid_t pid : running) ::kill(pid, SIGTERM);
  for (pid_t pid : running) ::waitpid(pid, nullptr, 0);
  return 0;
}

}  // namespace hcc::server
