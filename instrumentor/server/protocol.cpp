#include "protocol.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace hcc::server {
namespace {

// A request's payload is a few kB (arguments and environment); anything
// far larger is not ours.
constexpr uint64_t kMaxPayload = 64u << 20;

// Milliseconds left until `by` (0 once it has passed).
int msLeft(Deadline by) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(by - Clock::now()).count();
  return left <= 0 ? 0 : left > INT32_MAX ? INT32_MAX : static_cast<int>(left);
}

// Waits until `fd` is ready for `events` or `by` passes (errno ETIMEDOUT).
// A peer that stops sending or reading must not hold this side forever.
bool waitFor(int fd, short events, Deadline by) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, msLeft(by));
    if (n > 0) return true;  // ready, or an error/hang-up the next call reports
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = ETIMEDOUT;
    return false;
  }
}

bool writeAll(int fd, const char *p, size_t n, Deadline by) {
  while (n > 0) {
    if (!waitFor(fd, POLLOUT, by)) return false;
    ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool readAll(int fd, char *p, size_t n, Deadline by) {
  while (n > 0) {
    if (!waitFor(fd, POLLIN, by)) return false;
    ssize_t r = ::recv(fd, p, n, MSG_DONTWAIT);
    if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (r == 0) errno = 0;  // the end: no error, no time-out
    if (r <= 0) return false;
    p += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}

void putU32(std::string &b, uint32_t v) { b.append(reinterpret_cast<const char *>(&v), sizeof v); }

void putString(std::string &b, const std::string &s) {
  putU32(b, static_cast<uint32_t>(s.size()));
  b += s;
}

void putStrings(std::string &b, const std::vector<std::string> &v) {
  putU32(b, static_cast<uint32_t>(v.size()));
  for (const std::string &s : v) putString(b, s);
}

struct Reader {
  const std::string &b;
  size_t at = 0;
  bool u32(uint32_t &v) {
    if (b.size() - at < sizeof v) return false;
    std::memcpy(&v, b.data() + at, sizeof v);
    at += sizeof v;
    return true;
  }
  bool str(std::string &s) {
    uint32_t n = 0;
    if (!u32(n) || b.size() - at < n) return false;
    s.assign(b, at, n);
    at += n;
    return true;
  }
  bool strs(std::vector<std::string> &v) {
    uint32_t n = 0;
    if (!u32(n)) return false;
    v.resize(n);
    for (std::string &s : v)
      if (!str(s)) return false;
    return true;
  }
};

// A one-byte message with room for two descriptors, as both ends use it
// for the client's streams.
constexpr char kStreams = 'F';
struct StreamsMessage {
  char tag = kStreams;
  iovec iov{&tag, sizeof tag};
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))] = {};
  msghdr msg{};
  StreamsMessage() {
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
  }
  StreamsMessage(const StreamsMessage &) = delete;
  StreamsMessage &operator=(const StreamsMessage &) = delete;
};

}  // namespace

Deadline deadlineIn(std::chrono::milliseconds d) { return Clock::now() + d; }

bool sendRequest(int sock, const Request &r, Deadline by) {
  std::string payload;
  putString(payload, r.cwd);
  putU32(payload, static_cast<uint32_t>(r.umask));
  putStrings(payload, r.args);
  putStrings(payload, r.env);
  putU32(payload, static_cast<uint32_t>(r.descriptors.size()));
  for (const DescriptorText &d : r.descriptors) {
    putU32(payload, static_cast<uint32_t>(d.fd));
    putString(payload, d.text);
  }
  if (payload.size() > kMaxPayload) {
    errno = EMSGSIZE;
    return false;
  }
  const uint64_t size = payload.size();
  return writeAll(sock, reinterpret_cast<const char *>(&size), sizeof size, by) &&
         writeAll(sock, payload.data(), payload.size(), by);
}

bool receiveRequest(int sock, Request &r, Deadline by) {
  uint64_t size = 0;
  if (!readAll(sock, reinterpret_cast<char *>(&size), sizeof size, by) || size > kMaxPayload) return false;
  std::string payload(size, '\0');
  if (!readAll(sock, payload.data(), payload.size(), by)) return false;
  Reader in{payload};
  uint32_t mask = 0, descriptors = 0;
  if (!in.str(r.cwd) || !in.u32(mask) || !in.strs(r.args) || !in.strs(r.env) || !in.u32(descriptors)) return false;
  r.umask = static_cast<mode_t>(mask);
  // Each entry takes at least 8 bytes: a count the payload cannot hold is
  // refused before anything is allocated for it.
  if (descriptors > (payload.size() - in.at) / 8) return false;
  r.descriptors.resize(descriptors);
  for (DescriptorText &d : r.descriptors) {
    uint32_t fd = 0;
    if (!in.u32(fd) || !in.str(d.text)) return false;
    d.fd = static_cast<int32_t>(fd);
  }
  return in.at == payload.size();
}

bool sendStreams(int sock, int out_fd, int err_fd, Deadline by) {
  StreamsMessage m;
  cmsghdr *c = CMSG_FIRSTHDR(&m.msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(2 * sizeof(int));
  const int fds[2] = {out_fd, err_fd};
  std::memcpy(CMSG_DATA(c), fds, sizeof fds);
  ssize_t n;
  do n = waitFor(sock, POLLOUT, by) ? ::sendmsg(sock, &m.msg, MSG_NOSIGNAL | MSG_DONTWAIT) : -2;
  while (n == -1 && (errno == EINTR || errno == EAGAIN));
  return n == 1;
}

bool receiveStreams(int sock, int &out_fd, int &err_fd, Deadline by) {
  out_fd = err_fd = -1;
  StreamsMessage m;
  m.tag = 0;
  ssize_t n;
  do n = waitFor(sock, POLLIN, by) ? ::recvmsg(sock, &m.msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT) : -2;
  while (n == -1 && (errno == EINTR || errno == EAGAIN));
  if (n == 0) errno = 0;  // the client went away
  // Whatever arrived is ours to close, even when the message is wrong.
  for (cmsghdr *c = CMSG_FIRSTHDR(&m.msg); n > 0 && c; c = CMSG_NXTHDR(&m.msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    int fds[2] = {-1, -1};
    for (size_t i = 0; i < count; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
      if (i < 2 && fds[i] < 0) fds[i] = fd;
      else ::close(fd);
    }
    if (out_fd >= 0 || count != 2) {
      for (int fd : fds)
        if (fd >= 0) ::close(fd);
      continue;
    }
    out_fd = fds[0];
    err_fd = fds[1];
  }
  if (n == 1 && m.tag == kStreams && out_fd >= 0 && !(m.msg.msg_flags & MSG_CTRUNC)) return true;
  if (out_fd >= 0) ::close(out_fd);
  if (err_fd >= 0) ::close(err_fd);
  out_fd = err_fd = -1;
  return false;
}

bool sendReply(int sock, Reply kind, int32_t value, Deadline by) {
  char b[1 + sizeof value];
  b[0] = static_cast<char>(kind);
  std::memcpy(b + 1, &value, sizeof value);
  return writeAll(sock, b, sizeof b, by);
}

std::optional<std::pair<Reply, int32_t>> receiveReply(int sock, Deadline by) {
  char b[1 + sizeof(int32_t)];
  if (!readAll(sock, b, sizeof b, by)) return std::nullopt;
  int32_t v;
  std::memcpy(&v, b + 1, sizeof v);
  if (b[0] != static_cast<char>(Reply::Pid) && b[0] != static_cast<char>(Reply::Status)) return std::nullopt;
  return std::make_pair(static_cast<Reply>(b[0]), v);
}

}  // namespace hcc::server
