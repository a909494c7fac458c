// hcc io — the one way hcc reads a whole file: filter files (--hcc-filter,
// HCC_FILTER), response files, dependency files, the instrumentor's own
// output, /proc files. Shared by the driver, the rewriter and libhcc.
//
// A path a user or a build hands us can name anything: a FIFO (opening it
// waits for a writer, reading it waits for data), /dev/zero behind a
// symbolic link (endless bytes), a directory (std::ifstream opens it and
// reads nothing: an empty file, silently). So the file is opened without
// waiting (O_NONBLOCK), checked with fstat on that same descriptor, refused
// unless it is a regular file, and read up to a limit the caller names. The
// limit is enforced while reading too: /proc files report a size of 0 and
// a file may grow after fstat.
#pragma once

#include <cstddef>
#include <string>

namespace hcc::io {

// Limits by kind of file, in bytes.
// Filter files: a hand-written one is a few lines; `hcc-report
// --suggest-filter` writes one line per region, ~200,000 regions fit.
constexpr size_t kFilterFileLimit = size_t(16) << 20;
// Files a build produces or hands over: sources read by the driver,
// response files, dependency files, the instrumentor's output.
constexpr size_t kBuildFileLimit = size_t(256) << 20;
// Small /proc and /sys files (cmdline, cpuinfo, perf_event_paranoid).
constexpr size_t kProcFileLimit = size_t(4) << 20;

// Reads the whole of `path` into `out` when it is a regular file of at most
// `limit` bytes (symbolic links are followed; what they lead to is
// checked). On failure returns false, leaves `out` empty and, when `why` is
// given, sets it to the reason without the path, for a message
// "PATH: cannot read …: WHY": "not a regular file (a FIFO)", "larger than
// the 16 MiB limit", "No such file or directory".
bool read_regular_file(const std::string &path, size_t limit, std::string &out, std::string *why = nullptr);

// The same for a descriptor already open (and still owned by the caller),
// read from its current offset.
bool read_regular_fd(int fd, size_t limit, std::string &out, std::string *why = nullptr);

// "a FIFO", "a character device", "a symbolic link" (lstat), "a directory",
// "a regular file" …: what a st_mode is, for messages.
const char *file_kind(unsigned mode);

// "16 MiB", "300 KiB", "12 bytes": a limit as messages name it.
std::string size_text(size_t bytes);

}  // namespace hcc::io
