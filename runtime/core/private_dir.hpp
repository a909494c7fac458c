// hcc — the one rule for a directory (and the files in it) where hcc keeps
// state that decides what it runs: the instrumentation server's sockets,
// the instrumentation cache and its precompiled preambles (issue 28).
//
// Trusted only when owned by the effective user and writable by no one
// else. Nothing here relies on kernel protections (protected_symlinks,
// sticky bits): a directory is judged by fstat on the handle that is then
// used for every *at call, so what was checked is what is used, wherever
// its path leads and whoever can rename things on the way to it. Shared by
// the runtime's safe_path library, the driver and the instrumentor.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <string>

namespace hcc::rt {

// What may not be set in the mode of a trusted directory or file: write by
// group or others. (The server's socket directory forbids 077: nobody else
// may even look.)
constexpr mode_t kOthersMayWrite = S_IWGRP | S_IWOTH;

// Why `st` is not trusted: "" when it is owned by the effective user and has
// no bit of `forbidden`; else "owned by uid N" or "writable by group or
// others" ("readable or writable by group or others" when `forbidden` has
// read bits).
std::string untrusted_because(const struct stat &st, mode_t forbidden = kOthersMayWrite);

// Opens the directory `path`, creating what is missing with mode 0700
// (open_dir_creating: one component at a time, no link followed that
// someone else planted), and applies the rule to it. Returns an O_PATH
// handle, or -1 with `error` saying why ("owned by uid 1001", "cannot create
// ..."); `refused`, when given, tells the two apart: true when the
// directory was there and failed the rule.
int open_private_dir(const std::string &path, std::string &error, mode_t forbidden = kOthersMayWrite,
                     bool *refused = nullptr);

// The subdirectory `name` (one component) of the opened private directory
// `parent`: made with mkdirat 0700 when missing, opened without following a
// link, and the same rule applied (a subdirectory another user made earlier,
// while the parent was open to them, is refused). O_PATH handle or -1.
int open_private_subdir_at(int parent, const std::string &name, std::string &error,
                           mode_t forbidden = kOthersMayWrite);

// Reads all of the regular file `name` in `dir` into `out` when it passes
// the rule (a file another user made, a link, a FIFO is refused), at most
// `max_bytes` and never more than its size as fstat says. Opened
// O_NOFOLLOW|O_NONBLOCK. False with `error` otherwise. `fd_out`, when given,
// receives the descriptor still open (the caller closes it), e.g. to touch it.
bool read_private_file_at(int dir, const std::string &name, std::string &out, std::string &error,
                          size_t max_bytes, int *fd_out = nullptr);

// Whether `name` in `dir` is a regular file that passes the rule (fstatat,
// no link followed).
bool private_file_exists_at(int dir, const std::string &name);

// Replaces (or creates) `name` in `dir` with `text`: a temporary made
// O_EXCL|O_NOFOLLOW beside it (create_file_at, `mode` less the umask),
// written, then renamed over `name` with renameat — a reader sees the old
// file or the whole new one, and no planted name is ever opened (a planted
// `<name>.tmp<pid>` is skipped, not followed). False with `error`.
bool replace_file_at(int dir, const std::string &name, const std::string &text, std::string &error,
                     mode_t mode = 0600);

}  // namespace hcc::rt
