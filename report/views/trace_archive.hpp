// hcc-report --trace-json: the files of an OTF2 archive, checked before
// the OTF2 library opens any of them by name.
//
// OTF2 opens the anchor, the global definitions and every location's
// definitions and events with fopen: a FIFO at any of those names makes it
// wait for a writer for ever, a link to /dev/zero feeds it endless bytes.
// So every file of the archive must be a regular file and traces/ a
// directory, seen without following links (lstat: hcc's tracer never
// writes a link there). The anchor the user names may be a link; what it
// leads to must be a regular file.
#pragma once

#include <cstdint>
#include <string>

namespace hcc::report {

// What bounds the records OTF2 may hand over: the files' sizes.
struct TraceArchiveFiles {
  uint64_t event_bytes = 0;       // <name>/*.evt, summed
  uint64_t global_def_bytes = 0;  // <name>.def
  uint64_t local_def_bytes = 0;   // <name>/*.def, summed
};

// Checks the archive whose anchor is `anchor` (<dir>/<name>.otf2): the
// anchor, <name>.def and every other <name>.* beside it, <name>/ and every
// entry in it. Throws std::runtime_error "<file>: is a FIFO, not a regular
// file" (or "…, not a directory" for <name>/, "is a symbolic link, …")
// naming the first that fails; a missing <name>.def or <name>/ is left to
// OTF2 to report.
TraceArchiveFiles check_trace_archive(const std::string &anchor);

}  // namespace hcc::report
