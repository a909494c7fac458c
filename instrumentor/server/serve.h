// The instrumentation server: `hcc-instrument --serve=SOCKET` keeps the tool
// started, in a few worker processes that take the driver's requests one at
// a time. A request runs the tool's command line exactly as a started tool
// would, in the client's working directory, umask and environment, writing
// to the client's stdout and stderr, and reports its exit status
// (protocol.h). What it saves is the start of an 80 MB program (exec,
// dynamic loading, LLVM's static constructors) and, once a worker has run,
// the page faults and cold caches of Clang's code: most of a small file's
// instrumentation.
//
// Workers are forked from the server, as many as there are CPUs (at most
// 32), each accepting on the shared socket. A worker is replaced when it
// ends: after a recovered crash (Clang's state must not be reused), when it
// has grown past 512 MiB (each run leaks its AST, which is faster than
// freeing it), or when it died (a signal the driver passed on). The server
// ends after `idle_seconds` without a request, or once another server has
// taken its socket. Jobs a request left for after its reply (afterReply)
// run in their own processes and finish even when the server ends.
#ifndef HCC_SERVER_SERVE_H
#define HCC_SERVER_SERVE_H

#include "protocol.h"

#include <functional>
#include <string>
#include <vector>

namespace hcc::server {

// The tool's work for one command line (the words after the program's
// name), to its exit status; `descriptors` stand for the client's
// descriptors the arguments name (protocol.h).
using RunTool =
    std::function<int(const std::vector<std::string> &args, const std::vector<DescriptorText> &descriptors)>;

// Binds `socket_path` and serves until idle; returns the process's exit
// status (non-zero when the socket could not be set up).
int serve(const std::string &socket_path, int idle_seconds, const RunTool &run);

// Whether this process is a server's worker (runs many requests).
bool inWorker();

// Called during a request: this worker's process must not take another one
// (it ends once the status is sent). Outside a server it does nothing.
void retireAfterRequest();

// Called during a request: `job` runs once the client has its status, in a
// child of this worker (in the request's directory and environment, its
// output discarded), so the worker takes the next request at once. False
// (and `job` dropped) outside a worker, or while this worker's previous job
// still runs: one at a time, so a build's compiles keep the CPUs.
bool afterReply(std::function<void()> job);

}  // namespace hcc::server

#endif
