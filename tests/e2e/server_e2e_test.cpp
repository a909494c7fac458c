// The instrumentation server (instrumentor/server/serve.h), end to end: the
// first file hcc instruments starts it, later files run in it, and what they
// get is what a started hcc-instrument gives: the same rewrite, the client's
// environment and working directory, its project headers instrumented, exact
// visits. It goes away when idle or killed, and a dead server's socket costs
// a build nothing. Each test has its own XDG_RUNTIME_DIR, so its server is
// its own.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {
namespace fs = std::filesystem;

void write(const std::string &path, const std::string &text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

// main.c calls work() in work.c, which calls the header's step() 25 times.
// "work.h" is found only through CPATH, which the server must take from the
// client. The project's own header: step() is instrumented too (all
// functions, whatever their size).
std::string project(const std::string &tag) {
  const std::string dir = scratch_dir("server-" + tag);
  write(dir + "/src/main.c",
        "#include <stdio.h>\n"
        "long work(int n);\n"
        "int main(void) {\n"
        "  printf(\"%ld\\n\", work(25));\n"
        "  return 0;\n"
        "}\n");
  write(dir + "/src/work.c",
        "#include \"work.h\"\n"
        "long work(int n) {\n"
        "  long s = 0;\n"
        "  for (int i = 0; i < n; ++i) s = step(s, i);\n"
        "  return s;\n"
        "}\n");
  write(dir + "/inc/work.h",
        "static inline long step(long s, int i) {\n"
        "  return s * 3 % 1000003 + i;\n"
        "}\n");
  fs::create_directories(dir + "/run");
  ::chmod((dir + "/run").c_str(), 0700);
  return dir;
}

// The start of a command run in `dir`'s src/ with the test's own server
// directory; `more` adds environment settings.
std::string hcc_in(const std::string &dir, const std::string &more = "") {
  return "cd " + shell_quote(dir + "/src") + " && XDG_RUNTIME_DIR=" + shell_quote(dir + "/run") +
         " CPATH=" + shell_quote(dir + "/inc") + " HCC_CACHE=off " + more + " " +
         shell_quote(hcc_bin()) + " --hcc-verbose --hcc-functions=all ";
}

// The socket named in "started the instrumentation server (PATH)".
std::string started_socket(const std::string &verbose) {
  std::smatch m;
  static const std::regex re("started the instrumentation server \\(([^)]+)\\)");
  return std::regex_search(verbose, m, re) ? m[1].str() : "";
}

bool is_socket(const std::string &path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
}

// Waits up to 20 s for `done`.
template <class F>
bool eventually(F done) {
  for (int i = 0; i < 200; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return done();
}

// The server's processes: those whose command line has --serve=SOCKET
// (read from /proc, as a user's ps would show them).
std::vector<pid_t> server_pids(const std::string &socket) {
  const std::string arg = "--serve=" + socket;
  std::vector<pid_t> pids;
  for (const auto &e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::istringstream cmdline(read_file(e.path().string() + "/cmdline"));  // NUL-separated
    for (std::string word; std::getline(cmdline, word, '\0');)
      if (word == arg) pids.push_back(std::stoi(name));
  }
  return pids;
}

std::string listed(const std::vector<pid_t> &pids) {
  std::string s;
  for (pid_t p : pids) s += std::to_string(p) + " ";
  return s;
}

void signal_server(const std::string &socket, int sig) {
  for (pid_t p : server_pids(socket)) ::kill(p, sig);
}

void stop_server(const std::string &socket) {
  if (!socket.empty()) signal_server(socket, SIGTERM);
}

// Compiles work.c in a fresh project, which starts the project's server;
// its socket once it listens ("" on failure, with the reason added).
std::string start_server(const std::string &dir, const std::string &idle) {
  RunResult r = run(hcc_in(dir, "HCC_SERVER_IDLE=" + idle) + "-O2 -c work.c -o work.o");
  const std::string socket = started_socket(r.err);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(socket.empty()) << r.err;
  if (r.status != 0 || socket.empty() || !eventually([&] { return is_socket(socket); })) {
    ADD_FAILURE() << "no server listening at '" << socket << "'";
    return "";
  }
  return socket;
}

// The instrumented copy --hcc-keep left ("kept instrumented source of 'x': PATH").
std::string kept_source(const std::string &verbose) {
  std::smatch m;
  static const std::regex re("kept instrumented source of '[^']*': (\\S+)");
  return std::regex_search(verbose, m, re) ? read_file(m[1].str()) : "<none kept>";
}

TEST(InstrumentationServer, LaterFilesRunInItWithTheClientsEnvironmentAndExactVisits) {
  const std::string dir = project("visits");
  RunResult first = run(hcc_in(dir, "HCC_SERVER_IDLE=60") + "-O2 -c main.c -o main.o");
  ASSERT_EQ(first.status, 0) << first.err;
  const std::string socket = started_socket(first.err);
  ASSERT_FALSE(socket.empty()) << first.err;
  EXPECT_EQ(socket.rfind(dir + "/run/hcc/", 0), 0u) << socket;
  ASSERT_TRUE(eventually([&] { return is_socket(socket); })) << socket;
  RunResult config = run(hcc_in(dir) + "--hcc-show-config");
  EXPECT_NE(config.out.find("server:       " + socket + " (running"), std::string::npos) << config.out;

  // work.c: found its header through the client's CPATH, in the client's
  // working directory, with the header's function measured.
  RunResult served = run(hcc_in(dir, "HCC_SERVER_IDLE=60") + "--hcc-keep -O2 -c work.c -o work.o");
  ASSERT_EQ(served.status, 0) << served.err;
  EXPECT_NE(served.err.find("(in the instrumentation server)"), std::string::npos) << served.err;
  EXPECT_NE(served.err.find("work.c: 2 function guard(s)"), std::string::npos) << served.err;
  EXPECT_NE(served.err.find("instrumented header " + dir + "/inc/work.h: 1 function guard(s)"), std::string::npos)
      << served.err;
  EXPECT_EQ(served.err.find("could not instrument"), std::string::npos) << served.err;

  // No server process keeps a client's directory busy between requests.
  EXPECT_TRUE(eventually([&] {
    const std::vector<pid_t> pids = server_pids(socket);
    for (pid_t pid : pids)
      if (fs::read_symlink("/proc/" + std::to_string(pid) + "/cwd") != "/") return false;
    return pids.size() >= 3;  // the server and at least two workers
  })) << listed(server_pids(socket));

  // The same rewrite as the tool started by hcc.
  RunResult direct = run(hcc_in(dir, "HCC_SERVER=off") + "--hcc-keep -O2 -c work.c -o work-direct.o");
  ASSERT_EQ(direct.status, 0) << direct.err;
  EXPECT_EQ(direct.err.find("instrumentation server"), std::string::npos) << direct.err;
  EXPECT_EQ(kept_source(served.err), kept_source(direct.err));

  ASSERT_EQ(run(hcc_in(dir) + "main.o work.o -o app").status, 0);
  ASSERT_EQ(run("cd " + shell_quote(dir + "/src") + " && cc -I../inc main.c work.c -o plain").status, 0);
  RunResult plain = run(shell_quote(dir + "/src/plain"));
  RunResult app = run("cd " + shell_quote(dir) + " && HCC_OUTPUT_DIR=prof src/app");
  ASSERT_EQ(app.status, 0) << app.err;
  EXPECT_EQ(app.out, plain.out);
  Profile prof = Profile::load(dir + "/prof");
  EXPECT_EQ(prof.visits("main"), 1);
  EXPECT_EQ(prof.visits("main/work"), 1);
  EXPECT_EQ(prof.visits("main/work/step"), 25);
  stop_server(socket);
}

TEST(InstrumentationServer, EndsWhenIdleAndRemovesItsSocket) {
  const std::string dir = project("idle");
  const std::string socket = start_server(dir, "1");
  ASSERT_FALSE(socket.empty());
  EXPECT_FALSE(server_pids(socket).empty());
  // Idle for a second: the server, its workers and its socket are gone.
  EXPECT_TRUE(eventually([&] { return !is_socket(socket) && server_pids(socket).empty(); }))
      << socket << " pids: " << listed(server_pids(socket));
}

TEST(InstrumentationServer, AKilledServersSocketIsReplacedAndTheFileStillInstrumented) {
  const std::string dir = project("killed");
  const std::string socket = start_server(dir, "60");
  ASSERT_FALSE(socket.empty());
  // SIGKILL: no chance to remove the socket, which nobody listens on now.
  signal_server(socket, SIGKILL);
  ASSERT_TRUE(eventually([&] { return server_pids(socket).empty(); }));
  ASSERT_TRUE(is_socket(socket));

  RunResult again = run(hcc_in(dir, "HCC_SERVER_IDLE=60") + "-O2 -c work.c -o work2.o");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.err.find("work.c: 2 function guard(s)"), std::string::npos) << again.err;
  EXPECT_EQ(again.err.find("could not instrument"), std::string::npos) << again.err;
  EXPECT_EQ(started_socket(again.err), socket) << again.err;
  ASSERT_TRUE(eventually([&] { return !server_pids(socket).empty(); }));
  RunResult served = run(hcc_in(dir, "HCC_SERVER_IDLE=60") + "-O2 -c work.c -o work3.o");
  ASSERT_EQ(served.status, 0) << served.err;
  EXPECT_NE(served.err.find("(in the instrumentation server)"), std::string::npos) << served.err;
  stop_server(socket);
  EXPECT_TRUE(eventually([&] { return !is_socket(socket); })) << "SIGTERM leaves no socket";
}

// A preamble seen the second time (preamble_cache.h) is precompiled after
// the worker has answered: that file is parsed as usual and compiled at once,
// the file after it loads the PCH, and the program they make is right.
TEST(InstrumentationServer, ASecondFileBeginningAlikePrecompilesTheirPreambleAfterItsAnswer) {
  const std::string dir = project("preamble");
  const std::string socket = start_server(dir, "60");
  ASSERT_FALSE(socket.empty());
  const std::string cache = dir + "/cache";
  const std::string env = "HCC_SERVER_IDLE=60 HCC_CACHE=on HCC_CACHE_DIR=" + shell_quote(cache);
  const std::string begin = "#include <stdio.h>\n#include <stdlib.h>\n";
  write(dir + "/src/a.c", begin + "int a_value(void) { return atoi(\"1\"); }\n");
  write(dir + "/src/b.c", begin + "int b_value(void) { return atoi(\"20\"); }\n");
  write(dir + "/src/c.c", begin +
                              "int a_value(void);\nint b_value(void);\n"
                              "int main(void) {\n  printf(\"%d\\n\", a_value() + b_value() + atoi(\"300\"));\n"
                              "  return 0;\n}\n");
  RunResult a = run(hcc_in(dir, env) + "-O2 -c a.c -o a.o");
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.err.find("precompil"), std::string::npos) << "the first sighting only leaves a mark\n" << a.err;

  RunResult b = run(hcc_in(dir, env) + "-O2 -c b.c -o b.o");
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NE(b.err.find("(in the instrumentation server)"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("b.c: precompiling its leading system headers after this file, for the next ones"),
            std::string::npos)
      << b.err;
  EXPECT_EQ(b.err.find("precompiled its leading system headers for the next time"), std::string::npos)
      << "precompiled before the answer\n" << b.err;
  EXPECT_EQ(b.err.find("from a precompiled preamble"), std::string::npos) << b.err;

  // The job's results: the PCH and the record of what it read.
  auto stored = [&](const std::string &ext) {
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(cache + "/pch", ec))
      if (e.path().extension() == ext) return true;
    return false;
  };
  ASSERT_TRUE(eventually([&] { return stored(".pch") && stored(".deps"); })) << "no PCH in " << cache;
  EXPECT_FALSE(stored(".seen"));

  RunResult c = run(hcc_in(dir, env) + "-O2 -c c.c -o c.o");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.err.find("c.c: system headers from a precompiled preamble"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("c.c: 1 function guard(s)"), std::string::npos) << c.err;
  RunResult link = run(hcc_in(dir, env) + "a.o b.o c.o -o abc");
  ASSERT_EQ(link.status, 0) << link.err;
  RunResult program = run("cd " + shell_quote(dir + "/src") + " && HCC_OUTPUT_DIR=" + shell_quote(dir + "/profile") +
                          " ./abc");
  EXPECT_EQ(program.status, 0) << program.err;
  EXPECT_EQ(program.out, "321\n");
  stop_server(socket);
}

// A connection to `socket` that will never send anything; -1 on failure.
int silent_connection(const std::string &socket) {
  sockaddr_un addr{};
  if (socket.size() >= sizeof addr.sun_path) return -1;
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, socket.c_str(), socket.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Issue 28, item 7: connections that never send a request took every worker,
// and the next hcc waited for its reply until the server went idle
// (HCC_SERVER_IDLE: here 10 minutes, so only the fix can end the wait). Now
// a worker drops such a connection after a few seconds and a client that
// gets no answer in time instruments the file itself: the compile ends
// under a kill-timeout (150 s) far beyond both limits, instrumented, its
// program right.
TEST(InstrumentationServer, SilentConnectionsHoldingEveryWorkerDoNotHangTheNextCompile) {
  const std::string dir = project("silent");
  RunResult main_o = run(hcc_in(dir, "HCC_SERVER=off") + "-O2 -c main.c -o main.o");
  ASSERT_EQ(main_o.status, 0) << main_o.err;
  const std::string socket = start_server(dir, "600");
  ASSERT_FALSE(socket.empty());
  struct Stop {
    std::string socket;
    ~Stop() { stop_server(socket); }
  } stop{socket};
  // The server and its workers (as many as CPUs, at least 2).
  size_t workers = 0;
  ASSERT_TRUE(eventually([&] { return (workers = server_pids(socket).size()) >= 3; })) << listed(server_pids(socket));
  workers -= 1;
  std::vector<int> silent;
  for (size_t i = 0; i < workers + 1; ++i) {
    const int fd = silent_connection(socket);
    ASSERT_GE(fd, 0) << std::strerror(errno);
    silent.push_back(fd);
  }
  RunResult r = run("timeout -s KILL 150 sh -c " +
                    shell_quote(hcc_in(dir, "HCC_SERVER_IDLE=600") + "-O2 -c work.c -o work.o"));
  for (int fd : silent) ::close(fd);
  const bool killed = r.status == 124 || r.status == 128 + SIGKILL;
  ASSERT_FALSE(killed) << "hcc hung behind " << silent.size() << " silent connections\n" << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("work.c: 2 function guard(s)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("could not instrument"), std::string::npos) << r.err;

  ASSERT_EQ(run(hcc_in(dir, "HCC_SERVER=off") + "main.o work.o -o app").status, 0);
  RunResult app = run("cd " + shell_quote(dir) + " && HCC_OUTPUT_DIR=prof src/app");
  ASSERT_EQ(app.status, 0) << app.err;
  ASSERT_EQ(run("cd " + shell_quote(dir + "/src") + " && cc -I../inc main.c work.c -o plain").status, 0);
  EXPECT_EQ(app.out, run(shell_quote(dir + "/src/plain")).out);
  Profile prof = Profile::load(dir + "/prof");
  EXPECT_EQ(prof.visits("main/work"), 1);
  EXPECT_EQ(prof.visits("main/work/step"), 25);
}

// Runs `cmd` with /bin/sh, its stdout and stderr both on one pipe, under a
// kill-timeout of `kill_after` s. Returns its exit status and output, and
// whether the pipe reached EOF within `eof_within` s after the command
// exited (it does as soon as no process holds the pipe's write end).
struct PipedRun {
  int status = -1;
  std::string output;
  bool eof_in_time = false;
};
PipedRun run_into_pipe(const std::string &cmd, int kill_after, int eof_within) {
  PipedRun r;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return r;
  const std::string timeout = std::to_string(kill_after);
  const pid_t child = ::fork();
  if (child == 0) {
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::execlp("timeout", "timeout", "-s", "KILL", timeout.c_str(), "sh", "-c", cmd.c_str(), static_cast<char *>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  if (child < 0) {
    ::close(fds[0]);
    return r;
  }
  using Clock = std::chrono::steady_clock;
  std::optional<Clock::time_point> exited;
  for (;;) {
    if (!exited) {
      int status = 0;
      if (::waitpid(child, &status, WNOHANG) == child) {
        exited = Clock::now();
        r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
    } else if (Clock::now() - *exited > std::chrono::seconds(eof_within)) {
      break;  // still open: some process kept the write end
    }
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, 100) > 0) {
      char buf[4096];
      const ssize_t n = ::read(fds[0], buf, sizeof buf);
      if (n > 0) r.output.append(buf, size_t(n));
      if (n == 0 && exited) {
        r.eof_in_time = true;
        break;
      }
      if (n == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));  // EOF before the exit was seen
    }
  }
  if (!exited) ::waitpid(child, nullptr, 0);
  ::close(fds[0]);
  return r;
}

// Issue 40, item 4c: the driver sent its stdout and stderr along with the
// request, before any worker had taken it. With every worker stuck (here
// stopped; in the issue held by 40 silent connections), the request sat in
// the server's queue with the descriptors in it; hcc gave up at 60 s and
// built the file itself, but its output pipe stayed open until a worker
// reached the request (99.6 s), and whatever waited for EOF on the build's
// output waited with it. Now the streams go only to a worker that has
// acknowledged: the pipe reaches EOF when hcc exits. (The command and the
// wait for EOF are bounded by kill-timeouts; nothing is timed precisely.)
TEST(InstrumentationServer, ARequestStuckInTheQueueDoesNotHoldTheBuildsOutputPipe) {
  const std::string dir = project("held-pipe");
  const std::string socket = start_server(dir, "600");
  ASSERT_FALSE(socket.empty());
  // The server and all its workers (one per CPU, 2 to 32: serve.cpp), so
  // that none is left to take the request.
  const size_t all = 1 + size_t(std::clamp(::sysconf(_SC_NPROCESSORS_ONLN), 2L, 32L));
  std::vector<pid_t> pids;
  ASSERT_TRUE(eventually([&] { return (pids = server_pids(socket)).size() >= all; })) << listed(server_pids(socket));
  struct Resume {
    std::string socket;
    ~Resume() {
      signal_server(socket, SIGCONT);
      stop_server(socket);
    }
  } resume{socket};
  for (pid_t pid : pids) ASSERT_EQ(::kill(pid, SIGSTOP), 0) << pid;

  const PipedRun r = run_into_pipe(hcc_in(dir, "HCC_SERVER_IDLE=600") + "-O2 -c work.c -o work.o", 200, 30);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(r.eof_in_time) << "the build's output pipe was still open 30 s after hcc exited: a server process "
                                "holds it\n"
                             << r.output;
  EXPECT_NE(r.output.find("the instrumentation server did not answer in time; running the instrumentor here"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("work.c: 2 function guard(s)"), std::string::npos) << r.output;

  // Resumed, the server drops the request its client gave up on and
  // serves the next build.
  signal_server(socket, SIGCONT);
  bool served = false;
  RunResult next;
  for (int i = 0; i < 50 && !served; ++i) {
    next = run(hcc_in(dir, "HCC_SERVER_IDLE=600") + "-O2 -c work.c -o work2.o");
    ASSERT_EQ(next.status, 0) << next.err;
    served = next.err.find("(in the instrumentation server)") != std::string::npos &&
             next.err.find("did not answer") == std::string::npos;
    if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_TRUE(served) << next.err;
  EXPECT_NE(next.err.find("work.c: 2 function guard(s)"), std::string::npos) << next.err;
}

TEST(InstrumentationServer, OffRunsTheToolInEveryCompile) {
  const std::string dir = project("off");
  for (int i = 0; i < 2; ++i) {
    RunResult r = run(hcc_in(dir, "HCC_SERVER=off") + "-O2 -c work.c -o work.o");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("instrumentation server"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("/hcc-instrument --functions=all --verbose "), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(dir + "/run/hcc"));
  EXPECT_NE(run(hcc_in(dir, "HCC_SERVER=off") + "--hcc-show-config").out.find("server:       off (HCC_SERVER)\n"),
            std::string::npos);
}

}  // namespace
}  // namespace hcc::e2e
