// The instrumentation server's wire format (serve.h, client.h): one request
// per connection on a Unix stream socket.
//
//   client -> server  header: u64 payload size;
//                     payload: cwd, umask, the tool's arguments, the
//                     client's whole environment (length-prefixed strings),
//                     the texts of the descriptors the arguments name
//                     (i32 number + string each: --filter-fd=N)
//   server -> client  'P' + i32: the pid doing the work (signals go there),
//                     the acknowledgement
//   client -> server  'F' with SCM_RIGHTS for the request's stdout and stderr
//   server -> client  'S' + i32: its exit status, as hcc-instrument's
//
// The client's streams go only to a worker that has acknowledged: a
// request waiting in the socket's queue (every worker busy, stopped or held
// by silent connections) carries no descriptor, so a client that gives up
// waiting leaves no one holding its output (a build's pipe reaches EOF when
// hcc exits). A connection that ends without 'S' means the work died: the
// client runs the tool itself. Nothing here needs Clang; the driver links it.
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

// The text behind a descriptor of the client's that the arguments name
// (hcc-instrument's --filter-fd=N: a filter the driver read and checked).
// Sent as text, not as a descriptor: the worker reads nothing by name or
// number of the client's, and the request stays a plain message.
struct DescriptorText {
  int32_t fd = -1;
  std::string text;
};

struct Request {
  std::string cwd;
  mode_t umask = 022;
  std::vector<std::string> args;  // after the program's name
  std::vector<std::string> env;   // NAME=VALUE, as in environ
  std::vector<DescriptorText> descriptors;
};

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
Deadline deadlineIn(std::chrono::milliseconds d);

// False when the socket failed or `by` passed (errno says why; EMSGSIZE
// for a request larger than the server takes, 64 MiB).
bool sendRequest(int sock, const Request &r, Deadline by);
// The whole request must have arrived by `by`.
bool receiveRequest(int sock, Request &r, Deadline by);

// The client's stdout and stderr, sent once the request is acknowledged.
bool sendStreams(int sock, int out_fd, int err_fd, Deadline by);
// `out_fd`/`err_fd` receive them (owned by the caller); false when anything
// else came, or nothing by `by`.
bool receiveStreams(int sock, int &out_fd, int &err_fd, Deadline by);

enum class Reply : char { Pid = 'P', Status = 'S' };
bool sendReply(int sock, Reply kind, int32_t value, Deadline by);
// nullopt at end of file, on an error, or when `by` passed first (errno
// ETIMEDOUT).
std::optional<std::pair<Reply, int32_t>> receiveReply(int sock, Deadline by);

}  // namespace hcc::server

#endif
