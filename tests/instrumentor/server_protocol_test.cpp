// The instrumentation server's wire format (instrumentor/server/protocol.h)
// over a real socket pair: a request arrives whole, with descriptors that
// write where the client's do, and a cut request is refused, not guessed.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "protocol.h"

using namespace hcc::server;

namespace {

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
    ::close(client);
    ::close(server);
  }
};

TEST(ServerProtocol, ARequestArrivesWholeWithDescriptorsThatWriteToTheClientsStreams) {
  Pair s;
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  Request sent;
  sent.cwd = "/tmp/a dir";
  sent.umask = 027;
  sent.args = {"--verbose", "", "-o", "out.c", std::string("nul\0byte", 8)};
  sent.env = {"CPATH=/x:/y", "EMPTY="};
  // The pipe's write end stands for stdout, and stderr both.
  ASSERT_TRUE(sendRequest(s.client, sent, pipe_fds[1], pipe_fds[1]));
  ::close(pipe_fds[1]);

  Request got;
  int out = -1, err = -1;
  ASSERT_TRUE(receiveRequest(s.server, got, out, err));
  EXPECT_EQ(got.cwd, sent.cwd);
  EXPECT_EQ(got.umask, sent.umask);
  EXPECT_EQ(got.args, sent.args);
  EXPECT_EQ(got.env, sent.env);
  ASSERT_GE(out, 0);
  ASSERT_EQ(::write(out, "o", 1), 1);
  ASSERT_EQ(::write(err, "e", 1), 1);
  ::close(out);
  ::close(err);
  char buf[4] = {};
  EXPECT_EQ(::read(pipe_fds[0], buf, sizeof buf), 2);
  EXPECT_EQ(std::string(buf, 2), "oe");
  ::close(pipe_fds[0]);

  ASSERT_TRUE(sendReply(s.server, Reply::Pid, 4242));
  ASSERT_TRUE(sendReply(s.server, Reply::Status, 3));
  auto pid = receiveReply(s.client);
  auto status = receiveReply(s.client);
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
    int out = -1, err = -1;
    EXPECT_FALSE(receiveRequest(s.server, r, out, err)) << "no descriptors and no payload";
  }
  {
    Pair s;
    ::shutdown(s.server, SHUT_WR);
    EXPECT_FALSE(receiveReply(s.client)) << "a worker that died says nothing";
  }
}

}  // namespace
