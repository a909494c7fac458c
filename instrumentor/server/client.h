// The driver's side of the instrumentation server (serve.h): where the
// server of a given hcc-instrument listens, running a request there, and
// starting a server when there is none.
#ifndef HCC_SERVER_CLIENT_H
#define HCC_SERVER_CLIENT_H

#include "protocol.h"

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace hcc::server {

// The server's idle time in seconds (HCC_SERVER_IDLE, default 120). Whether
// one is used at all (HCC_SERVER) is the driver's call.
int serverIdleSeconds();

// The socket of the server for the tool binary `tool` (a real path): one
// per binary, size and time (a rebuilt tool gets a new server) and mount
// namespace (containers sharing /tmp get one each), in
// $XDG_RUNTIME_DIR/hcc or else /tmp/hcc-UID, a directory only this user
// may enter. "" when no such directory can be had.
std::string socketPath(const std::string &tool);

struct Served {
  bool finished = false;   // the server reported the tool's exit status
  int status = 0;
  bool timed_out = false;  // not finished: the server did not answer in time
};

// How long the driver waits for each step of a request (protocol.h); past
// one, it instruments the file itself. A worker acknowledges a request
// ('P', its pid) as soon as it has taken it, before the parse, so the
// parse is not under the acknowledgement's limit.
struct Timeouts {
  // The request into the socket: a few kB, taken by the kernel's buffer at
  // once unless the server reads nothing at all.
  std::chrono::milliseconds send{10'000};
  // The acknowledgement. What delays it is every worker being busy: the
  // request waits in the socket's queue while other files are parsed (a
  // build with more jobs than CPUs), or behind connections that never send
  // a request, which a worker drops after serve.h's request limit (5 s).
  // A minute lets a queue of several long parses on a loaded 2-core
  // machine drain; past it the tool started here costs one start-up.
  std::chrono::milliseconds ack{60'000};
  // The exit status, after the acknowledgement: the parse itself. The
  // largest translation units take well under a minute even on a loaded
  // machine; ten minutes never cut a real parse short and still end the
  // wait for a worker that stopped (SIGSTOP, a debugger, a hang). The
  // worker is then killed (it must not write OUT later, beside the tool
  // started here) and the server replaces it.
  std::chrono::milliseconds work{600'000};
};

// A connection to the server at `socket`, or -1 (errno set) when none
// listens there. Does not wait: a server whose queue of connections is full
// is busy (EAGAIN), like one that is not there.
int connectToServer(const std::string &socket);

// Runs hcc-instrument's `args` (after the program's name) on the server
// connected to `conn` (closed here), with stdout and stderr going to
// `out_fd` and `err_fd`; `descriptors` are the texts of the descriptors the
// arguments name (--filter-fd=N). `on_pid` receives the pid doing the work
// while it runs (0 afterwards), so a signal the driver receives can be
// passed on. The streams are sent only once a worker has acknowledged the
// request (protocol.h): when this returns without `finished`, no worker
// holds them (one that had them and fell silent is killed).
Served runOnServer(int conn, const std::vector<std::string> &args, const std::vector<DescriptorText> &descriptors,
                   int out_fd, int err_fd, void (*on_pid)(pid_t), const Timeouts &timeouts = {});

// Starts `tool --serve=socket` detached (its own session, no inherited
// streams); does not wait. False when it could not be started.
// At most one start is under way per socket (startMark).
bool startServer(const std::string &tool, const std::string &socket, int idle_seconds);

// The file that marks a start under way; the server removes it.
std::string startMark(const std::string &socket_path);

}  // namespace hcc::server

#endif
