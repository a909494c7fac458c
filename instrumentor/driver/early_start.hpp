// hcc driver — the compiler starts on a file's leading system headers while
// the instrumentor parses it.
//
// A file that the instrumentor has to parse (its result cache had no
// answer) costs that parse and then the whole compile, one after the other.
// But the lines a C or C++ file usually begins with — #include <vector> … —
// are never rewritten, so the compiler can read them before the rewrite
// exists: it gets a main file made of those lines followed by an #include of
// a named pipe, and blocks on the pipe until hcc writes the instrumented
// rest into it. On a machine with a free core the compiler's work on the
// system headers (all of it for C and for Clang, which parse as they read;
// only the preprocessing for g++, which reads the whole file before it
// parses) overlaps the instrumentor's parse. The CPU time is the same.
//
// What the compiler sees is the instrumented file, line for line: the
// leading lines as they are, then the rest after a line marker that puts it
// back on its own lines in the user's file. With GCC that marker says
// "returning to the main file" (flag 2), so diagnostics carry no "In file
// included from" line; Clang refuses that, so it gets #line and the one
// "In file included from <file>:<line>:" line the pipe adds is removed from
// its diagnostics. The rest ends by defining a macro the main file checks
// after the #include: a compiler that got a cut-off text (hcc died while
// writing) fails instead of compiling half a file.
//
// Anything unusual keeps the plain order (early_start_obstacle): a compile
// that is not exactly one source to one object, options that change how the
// main file is read, a source that uses #pragma once, #include_next,
// #pragma GCC system_header or __INCLUDE_LEVEL__ (the rest is an included
// file), a leading <header> found in one of the command's own -I
// directories (it may be instrumented). When the rewritten text turns out
// not to begin with those lines, or the command needs options only the
// rewrite could tell (the OpenMP prelude), the early compile is stopped
// (fed an empty rest, which fails the main file's check) and the plain
// order runs. When the text is ready, a regular file with it takes the
// pipe's name before hcc writes into the pipe: a compiler that opens the
// name later (GCC opens a file again to show a diagnostic's source line)
// reads that file and never waits on a pipe nobody writes to.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"
#include "process.hpp"

namespace hcc::driver {

enum class CompilerFamily { Gcc, Clang, Other };

// By the name of the program (symbolic links resolved): gcc/g++/cc/c++ …
// that resolve to GCC, clang/clang++; Other for wrappers (mpicxx, ccache …).
CompilerFamily compiler_family(const std::string &program);

// The length of the leading part of `text` the compiler may read before the
// rewrite: whole lines that are blank, comments, or `#include <header>` with
// the header in none of `user_dirs`. 0 when that part has no #include.
size_t leading_system_includes(std::string_view text, const std::vector<std::string> &user_dirs);

// The directories an angle-bracket #include searches before the system's
// that belong to the command (-I, --include-directory, -idirafter, CPATH).
std::vector<std::string> user_include_dirs(const std::vector<std::string> &args,
                                           const CommandLine &cl);

// Why this compile of `source_text` does not start early ("" when it may).
// With `headers_instrumented` a quoted #include is one: the command names the
// shadow tree's directories only once the copies of the project's headers
// exist, so such a file is compiled after them.
std::string early_start_obstacle(const std::vector<std::string> &args, const CommandLine &cl,
                                 const std::string &source_path, std::string_view source_text,
                                 CompilerFamily family, bool headers_instrumented = false);

// Whether the rewrite of `source_text` will call the POMP2 interface, as far
// as the text tells: an OpenMP compile with an `omp` pragma. A wrong guess
// only costs the early start.
bool may_call_pomp(const std::vector<std::string> &args, std::string_view source_text);

class EarlyCompile {
 public:
  EarlyCompile() = default;
  EarlyCompile(const EarlyCompile &) = delete;
  EarlyCompile &operator=(const EarlyCompile &) = delete;
  ~EarlyCompile();

  // Writes, in `dir`, the main file (<dir>/<base name of source_path>: the
  // first `head_bytes` of `source_text`, then the #include of the pipe) and
  // the pipe. False with `error` when the file system refused.
  bool prepare(const std::string &dir, const std::string &source_path,
               std::string_view source_text, size_t head_bytes, CompilerFamily family,
               std::string &error);
  const std::string &main_file() const { return main_file_; }
  const std::string &pipe() const { return pipe_; }

  // Starts `cmd` (which compiles main_file()); its stderr is captured.
  void start(const std::vector<std::string> &cmd);

  // Gives the compiler the rest of the instrumented file `instrumented`
  // (the instrumentor's output). False, having fed nothing, when that text
  // does not begin with the lines the compiler already read.
  bool feed(std::string_view instrumented);
  // Makes the compiler fail at once (it reads an empty rest) and waits for it.
  void abandon();
  // Waits for the compiler; its diagnostics as the plain order shows them.
  ProcessResult finish();

 private:
  // Gives the compiler `text` as the pipe's content and closes hcc's end.
  void deliver(std::string_view text);

  std::string source_path_, main_file_, pipe_, head_;
  unsigned head_lines_ = 0;
  CompilerFamily family_ = CompilerFamily::Other;
  int fd_ = -1;  // read-write end of the pipe: the compiler's open never waits for a writer
  Started child_;
};

}  // namespace hcc::driver
