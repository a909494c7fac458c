// hcc driver — which compiler runs underneath.
//
// In order: --hcc-compiler=CMD, HCC_COMPILER, "prefix mode" (the first
// argument names a compiler: `hcc gcc -c x.c`, `hcc mpicxx …`, which is how
// CMAKE_<LANG>_COMPILER_LAUNCHER calls us), then the name hcc was invoked by
// (hcc-<compiler> → <compiler>: hcc-cc → cc, hcc-g++ → g++ …), else by language: c++ when a C++
// input is present, cc for C inputs, c++ for link-only commands (C++ objects
// then get libstdc++).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "args.hpp"

namespace hcc::driver {

struct CompilerChoice {
  std::vector<std::string> command;  // the command as named; command[0] unresolved
  std::string program;               // command[0] looked up ("" = not found)
  std::string how;                   // for --hcc-show-config / --hcc-verbose
  std::size_t taken_args = 0;        // leading user arguments that named it
  std::string warning;               // something the user should know
};

// When `arg` can name the compiler in prefix mode: not an option, no
// source/object/library extension, and an executable (as a path or in PATH)
// other than hcc itself. Returns the program found.
std::optional<std::string> compiler_argument(const std::string &arg, const std::string &self);

// Explicit choices and prefix mode; leaves `command` empty when the language
// must decide (see choose_by_language).
CompilerChoice choose_explicit(const std::optional<std::string> &option, const char *env,
                               const std::vector<std::string> &args, const std::string &self);

// Fills an empty choice from the inputs of the (prefix-stripped) command.
void choose_by_language(CompilerChoice &choice, const CommandLine &cl, const std::string &self);

// Named wrappers: invoked as `hcc-<compiler>` (a symlink to hcc: hcc-cc,
// hcc-c++, hcc-gcc, hcc-g++, hcc-clang, hcc-mpicxx …) the driver runs
// <compiler>, whatever the inputs (link-only commands included). Fills an
// empty choice and returns true when `argv0` is such a name; used where one
// word must name one compiler (CMAKE_C_COMPILER, CC=/CXX= of make and
// configure, makefiles that look at $(CC)'s name or run `which $(CXX)`).
bool choose_by_program_name(CompilerChoice &choice, const char *argv0, const std::string &self);

}  // namespace hcc::driver
