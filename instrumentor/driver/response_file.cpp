#include "response_file.hpp"

#include "io/regular_file.hpp"

namespace hcc::driver {
namespace {

// Same limit idea as libiberty: a response file that names itself must not
// loop forever. Past the limit the remaining @files are left to the compiler.
constexpr int kMaxExpansions = 2000;

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

std::vector<std::string> split_response_text(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0, n = text.size();
  while (i < n) {
    while (i < n && is_blank(text[i])) ++i;
    if (i >= n) break;
    std::string arg;
    bool squote = false, dquote = false;
    for (; i < n; ++i) {
      char c = text[i];
      if (!squote && !dquote && is_blank(c)) break;
      if (c == '\\') {
        // libiberty escapes the next character everywhere, quotes included.
        if (i + 1 < n) arg += text[++i];
      } else if (squote) {
        if (c == '\'')
          squote = false;
        else
          arg += c;
      } else if (dquote) {
        if (c == '"')
          dquote = false;
        else
          arg += c;
      } else if (c == '\'') {
        squote = true;
      } else if (c == '"') {
        dquote = true;
      } else {
        arg += c;
      }
    }
    out.push_back(std::move(arg));  // '' and "" give an empty argument, as in GCC
  }
  return out;
}

std::string quote_for_response_file(std::string_view arg) {
  if (arg.empty()) return "''";
  std::string out;
  out.reserve(arg.size() + 2);
  for (char c : arg) {
    if (is_blank(c) || c == '\'' || c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

Expansion expand_response_files(const std::vector<std::string> &args) {
  Expansion ex;
  ex.args = args;
  int expansions = 0;
  std::string text;
  for (size_t i = 0; i < ex.args.size();) {
    const std::string &a = ex.args[i];
    if (a.size() < 2 || a[0] != '@' || expansions >= kMaxExpansions ||
        !io::read_regular_file(a.substr(1), io::kBuildFileLimit, text)) {
      ++i;
      continue;
    }
    ++expansions;
    ex.expanded_any = true;
    std::vector<std::string> inner = split_response_text(text);
    ex.args.erase(ex.args.begin() + static_cast<std::ptrdiff_t>(i));
    ex.args.insert(ex.args.begin() + static_cast<std::ptrdiff_t>(i), inner.begin(),
                   inner.end());
    // Do not advance: the inserted arguments may themselves be @files.
  }
  return ex;
}

}  // namespace hcc::driver
