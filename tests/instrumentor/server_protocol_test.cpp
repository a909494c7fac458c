// The instrumentation server's wire format (instrumentor/server/protocol.h)
// over a real socket pair: a request arrives whole with the filter texts it
// carries, the streams that follow the acknowledgement write where the
// client's do, and a cut request is refused, not guessed. Neither side
// waits forever for a peer that goes silent: the server's read of a request
// and the client's waits for the acknowledgement and for the status end at
// their deadlines (runOnServer against a fake server). A client hands its
// streams over only to a worker that acknowledged (issue 40).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>

#include "client.h"
#include "protocol.h"

using namespace hcc::server;
using namespace std::chrono_literals;

namespace {

// Far enough away that no test reaches it.
Deadline later() { return deadlineIn(std::chrono::minutes(5)); }

struct Pair {
  int client = -1, server = -1;
  Pair() {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0) {
      client = fds[0];
      server = fds[1];
    }
  }
  ~Pair() {
    if (client >= 0) ::close(client);
    if (server >= 0) ::close(server);
  }
};

TEST(ServerProtocol, ARequestArrivesWholeAndTheStreamsAfterItWriteToTheClientsStreams) {
  Pair s;
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  Request sent;
  sent.cwd = "/tmp/a dir";
  sent.umask = 027;
  sent.args = {"--verbose", "", "-o", "out.c", std::string("nul\0byte", 8), "--filter-fd=7:hcc.plan"};
  sent.env = {"CPATH=/x:/y", "EMPTY="};
  sent.descriptors = {{7, "exclude tiny\n"}, {9, ""}};
  ASSERT_TRUE(sendRequest(s.client, sent, later()));

  Request got;
  ASSERT_TRUE(receiveRequest(s.server, got, later()));
  EXPECT_EQ(got.cwd, sent.cwd);
  EXPECT_EQ(got.umask, sent.umask);
  EXPECT_EQ(got.args, sent.args);
  EXPECT_EQ(got.env, sent.env);
  ASSERT_EQ(got.descriptors.size(), 2u);
  EXPECT_EQ(got.descriptors[0].fd, 7);
  EXPECT_EQ(got.descriptors[0].text, "exclude tiny\n");
  EXPECT_EQ(got.descriptors[1].fd, 9);
  EXPECT_EQ(got.descriptors[1].text, "");

  // The pipe's write end stands for stdout, and stderr both.
  ASSERT_TRUE(sendStreams(s.client, pipe_fds[1], pipe_fds[1], later()));
  ::close(pipe_fds[1]);
  int out = -1, err = -1;
  ASSERT_TRUE(receiveStreams(s.server, out, err, later()));
  ASSERT_GE(out, 0);
  ASSERT_EQ(::write(out, "o", 1), 1);
  ASSERT_EQ(::write(err, "e", 1), 1);
  ::close(out);
  ::close(err);
  char buf[4] = {};
  EXPECT_EQ(::read(pipe_fds[0], buf, sizeof buf), 2);
  EXPECT_EQ(std::string(buf, 2), "oe");
  ::close(pipe_fds[0]);

  ASSERT_TRUE(sendReply(s.server, Reply::Pid, 4242, later()));
  ASSERT_TRUE(sendReply(s.server, Reply::Status, 3, later()));
  auto pid = receiveReply(s.client, later());
  auto status = receiveReply(s.client, later());
  ASSERT_TRUE(pid && status);
  EXPECT_EQ(pid->first, Reply::Pid);
  EXPECT_EQ(pid->second, 4242);
  EXPECT_EQ(status->first, Reply::Status);
  EXPECT_EQ(status->second, 3);
}

TEST(ServerProtocol, ACutRequestOrAMissingStatusIsAFailure) {
  {
    Pair s;
    // A header announcing 100 bytes, then the end.
    uint64_t size = 100;
    ASSERT_EQ(::write(s.client, &size, sizeof size), static_cast<ssize_t>(sizeof size));
    ::shutdown(s.client, SHUT_WR);
    Request r;
    EXPECT_FALSE(receiveRequest(s.server, r, later())) << "no payload";
  }
  {
    // The streams' message without its descriptors.
    Pair s;
    ASSERT_EQ(::write(s.client, "F", 1), 1);
    int out = -1, err = -1;
    EXPECT_FALSE(receiveStreams(s.server, out, err, later()));
    EXPECT_EQ(out, -1);
    EXPECT_EQ(err, -1);
  }
  {
    Pair s;
    ::shutdown(s.server, SHUT_WR);
    EXPECT_FALSE(receiveReply(s.client, later())) << "a worker that died says nothing";
  }
}

// A connection that sends nothing (item 7 of issue 28: such connections
// held every worker forever): the read of the request ends at its deadline.
TEST(ServerProtocol, ARequestThatNeverComesEndsAtItsDeadline) {
  Pair s;
  Request r;
  errno = 0;
  EXPECT_FALSE(receiveRequest(s.server, r, deadlineIn(200ms)));
  EXPECT_EQ(errno, ETIMEDOUT);
  // Half a request: the header and nothing more.
  uint64_t size = 100;
  ASSERT_EQ(::write(s.client, &size, sizeof size), static_cast<ssize_t>(sizeof size));
  errno = 0;
  EXPECT_FALSE(receiveRequest(s.server, r, deadlineIn(200ms)));
  EXPECT_EQ(errno, ETIMEDOUT);
  // Streams that never come, after an acknowledgement.
  int out = -1, err = -1;
  errno = 0;
  EXPECT_FALSE(receiveStreams(s.server, out, err, deadlineIn(200ms)));
  EXPECT_EQ(errno, ETIMEDOUT);
  EXPECT_EQ(out, -1);
  EXPECT_EQ(err, -1);
}

// The client's side against a server that accepted and then says nothing:
// runOnServer gives up (timed_out), so the driver instruments the file itself.
TEST(ServerClient, AServerThatNeverAcknowledgesIsGivenUp) {
  Pair s;
  Timeouts t;
  t.ack = 300ms;
  Served got = runOnServer(s.client, {"-o", "out.c", "in.c", "--"}, {}, 2, 2, nullptr, t);
  s.client = -1;  // closed by runOnServer
  EXPECT_FALSE(got.finished);
  EXPECT_TRUE(got.timed_out);
  // The request did arrive; only the answer was missing.
  Request r;
  ASSERT_TRUE(receiveRequest(s.server, r, deadlineIn(2s)));
  EXPECT_EQ(r.args, (std::vector<std::string>{"-o", "out.c", "in.c", "--"}));
  // The client is gone: the acknowledgement a late worker sends is refused,
  // and the worker drops the request unrun (serve.cpp); no streams came.
  EXPECT_FALSE(sendReply(s.server, Reply::Pid, 1, deadlineIn(2s)));
  int out = -1, err = -1;
  EXPECT_FALSE(receiveStreams(s.server, out, err, deadlineIn(2s)));
  EXPECT_EQ(out, -1);
}

// Issue 40, item 4c: the client's streams went with the request, so a
// request waiting in the queue (every worker busy) held the caller's pipe
// after the client had given up on it and exited: with 40 silent
// connections, a build's output reached EOF 40 s after hcc ended. Now a
// client that gets no acknowledgement sends no descriptor: once it has
// returned and the caller closed its end, the pipe is at EOF although the
// request is still unread in the server's end of the socket.
TEST(ServerClient, AClientThatGaveUpBeforeTheAcknowledgementLeavesItsPipeToNoOne) {
  Pair s;
  int pipe_fds[2];
  ASSERT_EQ(::pipe2(pipe_fds, O_CLOEXEC), 0);
  Timeouts t;
  t.ack = 300ms;
  Served got = runOnServer(s.client, {"in.c"}, {}, pipe_fds[1], pipe_fds[1], nullptr, t);
  s.client = -1;
  EXPECT_TRUE(got.timed_out);
  ::close(pipe_fds[1]);
  // s.server still holds the unread request: whatever the client sent is in
  // its buffer. EOF must come at once; 10 s only bounds a failure.
  pollfd p{pipe_fds[0], POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 10'000), 1) << "the pipe's write end is still held by the unread request";
  char c;
  EXPECT_EQ(::read(pipe_fds[0], &c, 1), 0) << "EOF";
  ::close(pipe_fds[0]);
}

// The order a worker sees: the request (no descriptor with it), then, once
// it acknowledged, the client's streams, which write where the client's do.
TEST(ServerClient, TheStreamsFollowTheAcknowledgementAndReachTheClientsPipe) {
  Pair s;
  int pipe_fds[2];
  ASSERT_EQ(::pipe2(pipe_fds, O_CLOEXEC), 0);
  const pid_t worker = ::fork();
  ASSERT_GE(worker, 0);
  if (worker == 0) {
    ::close(s.client);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    // Read the request as raw bytes with room for descriptors: none came.
    uint64_t size = 0;
    alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))] = {};
    iovec iov{&size, sizeof size};
    msghdr m{};
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = control;
    m.msg_controllen = sizeof control;
    if (::recvmsg(s.server, &m, 0) != static_cast<ssize_t>(sizeof size)) ::_exit(10);
    if (m.msg_controllen != 0) ::_exit(11);  // descriptors came with the request
    std::string payload(size, '\0');
    for (size_t got = 0; got < size;) {
      const ssize_t n = ::read(s.server, payload.data() + got, size - got);
      if (n <= 0) ::_exit(12);
      got += size_t(n);
    }
    if (!sendReply(s.server, Reply::Pid, ::getpid(), later())) ::_exit(13);
    int out = -1, err = -1;
    if (!receiveStreams(s.server, out, err, later())) ::_exit(14);
    if (::write(out, "o", 1) != 1 || ::write(err, "e", 1) != 1) ::_exit(15);
    ::close(out);
    ::close(err);
    sendReply(s.server, Reply::Status, 5, later());
    ::_exit(0);
  }
  ::close(s.server);
  s.server = -1;
  Served got = runOnServer(s.client, {"in.c"}, {}, pipe_fds[1], pipe_fds[1], nullptr, {});
  s.client = -1;
  ::close(pipe_fds[1]);
  EXPECT_TRUE(got.finished);
  EXPECT_EQ(got.status, 5);
  int status = 0;
  ASSERT_EQ(::waitpid(worker, &status, 0), worker);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "worker's status " << status;
  char buf[4] = {};
  EXPECT_EQ(::read(pipe_fds[0], buf, sizeof buf), 2);
  EXPECT_EQ(std::string(buf, 2), "oe");
  ::close(pipe_fds[0]);
}

// A worker that acknowledged (its pid) and then hangs: past the work limit the
// client kills it, so it cannot write the output later, and gives up.
TEST(ServerClient, AWorkerSilentPastTheWorkLimitIsKilledAndGivenUp) {
  Pair s;
  const pid_t worker = ::fork();
  ASSERT_GE(worker, 0);
  if (worker == 0) {  // the stuck worker: holds the connection, says nothing
    for (;;) ::pause();
  }
  // Its acknowledgement, sent here on its behalf; then only it holds the
  // server's end.
  ASSERT_TRUE(sendReply(s.server, Reply::Pid, worker, later()));
  ::close(s.server);
  s.server = -1;
  Timeouts t;
  t.work = 300ms;
  Served got = runOnServer(s.client, {"in.c"}, {}, 2, 2, nullptr, t);
  s.client = -1;
  EXPECT_FALSE(got.finished);
  EXPECT_TRUE(got.timed_out);
  int status = 0;
  ASSERT_EQ(::waitpid(worker, &status, 0), worker);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;
}

// A worker that answers in time is waited for past the acknowledgement's
// limit: the parse is under the work limit only.
TEST(ServerClient, AnAcknowledgedParseLongerThanTheAckLimitStillCounts) {
  Pair s;
  const pid_t worker = ::fork();
  ASSERT_GE(worker, 0);
  if (worker == 0) {
    ::close(s.client);
    Request r;
    int out = -1, err = -1;
    if (!receiveRequest(s.server, r, later()) || !receiveStreams(s.server, out, err, later())) ::_exit(1);
    ::usleep(600 * 1000);  // a parse longer than the ack limit below
    sendReply(s.server, Reply::Status, 7, later());
    ::_exit(0);
  }
  // The acknowledgement is there before the client looks (sent on the
  // worker's behalf), so only the parse's length is in question.
  ASSERT_TRUE(sendReply(s.server, Reply::Pid, worker, later()));
  ::close(s.server);
  s.server = -1;
  Timeouts t;
  t.ack = 200ms;
  Served got = runOnServer(s.client, {"in.c"}, {}, 2, 2, nullptr, t);
  s.client = -1;
  EXPECT_TRUE(got.finished);
  EXPECT_FALSE(got.timed_out);
  EXPECT_EQ(got.status, 7);
  int status = 0;
  ASSERT_EQ(::waitpid(worker, &status, 0), worker);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
}

}  // namespace
