#include "unknown_directives.h"

#include <algorithm>
#include <cctype>

namespace hcc::rewriter {

namespace {

bool isIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }

// A backslash-newline (or backslash-CR-LF) at `i`: its length, else 0.
size_t continuation(const std::string &t, size_t i) {
  if (i >= t.size() || t[i] != '\\') return 0;
  if (i + 1 < t.size() && t[i + 1] == '\n') return 2;
  if (i + 2 < t.size() && t[i + 1] == '\r' && t[i + 2] == '\n') return 3;
  return 0;
}

// The logical line (continuations joined) holding offset `o`: [b, e), e at
// its final newline or the end of the text.
void logicalLine(const std::string &t, size_t o, size_t &b, size_t &e) {
  b = o;
  while (b > 0 && t[b - 1] != '\n') --b;
  // An earlier physical line ending in a backslash continues into this one.
  while (b > 0) {
    size_t p = b - 1;  // its '\n'
    if (p > 0 && t[p - 1] == '\r') --p;
    if (p == 0 || t[p - 1] != '\\') break;
    b = p - 1;
    while (b > 0 && t[b - 1] != '\n') --b;
  }
  e = o;
  while (e < t.size() && t[e] != '\n') {
    size_t c = continuation(t, e);
    e += c ? c : 1;
  }
}

// Skips blanks and continuations from `i`; stops at `end`.
size_t skipSpace(const std::string &t, size_t i, size_t end) {
  while (i < end) {
    if (isBlank(t[i]) || t[i] == '\r') {
      ++i;
    } else if (size_t c = continuation(t, i)) {
      i += c;
    } else {
      break;
    }
  }
  return i;
}

size_t word(const std::string &t, size_t i, size_t end) {
  while (i < end && isIdent(t[i])) ++i;
  return i;
}

// Blanks [b, e): every character but line ends becomes a space.
void blank(std::string &t, size_t b, size_t e) {
  for (size_t i = b; i < e && i < t.size(); ++i)
    if (t[i] != '\n' && t[i] != '\r') t[i] = ' ';
}

bool isDirectiveWord(const std::string &w) {
  static const char *const kWords[] = {
      "parallel", "for", "do", "simd", "sections", "section", "single", "master", "masked",
      "loop", "taskloop", "distribute", "teams", "target", "workshare", "task", "data",
      "enter", "exit", "update", "declare", "end", "begin", "scope"};
  for (const char *k : kWords)
    if (w == k) return true;
  return false;
}

}  // namespace

bool blankUnparsedOpenMP(std::string &text, const std::vector<unsigned> &error_offsets,
                         std::vector<BlankedPragma> &done) {
  std::vector<unsigned> offsets = error_offsets;
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  // Decide first, blank after: two errors may sit on one pragma.
  struct Cut {
    size_t pragma, b, e;
    bool whole;
    std::string clause;
  };
  std::vector<Cut> cuts;
  for (unsigned o : offsets) {
    if (o >= text.size()) return false;
    size_t b, e;
    logicalLine(text, o, b, e);
    size_t i = skipSpace(text, b, e);
    if (i >= e || text[i] != '#') return false;
    const size_t hash = i;
    i = skipSpace(text, i + 1, e);
    size_t w = word(text, i, e);
    if (text.compare(i, w - i, "pragma") != 0 || w - i != 6) return false;
    i = skipSpace(text, w, e);
    w = word(text, i, e);
    if (w - i != 3 || text.compare(i, 3, "omp") != 0) return false;
    // The directive's own name: an error there means Clang does not know
    // the directive at all.
    i = skipSpace(text, w, e);
    const size_t name_end = word(text, i, e);
    Cut cut{hash, hash, e, true, ""};
    if (o >= name_end) {
      // Which clause holds the error: name [blanks] [( … )], separated by
      // blanks or commas.
      size_t k = name_end;
      while (k < e) {
        while (k < e && (isBlank(text[k]) || text[k] == ',' || text[k] == '\r' ||
                         continuation(text, k)))
          k += continuation(text, k) ? continuation(text, k) : 1;
        if (k >= e) break;
        const size_t cb = k;
        size_t ce = word(text, k, e);
        if (ce == cb) break;  // not a clause: give up on the clause, blank the pragma
        size_t p = skipSpace(text, ce, e);
        if (p < e && text[p] == '(') {
          int depth = 0;
          for (; p < e; ++p) {
            if (text[p] == '(') ++depth;
            if (text[p] == ')' && --depth == 0) {
              ++p;
              break;
            }
          }
          if (depth != 0) break;
          ce = p;
        }
        if (o >= cb && o < ce) {
          const std::string name = text.substr(cb, word(text, cb, e) - cb);
          // A directive word where Clang wanted a clause: a combined
          // directive it does not know, so the directive is unknown.
          if (!isDirectiveWord(name)) cut = Cut{hash, cb, ce, false, name};
          break;
        }
        k = ce;
      }
    }
    cuts.push_back(cut);
  }
  for (const Cut &c : cuts) {
    // Record once per pragma; a whole blank supersedes clause blanks.
    auto it = std::find_if(done.begin(), done.end(),
                           [&](const BlankedPragma &p) { return p.begin == c.pragma; });
    size_t b, e;
    logicalLine(text, c.pragma, b, e);
    if (it == done.end()) {
      done.push_back(BlankedPragma{unsigned(c.pragma), unsigned(e), c.whole, c.clause});
    } else if (c.whole) {
      it->whole = true;
    } else if (!it->whole && it->clause.find(c.clause) == std::string::npos) {
      it->clause += ", " + c.clause;
    }
    blank(text, c.whole ? c.pragma : c.b, c.whole ? e : c.e);
  }
  return !cuts.empty();
}

}  // namespace hcc::rewriter
