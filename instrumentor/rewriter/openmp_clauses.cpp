#include "openmp_clauses.h"

#include <cctype>

namespace hcc::rewriter::omp {

namespace {

// Backslash-newline continuations joined, a trailing `//` comment dropped.
std::string logicalLine(const std::string &raw) {
  std::string s;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size() && (raw[i + 1] == '\n' || raw[i + 1] == '\r')) {
      ++i;
      if (raw[i] == '\r' && i + 1 < raw.size() && raw[i + 1] == '\n') ++i;
      s += ' ';
      continue;
    }
    if (raw[i] == '\n' || raw[i] == '\r') break;
    if (raw[i] == '/' && i + 1 < raw.size() && raw[i + 1] == '/') break;
    if (raw[i] == '/' && i + 1 < raw.size() && raw[i + 1] == '*') {
      size_t e = raw.find("*/", i + 2);
      if (e == std::string::npos) break;
      i = e + 1;
      s += ' ';
      continue;
    }
    s += raw[i];
  }
  return s;
}

void skipSpace(const std::string &s, size_t &i) {
  while (i < s.size() && (std::isspace(static_cast<unsigned char>(s[i])) || s[i] == ',')) ++i;
}

bool word(const std::string &s, size_t &i, std::string &w) {
  skipSpace(s, i);
  size_t b = i;
  while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
  w = s.substr(b, i - b);
  return !w.empty();
}

// s[i] == '(' : the text up to the matching ')'.
bool parens(const std::string &s, size_t &i, std::string &inner) {
  int depth = 0;
  size_t b = i;
  for (; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')' && --depth == 0) {
      inner = s.substr(b + 1, i - b - 1);
      ++i;
      return true;
    }
  }
  return false;
}

}  // namespace

bool parsePragma(const std::string &raw, unsigned words, PragmaText &out) {
  std::string s = logicalLine(raw);
  size_t i = 0;
  skipSpace(s, i);
  if (i >= s.size() || s[i] != '#') return false;
  ++i;
  std::string w;
  if (!word(s, i, w) || w != "pragma") return false;
  if (!word(s, i, w) || w != "omp") return false;
  for (unsigned k = 0; k < words; ++k) {
    if (!word(s, i, w)) return false;
    out.words.push_back(w);
  }
  skipSpace(s, i);
  // Two directives take a parenthesised argument right after their name:
  // `critical(name)` and `flush(list)` (OpenMP 5.2, 17.8.5); it is kept as
  // written and re-issued after the name.
  if (i < s.size() && s[i] == '(' && !out.words.empty() &&
      (out.words.back() == "critical" || out.words.back() == "flush")) {
    if (!parens(s, i, out.paren_arg)) return false;
  }
  while (true) {
    skipSpace(s, i);
    if (i >= s.size()) break;
    Clause c;
    if (!word(s, i, c.name)) return false;
    size_t j = i;
    while (j < s.size() && s[j] == ' ') ++j;
    if (j < s.size() && s[j] == '(') {
      i = j;
      if (!parens(s, i, c.args)) return false;
      c.had_parens = true;
    }
    out.clauses.push_back(c);
  }
  return true;
}

std::vector<std::string> clauseVariables(const std::string &args, bool after_colon) {
  std::string list = args;
  if (after_colon) {
    int depth = 0;
    size_t colon = std::string::npos;
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i] == '(' || list[i] == '[') ++depth;
      if (list[i] == ')' || list[i] == ']') --depth;
      if (list[i] == ':' && depth == 0 && (i + 1 >= list.size() || list[i + 1] != ':') &&
          (i == 0 || list[i - 1] != ':'))
        colon = i;
    }
    if (colon != std::string::npos) list = list.substr(colon + 1);
  }
  std::vector<std::string> vars;
  size_t i = 0;
  while (i < list.size()) {
    while (i < list.size() && !(std::isalpha(static_cast<unsigned char>(list[i])) || list[i] == '_')) ++i;
    size_t b = i;
    while (i < list.size() && (std::isalnum(static_cast<unsigned char>(list[i])) || list[i] == '_')) ++i;
    if (i > b) vars.push_back(list.substr(b, i - b));
    // skip to the next top-level comma (array sections, member access)
    int depth = 0;
    while (i < list.size() && !(list[i] == ',' && depth == 0)) {
      if (list[i] == '[' || list[i] == '(') ++depth;
      if (list[i] == ']' || list[i] == ')') --depth;
      ++i;
    }
  }
  return vars;
}

bool pragmaBody(const std::string &raw, std::string &body) {
  if (raw.find("/*") != std::string::npos || raw.find("*/") != std::string::npos) return false;
  std::string s = logicalLine(raw);
  size_t i = 0;
  skipSpace(s, i);
  if (i >= s.size() || s[i] != '#') return false;
  ++i;
  std::string w;
  if (!word(s, i, w) || w != "pragma") return false;
  skipSpace(s, i);
  body = s.substr(i);
  while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back()))) body.pop_back();
  return !body.empty();
}

std::string escapeForPragma(const std::string &text) {
  std::string o;
  for (char c : text) {
    if (c == '\\' || c == '"') o += '\\';
    o += c;
  }
  return o;
}

bool belongsToParallel(const Clause &c) {
  // Data-sharing clauses (private, firstprivate, lastprivate, reduction,
  // linear, allocate) go to the worksharing part: a variable private in the
  // parallel part could not be lastprivate/reduction there, and the
  // worksharing part is all the combined construct's body anyway.
  static const char *const kParallel[] = {"num_threads", "default", "shared", "copyin",
                                          "proc_bind"};
  if (c.name == "if") {
    // `if(simd: e)` is the loop's.
    return c.args.find("simd") == std::string::npos;
  }
  for (const char *p : kParallel)
    if (c.name == p) return true;
  return false;
}

std::string ifModifier(const Clause &c) {
  const std::string &a = c.args;
  const size_t colon = a.find(':');
  if (colon == std::string::npos || (colon + 1 < a.size() && a[colon + 1] == ':')) return "";
  size_t b = 0, e = colon;
  while (b < e && std::isspace(static_cast<unsigned char>(a[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(a[e - 1]))) --e;
  if (b == e) return "";
  for (size_t i = b; i < e; ++i)
    if (!std::islower(static_cast<unsigned char>(a[i])) && a[i] != ' ') return "";
  return a.substr(b, e - b);
}

bool hasClause(const std::vector<Clause> &cs, const std::string &name) {
  for (const Clause &c : cs)
    if (c.name == name) return true;
  return false;
}

bool hasTaskReduction(const std::vector<Clause> &cs) {
  for (const Clause &c : cs) {
    if (c.name != "reduction") continue;
    size_t i = 0;
    while (i < c.args.size() && std::isspace(static_cast<unsigned char>(c.args[i]))) ++i;
    if (c.args.compare(i, 4, "task") == 0) {
      size_t j = i + 4;
      while (j < c.args.size() && std::isspace(static_cast<unsigned char>(c.args[j]))) ++j;
      if (j < c.args.size() && c.args[j] == ',') return true;
    }
  }
  return false;
}

std::string joinClauses(const std::vector<Clause> &cs) {
  std::string s;
  for (const Clause &c : cs) s += " " + c.text();
  return s;
}

}  // namespace hcc::rewriter::omp
