// hcc tracer — the names of an OTF2 archive in the output directory, made
// without following a symbolic link someone planted there (issue 18).
//
// OTF2 creates its files itself, given a directory path and a name:
// <dir>/<name>.otf2 (anchor), <dir>/<name>.def (global definitions) and the
// directory <dir>/<name>/ (event and local definition files). So:
//  - the output directory is opened once by us (runtime/core/safe_path.hpp),
//    and OTF2 is handed /proc/self/fd/<N> of that handle, so it writes into
//    the directory we opened rather than resolving its name again;
//  - a symbolic link at <name>, <name>.otf2 or <name>.def refuses the trace
//    with an error naming it (nothing is written through it, nothing removed);
//  - <name>.otf2 and <name>.def are created by us, exclusively and
//    O_NOFOLLOW, before OTF2 opens them; OTF2 creates <name>/ with mkdir,
//    which fails on any existing name (a link included), never follows one.
#pragma once

#include <string>

namespace hcc::rt::trace {

// The output directory, opened for the archive.
struct ArchiveDir {
  int fd = -1;           // O_PATH handle (runtime/core/safe_path.hpp)
  std::string shown;     // its name, for messages and summary.txt
  std::string for_otf2;  // what OTF2_Archive_Open is given: /proc/self/fd/N, or `shown` without /proc
  ArchiveDir() = default;
  ArchiveDir(const ArchiveDir &) = delete;
  ArchiveDir &operator=(const ArchiveDir &) = delete;
  ~ArchiveDir();
};

// Opens `dir` (already chosen by prepare_output_dir) into `out`; false with
// the reason in `error`.
bool open_archive_dir(const std::string &dir, ArchiveDir &out, std::string &error);

// The first free name of `base`, base-1, … (with `overwrite`, `base` itself,
// its earlier archive removed: only the files OTF2 writes), its anchor and
// global definition file created empty and exclusively. Returns "" with the
// reason in `error` when a symbolic link is at one of the archive's names or
// nothing could be created.
std::string claim_archive_name(const ArchiveDir &dir, const std::string &base, bool overwrite, std::string &error);

}  // namespace hcc::rt::trace
