#include "early_start.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.hpp"
#include "options.hpp"
#include "paths.hpp"
#include "config/config.hpp"

namespace hcc::driver {
namespace {

// Defined by the last line of the fed text, checked after its #include.
constexpr const char *kCompleteMacro = "hcc_instrumented_text_complete_";

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

// Skips blanks and comments from `i` in `line`; `in_comment` carries a
// /* comment from line to line.
void skip_blanks_and_comments(std::string_view line, size_t &i, bool &in_comment) {
  for (;;) {
    if (in_comment) {
      size_t end = line.find("*/", i);
      if (end == std::string_view::npos) {
        i = line.size();
        return;
      }
      i = end + 2;
      in_comment = false;
    }
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' ||
                               line[i] == '\f' || line[i] == '\v'))
      ++i;
    if (line.compare(i, 2, "/*") == 0) {
      in_comment = true;
      i += 2;
      continue;
    }
    if (line.compare(i, 2, "//") == 0) i = line.size();
    return;
  }
}

// One line of the leading part: true when it is blank, a comment or an
// #include of a system header (`include` says which).
bool leading_line(std::string_view line, bool &in_comment,
                  const std::vector<std::string> &user_dirs, bool &include) {
  include = false;
  size_t i = 0;
  skip_blanks_and_comments(line, i, in_comment);
  if (i == line.size()) return true;
  if (line[i] != '#') return false;
  ++i;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (line.compare(i, 7, "include") != 0) return false;
  i += 7;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (i == line.size() || line[i] != '<') return false;  // also #include_next, #include MACRO
  size_t close = line.find('>', i + 1);
  if (close == std::string_view::npos || close == i + 1) return false;
  const std::string header(line.substr(i + 1, close - i - 1));
  // Found in one of the command's own directories, it is the project's
  // header and may be rewritten.
  for (const std::string &d : user_dirs)
    if (file_exists(d + "/" + header)) return false;
  i = close + 1;
  skip_blanks_and_comments(line, i, in_comment);
  if (i != line.size()) return false;
  include = true;
  return true;
}

// Whether some line of `text` has `first` somewhere before `then`.
bool on_some_line(std::string_view text, std::string_view first, std::string_view then) {
  for (size_t at = text.find(then); at != std::string_view::npos; at = text.find(then, at + then.size())) {
    size_t line_start = text.rfind('\n', at);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    if (text.substr(line_start, at - line_start).find(first) != std::string_view::npos) return true;
  }
  return false;
}

// Whether `text` has `#pragma once` (or _Pragma("once")) on some line: the
// rest would be an included file marked once-only, which GCC compares
// byte for byte with later headers by reading it again — from a pipe that
// is empty by then.
bool uses_pragma_once(std::string_view text) { return on_some_line(text, "ragma", "once"); }

bool add_dir_arg(const std::string &opt, const std::string &a, const std::vector<std::string> &args,
                 const CommandLine &cl, size_t &i, std::vector<std::string> &out) {
  if (a == opt) {
    if (i + 1 < args.size() && i + 1 < cl.roles.size() && cl.roles[i + 1] == Role::Value)
      out.push_back(args[++i]);
    return true;
  }
  if (a.size() > opt.size() && starts_with(a, opt) && (opt.back() == '=' || opt.compare(0, 2, "--") != 0)) {
    out.push_back(a.substr(opt.size()));
    return true;
  }
  return false;
}

// Writes `text` as the whole of the file `path`, opened with `flags`
// (O_EXCL for a new file, O_TRUNC to replace one).
bool write_whole_file(const std::string &path, std::string_view text, int flags) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0600);
  bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  if (fd >= 0) ok = ::close(fd) == 0 && ok;
  return ok;
}

}  // namespace

CompilerFamily compiler_family(const std::string &program) {
  std::string real = real_path(program);
  std::string name = base_name(real.empty() ? program : real);
  if (name.find("clang") != std::string::npos) return CompilerFamily::Clang;
  if (name.find("gcc") != std::string::npos || name.find("g++") != std::string::npos)
    return CompilerFamily::Gcc;
  return CompilerFamily::Other;
}

std::vector<std::string> user_include_dirs(const std::vector<std::string> &args,
                                           const CommandLine &cl) {
  std::vector<std::string> dirs;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i < cl.roles.size() && cl.roles[i] != Role::Option) continue;
    const std::string &a = args[i];
    if (a == "-I-") continue;
    add_dir_arg("-I", a, args, cl, i, dirs) || add_dir_arg("--include-directory=", a, args, cl, i, dirs) ||
        add_dir_arg("--include-directory", a, args, cl, i, dirs) ||
        add_dir_arg("-idirafter", a, args, cl, i, dirs);
  }
  if (const char *cpath = std::getenv("CPATH"); cpath && *cpath)
    for (std::string &d : split_search_path(cpath)) dirs.push_back(std::move(d));
  return dirs;
}

size_t leading_system_includes(std::string_view text, const std::vector<std::string> &user_dirs) {
  size_t pos = 0, head = 0;
  bool in_comment = false, any_include = false;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) break;  // the head ends at a line start
    std::string_view line = text.substr(pos, eol - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\\') break;  // a continued line
    bool include = false;
    if (!leading_line(line, in_comment, user_dirs, include)) break;
    pos = eol + 1;
    any_include = any_include || include;
    if (!in_comment) head = pos;
  }
  return any_include ? head : 0;
}

std::string early_start_obstacle(const std::vector<std::string> &args, const CommandLine &cl,
                                 const std::string &source_path, std::string_view source_text,
                                 CompilerFamily family, bool headers_instrumented) {
  if (switched_off("HCC_EARLY_START")) return "HCC_EARLY_START is off";
  if (family == CompilerFamily::Other) return "the compiler is not known to be GCC or Clang";
  if (!cl.compile_only || cl.assemble_only || cl.preprocess_only || cl.syntax_only || cl.deps_only)
    return "not a compile to an object file";
  if (cl.inputs.size() != 1) return "more than one input";
  if (cl.dep_file_stdout) return "dependencies go to standard output";
  for (const std::string &a : args) {
    const bool reads_differently =
        starts_with(a, "-save-temps") || starts_with(a, "-include") || a == "--include" ||
        starts_with(a, "--include=") || starts_with(a, "-imacros") || starts_with(a, "-traditional") ||
        starts_with(a, "-Wp,") || a == "-Xpreprocessor" || a == "-I-" || starts_with(a, "-fpreprocessed") ||
        starts_with(a, "-fdirectives-only") || starts_with(a, "-fdiagnostics-format") ||
        starts_with(a, "-fdiagnostics-color") || starts_with(a, "-fcolor-diagnostics") ||
        starts_with(a, "-fansi-escape-codes");
    // GCC calls the line marker an extension under -pedantic.
    const bool pedantic = family == CompilerFamily::Gcc && (starts_with(a, "-pedantic") || a == "-Wpedantic" ||
                                                            starts_with(a, "--pedantic"));
    if (reads_differently || pedantic) return "option " + a;
  }
  for (char c : source_path)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return "the file's name needs escaping";
  if (source_path.find("??") != std::string::npos) return "the file's name needs escaping";
  for (const char *word : {"include_next", "system_header", "__INCLUDE_LEVEL__"})
    if (source_text.find(word) != std::string_view::npos) return std::string("the file uses ") + word;
  if (uses_pragma_once(source_text)) return "the file uses #pragma once";
  if (headers_instrumented && source_text.find("#include \"") != std::string_view::npos)
    return "it includes the project's own headers (their instrumented copies come with the rewrite)";
  return "";
}

bool may_call_pomp(const std::vector<std::string> &args, std::string_view source_text) {
  const bool openmp = std::any_of(args.begin(), args.end(), [](const std::string &a) {
    return a == "-fopenmp" || starts_with(a, "-fopenmp=");
  });
  return openmp && (on_some_line(source_text, "pragma", "omp") || on_some_line(source_text, "omp", "pragma"));
}

EarlyCompile::~EarlyCompile() {
  if (child_.result.started && child_.pid > 0) abandon();
  if (fd_ >= 0) ::close(fd_);
}

bool EarlyCompile::prepare(const std::string &dir, const std::string &source_path,
                           std::string_view source_text, size_t head_bytes, CompilerFamily family,
                           std::string &error) {
  source_path_ = source_path;
  family_ = family;
  head_ = std::string(source_text.substr(0, head_bytes));
  head_lines_ = 0;
  for (char c : head_) head_lines_ += c == '\n';
  main_file_ = dir + "/" + base_name(source_path);
  pipe_ = dir + "/instrumented-text";
  for (char c : pipe_)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) {
      error = "the temporary directory's name '" + dir + "' needs escaping";
      return false;
    }
  if (::mkfifo(pipe_.c_str(), 0600) != 0) {
    error = "cannot create the pipe '" + pipe_ + "': " + std::strerror(errno);
    return false;
  }
  // Read-write: opening never blocks, and the compiler's open does not wait
  // for a writer either; the pipe stays usable until hcc closes it.
  fd_ = ::open(pipe_.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) {
    error = "cannot open the pipe '" + pipe_ + "': " + std::strerror(errno);
    return false;
  }
  std::string text = "#line 1 \"" + source_path + "\"\n" + head_ + "#include \"" + pipe_ + "\"\n" +
                     "#ifndef " + kCompleteMacro + "\n#error \"hcc: the instrumented text of " +
                     source_path + " was cut off\"\n#endif\n";
  const bool ok = write_whole_file(main_file_, text, O_EXCL);
  if (!ok) error = "cannot write '" + main_file_ + "': " + std::strerror(errno);
  return ok;
}

void EarlyCompile::start(const std::vector<std::string> &cmd) {
  RunOptions ro;
  ro.err = Stream::Capture;
  child_ = start_process(cmd, ro);
}

void EarlyCompile::deliver(std::string_view text) {
  if (fd_ < 0) return;
  // Signals to hcc go to the compiler again (the instrumentation had them).
  if (child_.pid > 0) forward_signals_to(child_.pid);
  // First a regular file with the same text takes the pipe's name: a
  // compiler that opens the name from now on (the first time, or again, as
  // GCC does to show a diagnostic's source line) reads the file and never
  // waits on a pipe that nobody will write to.
  const std::string copy = pipe_ + ".text";
  if (write_whole_file(copy, text, O_TRUNC)) ::rename(copy.c_str(), pipe_.c_str());
  // Then the pipe, for a compiler that opened it already. Closing the last
  // end discards what is unread, so hcc closes only once the pipe is empty
  // or the compiler has ended; meanwhile its output is collected, so a
  // compiler that writes much never waits for hcc either.
  size_t done = 0;
  while (child_.result.started && !has_exited(child_)) {
    if (done < text.size()) {
      ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
      if (n > 0) done += static_cast<size_t>(n);
    }
    int unread = 0;
    if (done == text.size() && (::ioctl(fd_, FIONREAD, &unread) != 0 || unread == 0)) break;
    collect_output(child_, 2);
  }
  ::close(fd_);
  fd_ = -1;
}

bool EarlyCompile::feed(std::string_view instrumented) {
  const std::string expected = "#line 1 \"" + source_path_ + "\"\n" + head_;
  if (!starts_with(instrumented, expected)) return false;
  std::string_view rest = instrumented.substr(expected.size());
  std::string_view trimmed = rest;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == '\r')) trimmed.remove_suffix(1);
  if (!trimmed.empty() && trimmed.back() == '\\') return false;  // would continue into our last line
  const std::string line = std::to_string(head_lines_ + 1);
  // GCC: back on the main file's own lines, as if never included.
  std::string text = family_ == CompilerFamily::Gcc ? "# " + line + " \"" + source_path_ + "\" 2\n"
                                                    : "#line " + line + " \"" + source_path_ + "\"\n";
  text.append(rest);
  text += std::string("\n#define ") + kCompleteMacro + " 1\n";
  deliver(text);
  return true;
}

void EarlyCompile::abandon() {
  // An empty rest: the main file's check after the #include fails the compile.
  deliver("\n");
  if (child_.result.started) finish_process(child_);
}

ProcessResult EarlyCompile::finish() {
  deliver("\n");  // only if nothing was fed
  ProcessResult r = finish_process(child_);
  if (family_ == CompilerFamily::Clang) {
    // The one line the pipe's #include adds to Clang's diagnostics.
    const std::string added = "In file included from " + source_path_ + ":" +
                              std::to_string(head_lines_ + 1) + ":\n";
    for (size_t at = r.err.find(added); at != std::string::npos; at = r.err.find(added, at))
      if (at == 0 || r.err[at - 1] == '\n') r.err.erase(at, added.size());
      else at += added.size();
  }
  return r;
}

}  // namespace hcc::driver
