// hcc runtime — directories and files created without following a symbolic
// link someone else planted at their path (issue 18). Every function works
// relative to a directory handle, so nothing is resolved twice by name.
#pragma once

#include <sys/types.h>

#include <string>

namespace hcc::rt {

// Opens the directory `path` (absolute, or relative to the working
// directory), creating missing components (`mode`, less the umask), one
// component at a time relative to its parent's handle. A symbolic link on the
// way is followed only when it belongs to the user, to root, or to the owner
// of the directory holding it — the rule Linux applies in /tmp with
// fs.protected_symlinks=1, here applied everywhere and whatever the sysctl
// says: a link planted by anyone else is refused. Returns the handle
// (O_PATH|O_CLOEXEC: good for the *at calls, not for reading), or -1 with the reason in `error` (naming the component).
// Missing components are made with `mode` (less the umask); with `create`
// false, a missing component is an error instead ($TMPDIR).
int open_dir_creating(const std::string &path, std::string &error, mode_t mode = 0777, bool create = true);

// Creates a directory that did not exist before inside `parent`: base,
// base-1, base-2 ... (mkdirat never follows a link, and fails on any existing
// name, so a planted link is skipped, never used). Returns its handle and its
// name in `name`, or -1 with the reason in `error`.
int make_new_dir_at(int parent, const std::string &base, std::string &name, std::string &error);

// Creates a private directory that did not exist before inside `parent`
// (mkdirat, mode 0700): base-XXXXXX with a random suffix, so nobody can
// reserve its names in advance. Whatever another user can do in `parent`,
// nothing can be planted inside it (one swapped away the moment it was made
// is left, and another name tried). Returns its handle (O_PATH) and its name
// in `name`, or -1 with the reason in `error`.
int make_private_dir_at(int parent, const std::string &base, std::string &name, std::string &error);

// Opens `name` in `parent` (never through a link) and checks it is a
// private directory of ours (owned by us, no access for group or others),
// e.g. one another process of the same job made with make_private_dir_at.
// Returns its handle (O_PATH), or -1 with the reason in `error`.
int open_private_dir_at(int parent, const std::string &name, std::string &error);

// Creates a new file in `dir` exclusively (O_EXCL|O_NOFOLLOW, `mode` less
// the umask): base, base.1, base.2 ... Returns the descriptor and its name in
// `name`, or -1 with the reason in `error`.
int create_file_at(int dir, const std::string &base, std::string &name, std::string &error,
                   mode_t mode = 0666);

// Writes all of `text` to `fd`; false with errno set on failure.
bool write_all(int fd, const std::string &text);

// Closes a descriptor when it leaves scope.
struct FdGuard {
  int fd = -1;
  explicit FdGuard(int f = -1) : fd(f) {}
  ~FdGuard();
  FdGuard(const FdGuard &) = delete;
  FdGuard &operator=(const FdGuard &) = delete;
};

}  // namespace hcc::rt
