// The instrumentation server's wire format (serve.h, client.h): one request
// per connection on a Unix stream socket.
//
//   client -> server  header: u64 payload size, with SCM_RIGHTS for the
//                     request's stdout and stderr;
//                     payload: cwd, umask, the tool's arguments, the
//                     client's whole environment (length-prefixed strings)
//   server -> client  'P' + i32: the pid doing the work (signals go there)
//                     'S' + i32: its exit status, as hcc-instrument's
//
// A connection that ends without 'S' means the work died: the client runs
// the tool itself. Nothing here needs Clang; the driver links it.
//
// Every read and write has a deadline (ETIMEDOUT past it): a peer that stops
// sending or reading - a client stopped with Ctrl-Z after connecting, a
// server whose workers are all stuck - must not hold the other side
// forever. How long each side waits, and why: serve.h, client.h.
#ifndef HCC_SERVER_PROTOCOL_H
#define HCC_SERVER_PROTOCOL_H

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hcc::server {

struct Request {
  std::string cwd;
  mode_t umask = 022;
  std::vector<std::string> args;  // after the program's name
  std::vector<std::string> env;   // NAME=VALUE, as in environ
};

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
Deadline deadlineIn(std::chrono::milliseconds d);

// False when the socket failed or `by` passed (errno says why).
bool sendRequest(int sock, const Request &r, int out_fd, int err_fd, Deadline by);
// `out_fd`/`err_fd` receive the descriptors sent along (owned by the
// caller). The whole request must have arrived by `by`.
bool receiveRequest(int sock, Request &r, int &out_fd, int &err_fd, Deadline by);

enum class Reply : char { Pid = 'P', Status = 'S' };
bool sendReply(int sock, Reply kind, int32_t value, Deadline by);
// nullopt at end of file, on an error, or when `by` passed first (errno
// ETIMEDOUT).
std::optional<std::pair<Reply, int32_t>> receiveReply(int sock, Deadline by);

}  // namespace hcc::server

#endif
