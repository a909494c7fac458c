// hcc — `dot -Tsvg` for the graph views.
#include "graphviz.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace hcc::report {

std::string dot_to_svg(const std::string &dot_text, const std::string &option) {
  // dot reads a file rather than a pipe: no deadlock on graphs larger than a
  // pipe buffer, and no child process to manage here.
  char in_path[] = "/tmp/hcc-dot-XXXXXX";
  const int fd = ::mkstemp(in_path);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file for dot");
  const bool wrote = ::write(fd, dot_text.data(), dot_text.size()) == static_cast<ssize_t>(dot_text.size());
  ::close(fd);
  if (!wrote) {
    ::unlink(in_path);
    throw std::runtime_error("cannot write a temporary file for dot");
  }
  const std::string cmd = std::string("dot -Tsvg '") + in_path + "' 2>&1";
  FILE *f = ::popen(cmd.c_str(), "r");
  std::string svg;
  if (f) {
    char buf[1 << 14];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) svg.append(buf, n);
  }
  const int status = f ? ::pclose(f) : -1;
  ::unlink(in_path);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) == 127)
    throw std::runtime_error(option + " needs Graphviz's dot on PATH (apt-get install graphviz); the =dot form writes the DOT text");
  if (WEXITSTATUS(status) != 0) throw std::runtime_error("dot failed: " + svg);
  return svg;
}

std::string dot_escape(const std::string &s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (ch == '\n') {
      out += "\\n";
      continue;
    }
    out += ch;
  }
  return out;
}

}  // namespace hcc::report
