// hcc driver — dependency files (-MD/-MMD) that name the user's source.
//
// The compiler saw the instrumented temporary copy and the force-included
// prelude, so its .d file names both. make and ninja must see the user's
// source instead, and must not depend on hcc's own headers (they are ours, and
// a later reinstall elsewhere would leave a dangling prerequisite).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"

namespace hcc::driver {

struct PathRewrite {
  std::string from;  // temp copy, as the compiler was given it
  std::string to;    // the source as the user typed it
  // `from` is a directory prefix ("<shadow root>/"): any path under it
  // becomes `to` + the rest (the headers' copies become the real headers).
  // Exact rewrites are tried first.
  bool prefix = false;
  // `from` is a file of hcc's own the compiler read (the pipe an early-started
  // compile reads the instrumented text through): removed like the prelude.
  bool drop = false;
};

// Rewrites make-syntax dependency text: every word (target or prerequisite)
// equal to a `from` path becomes the matching `to` path; every prerequisite
// under `drop_prefix` is removed, and so is a -MP phony rule for it. Layout
// (line breaks, continuations) is kept. Words are compared unescaped, so
// paths with blanks, '#' or '$' work.
std::string rewrite_depfile(std::string_view text, const std::vector<PathRewrite> &rewrites,
                            std::string_view drop_prefix);

// A path written the way GCC and Clang write it in a .d file.
std::string make_escape(std::string_view path);

// Where the compiler may have written .d files for this command, following
// GCC 12 and Clang 14: -MF / -Wp,-MD values; else the -o value with its
// suffix replaced by .d; else <source basename>.d in the cwd (GCC names it
// a-<basename>.d when it also links to a.out). Only files that mention a temp
// path are ever touched, so an extra candidate is harmless.
std::vector<std::string> depfile_candidates(const CommandLine &cl,
                                            const std::vector<std::string> &sources);

// Reads `path`, rewrites it and replaces it atomically when anything changed.
// Returns false with `error` set when it could not be written back.
bool fix_depfile(const std::string &path, const std::vector<PathRewrite> &rewrites,
                 std::string_view drop_prefix, std::string &error);

}  // namespace hcc::driver
