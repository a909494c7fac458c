// hcc runtime — writing a .cubex file through libhcc_cubex.so.
//
// The CUBE4 writer needs libxml2 and libarchive (and, through them, ICU,
// nettle and five compressors). libhcc does not link them: every program
// would load them at start-up and run their exit handlers. The writer lives
// in libhcc_cubex.so (runtime/cube_writer/), opened with dlopen the first
// time a profile is written, by the absolute path of libhcc's own directory
// (dladdr) — never from the environment, a search path or the working
// directory.
#pragma once

#include <string>

#include "cube/profile.hpp"

namespace hcc::rt::cubex_writer {

// As profile::write_cubex_at / write_cubex_fd (cube/cubex.hpp): throw
// std::runtime_error with the reason, including why the module could not be
// loaded (its path named).
void write_at(const profile::Profile &p, int dirfd, const std::string &dir, const std::string &name);
void write_fd(const profile::Profile &p, int fd, const std::string &shown);

// The module's path as libhcc derives it ("" and `why` when it cannot).
std::string module_path(std::string *why);

// From now on a .cubex is not fsynced before it gets its name (the module's
// write_fd without its flush). The fatal-signal handler asks for it:
// a launcher's SIGKILL follows its SIGTERM soon (mpirun: after 1 s at most)
// and an fsync on a busy file system took longer, losing the profile
// surely, where without it only a machine crash within seconds can (the page
// cache outlives the process).
void skip_fsync();

}  // namespace hcc::rt::cubex_writer
