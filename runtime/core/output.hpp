// hcc runtime — where the profile goes, and writing it there.
#pragma once

#include <functional>
#include <string>

#include "cube/profile.hpp"

namespace hcc::rt {

// Chooses and creates the output directory once per process (HCC_OUTPUT_DIR,
// else a new ./hcc-<program>-<YYYYMMDD>_<HHMMSS>[-N]); returns it, or "" with
// the reason in `error` when it cannot be created. Called at fork (so parent
// and child share it) and at finalize.
std::string prepare_output_dir(std::string *error = nullptr);

// A handle on the output directory (O_PATH; the caller closes it), with its
// name in `dir`: the directory prepare_output_dir opened, kept open for the
// whole run, so every file of the run lands in the directory chosen, whatever
// is renamed or linked at its name since (issue 28). Opened anew by name only
// when that directory was removed meanwhile. -1 with the reason in `error`.
int output_dir_handle(std::string &dir, std::string *error = nullptr);

// Writes profile.cubex and summary.txt (profile.fork-<pid>.cubex and
// summary.fork-<pid>.txt in a fork child), both atomically. When the chosen
// directory fails, says why and writes under $TMPDIR (or /tmp) instead.
// Prints "hcc: profile written to <path>" unless HCC_VERBOSE=0. Returns the
// path of the .cubex written, or "" when nothing could be written.
std::string write_profile(const profile::Profile &p);

// The same, with the .cubex written by `body` into a new empty file (`fd`,
// shown as `shown`); it fills `text` (summary.txt's profile) and returns
// false when it failed (having said why). Called once: with fd -1 when no
// directory could be opened, so it can still drain what it waits for.
using StreamBody = std::function<bool(int fd, const std::string &shown, profile::Profile &text)>;
std::string write_profile_streamed(const StreamBody &body);

// fork(): held across the fork, like the other runtime locks.
void output_lock();
void output_unlock();

// A tag in the file names: profile.<tag>.cubex and summary.<tag>.txt (the MPI
// wrappers use "rank-<r>" for a rank that writes its own profile); "" = none.
void set_file_tag(const std::string &tag);

// The tag set by set_file_tag ("" = none): the tracer and the snapshot
// writer name their files the same way (traces.<tag>.otf2, snapshot.<tag>.cubex).
std::string current_file_tag();

// Writes from now on go to `dir` instead of HCC_OUTPUT_DIR's choice: the MPI
// wrappers send every rank's files to rank 0's directory; tests use it too.
void use_output_dir(const std::string &dir);

}  // namespace hcc::rt
