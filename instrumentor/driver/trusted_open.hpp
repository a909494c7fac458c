// hcc driver — opening a file that decides what is compiled (a plan, a
// --hcc-filter file) without following a link someone else planted.
//
// The path is walked one component at a time, each opened relative to the
// handle of the directory before it, never O_NOFOLLOW-less: a symbolic link
// on the way, or at the name itself, is followed only when it belongs to you,
// to root, or to the owner of the directory holding it. That is the rule the
// kernel applies in sticky directories with fs.protected_symlinks=1, and the
// one the runtime's output directories follow (runtime/core/safe_path.hpp);
// here it holds whatever the sysctl says. What the caller then judges (type,
// owner, mode, links) is the fstat of the descriptor it reads from, and the
// fstat of the directory that held the entry: nothing is looked up twice by
// name.
#pragma once

#include <sys/stat.h>

#include <string>

namespace hcc::driver {

struct OpenedFile {
  int fd = -1;              // O_RDONLY|O_NONBLOCK|O_NOCTTY|O_CLOEXEC; -1 when not opened
  struct stat st {};        // fstat(fd)
  struct stat holder {};    // fstat of the directory whose entry `fd` is
  std::string holder_name;  // that directory as reached ("/tmp", "a -> /x/y"), for messages
  int error = 0;            // errno when fd is -1 (ENOENT: nothing there)
  bool link_refused = false;  // fd -1 because of a link someone else planted
  std::string why;          // fd -1: the reason, without the path ("No such file or directory",
                            // "'/tmp/hcc.plan' is a symbolic link owned by uid 1001, ...")

  OpenedFile() = default;
  OpenedFile(OpenedFile &&other) noexcept;
  OpenedFile &operator=(OpenedFile &&other) noexcept;
  OpenedFile(const OpenedFile &) = delete;
  OpenedFile &operator=(const OpenedFile &) = delete;
  ~OpenedFile();
};

// Opens `path` (absolute, or relative to the working directory) as above.
// At most 40 links are followed.
OpenedFile open_through_trusted_links(const std::string &path);

// Whether the directory `holder` lets someone other than its owner add or
// replace entries (writable by group or others): then an entry in it that
// is a hard link (st_nlink > 1) may be a name someone else gave to a file
// of yours.
bool others_may_add_entries(const struct stat &holder);

}  // namespace hcc::driver
