#include "log.hpp"

#include <cerrno>
#include <unistd.h>

namespace hcc::driver {
namespace {

void write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // nothing sensible left to report an error to
    }
    text.remove_prefix(static_cast<size_t>(n));
  }
}

void print_line(std::string_view tag, std::string_view msg) {
  std::string line = "hcc: ";
  line += tag;
  line += msg;
  line += '\n';
  write_all(2, line);
}

}  // namespace

void print_error(std::string_view msg) { print_line("error: ", msg); }
void print_warning(std::string_view msg) { print_line("warning: ", msg); }
void print_note(std::string_view msg) { print_line("", msg); }
void write_stderr(std::string_view text) { write_all(2, text); }
void write_stdout(std::string_view text) { write_all(1, text); }

std::string shell_quote(std::string_view arg) {
  if (arg.empty()) return "''";
  bool plain = true;
  for (char c : arg) {
    bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
                c == '/' || c == ',' || c == '=' || c == ':' || c == '+' ||
                c == '@' || c == '%';
    if (!safe) {
      plain = false;
      break;
    }
  }
  if (plain) return std::string(arg);
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += '\'';
  return out;
}

std::string shell_command(const std::vector<std::string> &argv) {
  std::string out;
  for (const auto &a : argv) {
    if (!out.empty()) out += ' ';
    out += shell_quote(a);
  }
  return out;
}

}  // namespace hcc::driver
