// hcc filter — parsers for the three filter syntaxes and the matcher
// (see filter.hpp and README.md). No Clang, no runtime: the instrumentor and
// libhcc link this same code, so a name is decided the same way at compile
// time and at run time.
#include "filter.hpp"

#include <cctype>
#include <cstdio>
#include <map>
#include <memory>

#include "io/regular_file.hpp"

namespace hcc::filter {

namespace {

// Wildcards are encoded as control bytes so that literal text (a `*` in a
// TAU signature, a `\*` in Score-P) and wildcards can share one string.
constexpr char kAny = '\x01';    // any run of characters, also '/'
constexpr char kOne = '\x02';    // one character
constexpr char kClassB = '\x03'; // [...] begin
constexpr char kClassE = '\x04'; // [...] end

bool is_word(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '_' || c == '$' || (u >= 1 && u <= 4) || u >= 0x80;
}

// For whitespace normalisation wildcards are not word characters: a blank
// next to one is dropped ("int *" in a shell pattern must match "int*"); a
// wildcard that matches any run also matches a blank the name still has.
bool is_word_for_spaces(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return is_word(c) && !(u >= 1 && u <= 4);
}

// Whitespace normalisation (see normalize_spaces). TAU patterns are split
// into return type and name with the blanks next to their '#' kept
// (wildcards_are_words): "int #_get" is a return type and a name.
std::string normalize(std::string_view s, bool wildcards_are_words) {
  auto word = [&](char c) { return is_word_for_spaces(c) || (wildcards_are_words && c == kAny); };
  std::string out;
  bool pending = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      pending = !out.empty();
      continue;
    }
    if (pending && word(out.back()) && word(c)) out += ' ';
    pending = false;
    out += c;
  }
  return out;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// Matches an encoded pattern against text. Iterative with one backtrack
// point per kAny (the classic greedy-star algorithm): linear in practice.
bool match_encoded(std::string_view p, std::string_view t) {
  size_t pi = 0, ti = 0, star_p = std::string_view::npos, star_t = 0;
  while (ti < t.size()) {
    if (pi < p.size()) {
      char c = p[pi];
      if (c == kAny) {
        star_p = ++pi;
        star_t = ti;
        continue;
      }
      if (c == kOne) {
        ++pi, ++ti;
        continue;
      }
      if (c == kClassB) {
        size_t end = p.find(kClassE, pi);
        std::string_view cls = p.substr(pi + 1, end - pi - 1);
        bool negate = !cls.empty() && (cls[0] == '!' || cls[0] == '^');
        if (negate) cls.remove_prefix(1);
        bool in = false;
        for (size_t k = 0; k < cls.size(); ++k) {
          if (k + 2 < cls.size() && cls[k + 1] == '-') {
            if (t[ti] >= cls[k] && t[ti] <= cls[k + 2]) in = true;
            k += 2;
          } else if (cls[k] == t[ti]) {
            in = true;
          }
        }
        if (in != negate) {
          pi = end + 1, ++ti;
          continue;
        }
      } else if (c == t[ti]) {
        ++pi, ++ti;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    pi = star_p;
    ti = ++star_t;
  }
  while (pi < p.size() && p[pi] == kAny) ++pi;
  return pi == p.size();
}

// Encodes a pattern written with the wildcards of `w`. `\x` makes x literal
// (Score-P), except in TAU routine patterns where `\` has no meaning.
std::string encode(std::string_view s, Wildcards w) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (w != Wildcards::Tau && c == '\\' && i + 1 < s.size()) {
      out += s[++i];
    } else if (w == Wildcards::Tau ? c == '#' : c == '*') {
      out += kAny;
    } else if (w != Wildcards::Tau && c == '?') {
      out += kOne;
    } else if (w == Wildcards::ShellClasses && c == '[' && s.find(']', i + 2) != std::string_view::npos) {
      size_t end = s.find(']', i + 2);  // "[]x]" style: first ']' after one char
      out += kClassB;
      out.append(s.substr(i + 1, end - i - 1));
      out += kClassE;
      i = end;
    } else {
      out += c;
    }
  }
  return out;
}

// Position of the '(' that opens the parameter list, or npos. Skips
// "(anonymous namespace)::" and the "()" of "operator()".
size_t param_open(std::string_view s) {
  int angle = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool after_operator = i >= 8 && s.substr(i - 8, 8) == "operator";
    if (c == '<' && !after_operator && !(i >= 9 && s.substr(i - 9, 9) == "operator<")) ++angle;
    else if (c == '>' && angle > 0 && s[i - 1] != '-') --angle;
    else if (c == '(' && angle == 0) {
      if (after_operator && i + 1 < s.size() && s[i + 1] == ')') {
        ++i;  // operator()
        continue;
      }
      int depth = 0;
      size_t j = i;
      for (; j < s.size(); ++j) {
        if (s[j] == '(') ++depth;
        else if (s[j] == ')' && --depth == 0) break;
      }
      if (j + 2 < s.size() && s[j + 1] == ':' && s[j + 2] == ':') {
        i = j;  // "(anonymous namespace)::"
        continue;
      }
      return i;
    }
  }
  return std::string_view::npos;
}

// Start of the qualified name inside `head` (the text before the parameter
// list): walks back over identifiers, "::", "~", template argument lists and
// an operator name; what is before it is the return type.
size_t qual_start(std::string_view head) {
  size_t op = head.rfind("operator");
  size_t i = head.size();
  if (op != std::string_view::npos && (op == 0 || !is_word(head[op - 1]) || head[op - 1] == ':'))
    i = op;
  int angle = 0;
  while (i > 0) {
    char c = head[i - 1];
    if (c == '>') {
      // "std::vector<int>f": a return type's argument list ends right before
      // the name (normalising took the blank between them away).
      if (angle == 0 && i < head.size() && is_word_for_spaces(head[i])) break;
      ++angle;
    } else if (c == '<') {
      if (angle == 0) break;
      --angle;
    } else if (c == ')' && angle == 0 && i >= 2) {
      // "(anonymous namespace)" as a scope
      size_t open = head.rfind('(', i - 1);
      if (open == std::string_view::npos) break;
      i = open;
      continue;
    } else if (angle == 0 && !is_word(c) && c != ':' && c != '~') {
      break;
    }
    --i;
  }
  return i;
}

std::string strip_template_args(std::string_view s) {
  std::string out;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool op = i >= 8 && s.substr(i - 8, 8) == "operator";
    if (c == '<' && !op) {
      ++depth;
      continue;
    }
    if (c == '>' && depth > 0) {
      --depth;
      continue;
    }
    if (depth == 0) out += c;
  }
  return out;
}

// "double A<T>::f(T) [T = double]" -> "double A<double>::f(double)".
// Accepts GCC's "[with T = double; U = int]" and Clang's "[T = double, U = int]".
std::string substitute_bindings(std::string_view name) {
  if (name.empty() || name.back() != ']') return std::string(name);
  size_t open = name.rfind(" [");
  if (open == std::string_view::npos) return std::string(name);
  std::string_view binds = name.substr(open + 2, name.size() - open - 3);
  if (binds.substr(0, 5) == "with ") binds.remove_prefix(5);
  std::map<std::string, std::string> map;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= binds.size(); ++i) {
    char c = i < binds.size() ? binds[i] : ';';
    if (c == '<' || c == '(' || c == '[') ++depth;
    else if (c == '>' || c == ')' || c == ']') --depth;
    else if ((c == ';' || c == ',') && depth == 0) {
      std::string_view b = binds.substr(start, i - start);
      size_t eq = b.find(" = ");
      if (eq != std::string_view::npos) map[trim(b.substr(0, eq))] = trim(b.substr(eq + 3));
      start = i + 1;
    }
  }
  if (map.empty()) return std::string(name);
  std::string out;
  std::string_view head = name.substr(0, open);
  for (size_t i = 0; i < head.size();) {
    if (is_word(head[i]) && (i == 0 || !is_word(head[i - 1]))) {
      size_t j = i;
      while (j < head.size() && is_word(head[j])) ++j;
      std::string word(head.substr(i, j - i));
      auto it = map.find(word);
      out += it != map.end() ? it->second : word;
      i = j;
    } else {
      out += head[i++];
    }
  }
  return out;
}

struct Pattern {
  std::string enc;         // whole pattern, normalised
  std::string sig;         // return type removed
  std::string qual;        // qualified-name part
  std::string qual_plain;  // template arguments removed, for template patterns
  std::string ret;         // TAU: the return type written before the name, or ""
  std::string enc_fn;      // TAU: enc and sig without the function template's own
  std::string sig_fn;      //   arguments ("f<#>(#*)" -> "f(#*)"), or "" if it has none
  bool has_params = false;
  bool has_scope = false;
  bool tau = false;        // a TAU routine pattern (see match_tau)
  bool c_suffix = false;   // TAU: ended in " C", TAU's mark of a C routine
  bool mangled = false;    // Score-P MANGLED: match the linker name, as written
  bool file_base = false;  // file pattern without '/': also the base name
};

// "(void)" is how C spells an empty parameter list and how TAU writes it for
// C routines ("double multiply(void) C"); hcc's names and C++ write "()".
std::string drop_void_params(std::string s) {
  for (size_t at = s.find("(void)"); at != std::string::npos; at = s.find("(void)", at + 1))
    s.erase(at + 1, 4);
  return s;
}

// "void f<int>(int *)" -> "void f(int *)": a function template instance
// the way __PRETTY_FUNCTION__ names it (the arguments show in the
// parameters and the bindings). "" when the name has no such list.
std::string drop_function_template_args(const std::string &s) {
  size_t open = param_open(s);
  if (open == std::string::npos || open == 0 || s[open - 1] != '>') return "";
  int depth = 0;
  for (size_t i = open; i-- > 0;) {
    if (s[i] == '>') ++depth;
    else if (s[i] == '<' && --depth == 0) return s.substr(0, i) + s.substr(open);
  }
  return "";
}

// TAU writes " C" after the parameter list of a C routine ("int main(int,
// char **) C"); a trailing wildcard may stand for it ("int foo(int)#").
bool strip_c_suffix(std::string &s) {
  size_t n = s.size();
  if (n < 3 || s[n - 1] != 'C' || !std::isspace(static_cast<unsigned char>(s[n - 2]))) return false;
  std::string head = trim(std::string_view(s).substr(0, n - 1));
  if (head.empty() || (head.back() != ')' && head.back() != '#')) return false;
  s = head;
  return true;
}

// A TAU routine pattern is a signature with '#' anywhere: "void
// quicksort(int *, int, int)", "int select_#", "void#", "int main(int,
// char **) C". The return type is split off where a blank separates it
// from the name, before blanks next to a '#' are normalised away ("int
// #_get" names routines returning int whose names end in _get; "void#" has
// no blank: its '#' covers the rest of the return type and the name).
void fill_tau_pattern(std::string_view text, Pattern &p) {
  p.tau = true;
  std::string t = trim(text);
  p.c_suffix = strip_c_suffix(t);
  std::string enc = encode(t, Wildcards::Tau);
  p.enc = drop_void_params(normalize_spaces(enc));
  std::string kept = drop_void_params(normalize(enc, /*wildcards_are_words=*/true));
  size_t open = param_open(kept);
  std::string_view head = std::string_view(kept).substr(0, open == std::string::npos ? kept.size() : open);
  size_t q = qual_start(head);
  p.ret = normalize_spaces(head.substr(0, q));
  p.sig = normalize_spaces(std::string_view(kept).substr(q));
  p.enc_fn = drop_function_template_args(p.enc);
  p.sig_fn = drop_function_template_args(p.sig);
  NameForms f = name_forms(p.sig);
  p.has_params = f.has_params;
  p.qual = f.qual;
  p.qual_plain = f.qual_plain;
  p.has_scope = f.qual.find("::") != std::string::npos;
}

Pattern make_name_pattern(std::string_view text, Wildcards w, bool mangled) {
  Pattern p;
  p.mangled = mangled;
  if (mangled) {
    p.enc = encode(text, w);
    return p;
  }
  if (w == Wildcards::Tau) {
    fill_tau_pattern(text, p);
    return p;
  }
  p.enc = normalize_spaces(encode(text, w));
  NameForms f = name_forms(p.enc);
  p.has_params = f.has_params;
  p.sig = f.sig;
  p.qual = f.qual;
  p.qual_plain = f.qual_plain;
  p.has_scope = f.qual.find("::") != std::string::npos;
  return p;
}

Pattern make_file_pattern(std::string_view text, Wildcards w) {
  Pattern p;
  p.enc = encode(text, w);
  p.file_base = text.find('/') == std::string_view::npos;
  return p;
}

std::string_view base_name(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool match_file(const Pattern &p, std::string_view file) {
  if (match_encoded(p.enc, file)) return true;
  return p.file_base && match_encoded(p.enc, base_name(file));
}

// A region's name forms, computed once per query; `sig` from the
// compile-time signature when there is one (has_sig).
struct Subject {
  const Region &r;
  NameForms f;
  NameForms sig;
  bool has_sig = false;
  explicit Subject(const Region &region) : r(region), f(name_forms(region.name)) {
    if (!region.signature.empty()) {
      sig = name_forms(drop_void_params(normalize_spaces(region.signature)));
      has_sig = true;
    }
  }
};

bool only_wildcards(std::string_view p) {
  for (char c : p)
    if (c != kAny) return false;
  return true;
}

// TAU patterns. TAU compares a pattern with its whole routine text, return
// type first ("int early(int) C"); hcc's names have less: C functions, main
// and extern "C" functions are bare names ("early"), other C++ functions
// have no return type ("ns::A::f(int) const"); only template instances at
// run time have everything. So:
//  - where the signature is known (compile time), the pattern is matched
//    against it as TAU would ("void#", "int main#", "#");
//  - its return type is compared whenever the region has one, and left out
//    where it has none ("int ear#" decides a bare "early" by "ear#"); a
//    pattern that names nothing but a return type ("void #") cannot be
//    decided without one and does not match;
//  - the rest follows the rules of every format (qualified name, last
//    component, parameters where the name has them);
//  - " C" admits only names without a parameter list (TAU's C routines).
bool match_rest(const Pattern &p, const std::string &pat, const NameForms &f);
bool match_tau(const Pattern &p, const Subject &s) {
  const NameForms &f = s.f;
  if (p.c_suffix && f.has_params) return false;
  if (s.has_sig && match_encoded(p.enc, s.sig.full)) return true;
  if (s.r.template_pattern) {  // the return type may be a template parameter
    const std::string &pq = p.has_params ? p.qual_plain : strip_template_args(p.sig);
    return match_encoded(pq, f.qual_plain) ||
           (pq.find("::") == std::string::npos && match_encoded(pq, f.base));
  }
  const NameForms &n = s.has_sig ? s.sig : f;  // the signature has the C parameters too
  if (!p.ret.empty()) {
    if (n.ret.empty() ? only_wildcards(p.sig) : !match_encoded(p.ret, n.ret)) return false;
  }
  if (p.has_params)
    return match_encoded(p.enc, n.full) || match_encoded(p.sig, n.sig) ||
           (!n.has_params && match_encoded(p.qual, n.qual)) ||
           (!p.sig_fn.empty() && (match_encoded(p.enc_fn, n.full) || match_encoded(p.sig_fn, n.sig)));
  return match_rest(p, p.sig, n) || match_encoded(p.enc, n.full);
}

// A pattern without parameters against the forms of a name.
bool match_rest(const Pattern &p, const std::string &pat, const NameForms &f) {
  return match_encoded(pat, f.qual) || match_encoded(pat, f.qual_plain) || match_encoded(pat, f.full) ||
         (!p.has_scope && match_encoded(pat, f.base));
}

bool match_name(const Pattern &p, const Subject &s) {
  if (p.mangled) return !s.r.mangled.empty() && match_encoded(p.enc, s.r.mangled);
  if (p.tau) return match_tau(p, s);
  const NameForms &f = s.f;
  if (s.r.template_pattern) {
    const std::string &pq = p.has_params ? p.qual_plain : strip_template_args(p.enc);
    return match_encoded(pq, f.qual_plain) ||
           (pq.find("::") == std::string::npos && match_encoded(pq, f.base));
  }
  if (p.has_params) {
    return match_encoded(p.enc, f.full) || match_encoded(p.sig, f.sig) ||
           (!f.has_params && match_encoded(p.qual, f.qual));
  }
  return match_rest(p, p.enc, f);
}

bool any_match(const std::vector<Pattern> &ps, const Subject &s) {
  for (const Pattern &p : ps)
    if (match_name(p, s)) return true;
  return false;
}
bool any_file_match(const std::vector<Pattern> &ps, std::string_view file) {
  for (const Pattern &p : ps)
    if (match_file(p, file)) return true;
  return false;
}

// One parsed source of rules; a Filter holds several and needs all to agree.
struct RuleSet {
  virtual ~RuleSet() = default;
  virtual bool excludes_file(std::string_view file) const = 0;
  virtual bool excludes(const Subject &s) const = 0;
  // An include rule (not a file rule, not the default) decides for `s`.
  virtual bool names(const Subject &s) const = 0;
  // A COUNT rule decides for `s` (count mode: visits without a clock).
  virtual bool counts(const Subject &s) const = 0;
};

// TAU and the plain options: exclusion wins; a non-empty include list admits
// only what it matches. Files are decided the same way, before routines.
struct ListRules : RuleSet {
  std::vector<Pattern> excl, incl, file_excl, file_incl;
  std::vector<Pattern> count;  // --hcc-functions=count:… (admits nothing by itself)
  bool has_incl = false, has_file_incl = false;  // an empty BEGIN_INCLUDE_LIST still restricts
  bool excludes_file(std::string_view file) const override {
    if (has_file_incl && !any_file_match(file_incl, file)) return true;
    return any_file_match(file_excl, file);
  }
  bool excludes(const Subject &s) const override {
    if (excludes_file(s.r.file)) return true;
    if (any_match(excl, s)) return true;
    return has_incl && !any_match(incl, s);
  }
  bool names(const Subject &s) const override { return any_match(incl, s) || any_match(count, s); }
  bool counts(const Subject &s) const override { return any_match(count, s); }
};

// Score-P and hcc's own format: everything starts included, rules apply in
// order and the last match wins; the file rules first, and a file they
// exclude cannot be re-included by a region rule.
struct OrderedRules : RuleSet {
  struct Rule {
    bool include;
    std::vector<Pattern> patterns;
    bool count = false;  // COUNT / count: included, and counted (include is true)
  };
  std::vector<Rule> file_rules, name_rules;
  bool excludes_file(std::string_view file) const override {
    bool included = true;
    for (const Rule &r : file_rules)
      if (any_file_match(r.patterns, file)) included = r.include;
    return !included;
  }
  bool excludes(const Subject &s) const override {
    if (excludes_file(s.r.file)) return true;
    bool included = true;
    for (const Rule &r : name_rules)
      if (any_match(r.patterns, s)) included = r.include;
    return !included;
  }
  bool names(const Subject &s) const override {
    bool named = false;
    for (const Rule &r : name_rules)
      if (any_match(r.patterns, s)) named = r.include;
    return named;
  }
  bool counts(const Subject &s) const override {
    bool counted = false;
    for (const Rule &r : name_rules)
      if (any_match(r.patterns, s)) counted = r.count;
    return counted;
  }
};

struct ParseError {
  int line;
  std::string message;
};

// A control byte in a rule would reach the matcher, whose wildcards are the
// bytes 0x01-0x04 (kAny …): `exclude <0x01>` would drop every region. No
// filter syntax has a use for any of them, so all are refused (a tab is a
// blank; split_lines already took a CR before a line's end away).
bool is_control(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; }

std::string control_message(char byte) {
  const unsigned char c = static_cast<unsigned char>(byte);
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", c);
  return std::string("control character ") + hex +
         " (filters are text: printable characters, blanks and tabs only)";
}

// Throws for the first line with a control byte, comments included.
void reject_control_bytes(const std::vector<std::string> &lines) {
  for (size_t i = 0; i < lines.size(); ++i)
    for (char c : lines[i])
      if (is_control(static_cast<unsigned char>(c))) throw ParseError{int(i) + 1, control_message(c)};
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string l(text.substr(start, nl - start));
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(std::move(l));
    start = nl + 1;
  }
  return lines;
}

// --- TAU ---------------------------------------------------------------

// `"#foo"` -> `#foo`: TAU quotes a routine that starts with the wildcard,
// which would otherwise read as a comment.
std::string unquote(const std::string &s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return s.substr(1, s.size() - 2);
  return s;
}

// key="value" from a TAU instrument-section line.
bool tau_attr(const std::string &line, const std::string &key, std::string &value) {
  size_t pos = line.find(key + "=");
  if (pos == std::string::npos || (pos > 0 && is_word(line[pos - 1]))) return false;
  pos += key.size() + 1;
  if (pos < line.size() && line[pos] == '"') {
    size_t end = line.find('"', pos + 1);
    if (end == std::string::npos) return false;
    value = line.substr(pos + 1, end - pos - 1);
  } else {
    size_t end = pos;
    while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) ++end;
    value = line.substr(pos, end - pos);
  }
  return true;
}

void parse_tau(const std::vector<std::string> &lines, ListRules &rules,
               std::vector<LoopSelection> &loops) {
  enum Block { None, Excl, Incl, FileExcl, FileIncl, Section };
  static const std::pair<const char *, Block> kBegins[] = {
      {"BEGIN_EXCLUDE_LIST", Excl},          {"BEGIN_INCLUDE_LIST", Incl},
      {"BEGIN_FILE_EXCLUDE_LIST", FileExcl}, {"BEGIN_FILE_INCLUDE_LIST", FileIncl},
      {"BEGIN_INSTRUMENT_SECTION", Section}};
  static const char *kEnds[] = {"", "END_EXCLUDE_LIST", "END_INCLUDE_LIST",
                                "END_FILE_EXCLUDE_LIST", "END_FILE_INCLUDE_LIST",
                                "END_INSTRUMENT_SECTION"};
  Block block = None;
  int opened = 0;
  std::string opened_kw;
  for (size_t i = 0; i < lines.size(); ++i) {
    int ln = int(i) + 1;
    std::string l = trim(lines[i]);
    if (l.empty() || l[0] == '#') continue;  // '#' first: a comment
    bool keyword = l.rfind("BEGIN_", 0) == 0 || l.rfind("END_", 0) == 0;
    if (block == None) {
      Block b = None;
      for (auto &[kw, bl] : kBegins)
        if (l == kw) b = bl;
      if (b == None)
        throw ParseError{ln, keyword ? "unknown keyword '" + l + "'"
                                     : "'" + l + "' outside a BEGIN_…/END_… block"};
      block = b, opened = ln, opened_kw = l;
      if (b == Incl) rules.has_incl = true;
      if (b == FileIncl) rules.has_file_incl = true;
      continue;
    }
    if (l == kEnds[block]) {
      block = None;
      continue;
    }
    if (keyword)
      throw ParseError{ln, "'" + l + "' inside " + opened_kw + " opened at line " +
                               std::to_string(opened) + " (missing " + kEnds[block] + "?)"};
    std::string pat = unquote(l);
    switch (block) {
      case Excl: rules.excl.push_back(make_name_pattern(pat, Wildcards::Tau, false)); break;
      case Incl: rules.incl.push_back(make_name_pattern(pat, Wildcards::Tau, false)); break;
      case FileExcl: rules.file_excl.push_back(make_file_pattern(pat, Wildcards::Shell)); break;
      case FileIncl: rules.file_incl.push_back(make_file_pattern(pat, Wildcards::Shell)); break;
      case Section: {
        std::string word = l.substr(0, l.find_first_of(" \t"));
        if (word != "loops")
          throw ParseError{ln, "instrument-section request '" + word +
                                   "' is not supported (hcc knows: loops file=\"…\" routine=\"…\")"};
        LoopSelection sel;
        sel.line = ln;
        tau_attr(l, "file", sel.file);
        if (!tau_attr(l, "routine", sel.routine))
          throw ParseError{ln, "loops request without routine=\"…\""};
        loops.push_back(sel);
        break;
      }
      case None: break;
    }
  }
  if (block != None)
    throw ParseError{opened, opened_kw + " is never closed (missing " + kEnds[block] + ")"};
}

// --- Score-P -----------------------------------------------------------

// Splits a line into words; '#' starts a comment unless escaped (`\#`).
// Escapes stay in the word (encode() resolves them).
std::vector<std::string> scorep_words(const std::string &line) {
  std::vector<std::string> words;
  std::string cur;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '\\' && i + 1 < line.size()) {
      cur += c;
      cur += line[++i];
    } else if (c == '#') {
      break;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) words.push_back(std::move(cur)), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

void parse_scorep(const std::vector<std::string> &lines, OrderedRules &rules) {
  enum Block { None, Regions, Files };
  Block block = None;
  int opened = 0;
  OrderedRules::Rule *rule = nullptr;
  bool mangled = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    int ln = int(i) + 1;
    for (const std::string &w : scorep_words(lines[i])) {
      if (block == None) {
        if (w == "SCOREP_REGION_NAMES_BEGIN") block = Regions;
        else if (w == "SCOREP_FILE_NAMES_BEGIN") block = Files;
        else throw ParseError{ln, "unknown keyword '" + w + "' outside a SCOREP_…_BEGIN/END block"};
        opened = ln, rule = nullptr;
        continue;
      }
      if (w == "SCOREP_REGION_NAMES_END" || w == "SCOREP_FILE_NAMES_END") {
        if ((w == "SCOREP_REGION_NAMES_END") != (block == Regions))
          throw ParseError{ln, "'" + w + "' closes the block opened at line " +
                                   std::to_string(opened) + ", which is a " +
                                   (block == Regions ? "SCOREP_REGION_NAMES" : "SCOREP_FILE_NAMES") +
                                   " block"};
        block = None;
        continue;
      }
      if (w.rfind("SCOREP_", 0) == 0)
        throw ParseError{ln, "'" + w + "' inside the block opened at line " + std::to_string(opened) +
                                 " (missing " +
                                 (block == Regions ? "SCOREP_REGION_NAMES_END" : "SCOREP_FILE_NAMES_END") +
                                 "?)"};
      auto &list = block == Regions ? rules.name_rules : rules.file_rules;
      if (w == "COUNT" && block == Files)
        throw ParseError{ln, "'COUNT' in a file-name block: COUNT names regions (functions), "
                             "put it between SCOREP_REGION_NAMES_BEGIN and SCOREP_REGION_NAMES_END"};
      if (w == "INCLUDE" || w == "EXCLUDE" || w == "COUNT") {
        list.push_back({w != "EXCLUDE", {}, w == "COUNT"});
        rule = &list.back();
        mangled = false;  // MANGLED lasts for the rest of its rule only
        continue;
      }
      if (w == "MANGLED" || w == "DEMANGLED") {
        if (!rule) throw ParseError{ln, "'" + w + "' before any INCLUDE or EXCLUDE"};
        if (block == Files) throw ParseError{ln, "'" + w + "' in a file-name block"};
        mangled = w == "MANGLED";
        continue;
      }
      if (!rule) throw ParseError{ln, "pattern '" + w + "' before any INCLUDE or EXCLUDE"};
      rule->patterns.push_back(block == Regions ? make_name_pattern(w, Wildcards::ShellClasses, mangled)
                                                : make_file_pattern(w, Wildcards::ShellClasses));
    }
  }
  if (block != None)
    throw ParseError{opened, std::string(block == Regions ? "SCOREP_REGION_NAMES_BEGIN" : "SCOREP_FILE_NAMES_BEGIN") +
                                 " is never closed (missing " +
                                 (block == Regions ? "SCOREP_REGION_NAMES_END" : "SCOREP_FILE_NAMES_END") + ")"};
}

// --- hcc's own format --------------------------------------------------
//   # comment
//   exclude PATTERN        include PATTERN
//   exclude file PATTERN   include file PATTERN
//   count PATTERN          (count mode: included, visits without a clock)
void parse_hcc(const std::vector<std::string> &lines, OrderedRules &rules) {
  for (size_t i = 0; i < lines.size(); ++i) {
    int ln = int(i) + 1;
    std::string l = trim(lines[i]);
    if (l.empty() || l[0] == '#') continue;
    size_t sp = l.find_first_of(" \t");
    std::string kw = l.substr(0, sp);
    if (kw != "include" && kw != "exclude" && kw != "count")
      throw ParseError{ln, "unknown keyword '" + kw + "' (expected include or exclude)"};
    std::string rest = sp == std::string::npos ? "" : trim(l.substr(sp));
    bool file = false;
    if (rest.rfind("file", 0) == 0 && rest.size() > 4 && std::isspace(static_cast<unsigned char>(rest[4]))) {
      file = true;
      rest = trim(rest.substr(4));
    }
    if (rest.empty()) throw ParseError{ln, "'" + kw + "' without a pattern"};
    if (file && kw == "count") throw ParseError{ln, "'count file' is not a rule: count names functions, not files"};
    if (kw == "count") rules.name_rules.push_back({true, {make_name_pattern(rest, Wildcards::Shell, false)}, true});
    else if (file) rules.file_rules.push_back({kw == "include", {make_file_pattern(rest, Wildcards::Shell)}});
    else rules.name_rules.push_back({kw == "include", {make_name_pattern(rest, Wildcards::Shell, false)}});
  }
}

}  // namespace

std::string normalize_spaces(std::string_view s) { return normalize(s, false); }

NameForms name_forms(std::string_view raw) {
  NameForms f;
  f.full = normalize_spaces(substitute_bindings(raw));
  std::string_view s = f.full;
  size_t open = param_open(s);
  std::string_view head = open == std::string_view::npos ? s : s.substr(0, open);
  size_t q = qual_start(head);
  f.ret = trim(head.substr(0, q));
  f.qual = std::string(head.substr(q));
  if (open != std::string_view::npos) {
    f.has_params = true;
    f.sig = std::string(s.substr(open - (head.size() - q)));
  } else {
    f.sig = std::string(s.substr(q));
  }
  f.qual_plain = strip_template_args(f.qual);
  size_t colon = f.qual_plain.rfind("::");
  f.base = colon == std::string::npos ? f.qual_plain : f.qual_plain.substr(colon + 2);
  return f;
}

std::string substitute_template_bindings(std::string_view name) { return substitute_bindings(name); }

bool glob_match(std::string_view pattern, std::string_view text, Wildcards w) {
  return match_encoded(encode(pattern, w), text);
}

struct Filter::Impl {
  std::vector<std::unique_ptr<RuleSet>> sets;
  ListRules *plain = nullptr;  // the --hcc-include/--hcc-exclude set, made on first use
  ListRules &plain_set();
  std::vector<LoopSelection> loops;
};

Filter::Filter() : impl_(new Impl) {}
Filter::~Filter() { delete impl_; }
Filter::Filter(Filter &&o) noexcept : impl_(o.impl_) { o.impl_ = new Impl; }
Filter &Filter::operator=(Filter &&o) noexcept {
  std::swap(impl_, o.impl_);
  return *this;
}

bool Filter::add_file(const std::string &path, std::string &error) {
  // Only a regular file of bounded size: a FIFO would hang the build or
  // the program, /dev/zero would fill the memory, a directory would read
  // as an empty filter (io/regular_file.hpp).
  std::string text, why;
  if (!io::read_regular_file(path, io::kFilterFileLimit, text, &why)) {
    error = path + ": cannot read the filter file: " + why;
    return false;
  }
  return add_text(text, path, error);
}

bool Filter::add_text(std::string_view text, const std::string &path, std::string &error) {
  std::vector<std::string> lines = split_lines(text);
  try {
    reject_control_bytes(lines);
    // The syntax is recognised from the first line that is neither blank
    // nor a comment.
    int first = -1;
    for (size_t i = 0; i < lines.size() && first < 0; ++i) {
      std::string l = trim(lines[i]);
      if (!l.empty() && l[0] != '#') first = int(i);
    }
    if (first < 0) return true;  // empty: no rules
    std::string l = trim(lines[first]);
    if (l.rfind("BEGIN_", 0) == 0 || l.rfind("END_", 0) == 0) {
      auto set = std::make_unique<ListRules>();
      std::vector<LoopSelection> loops;
      parse_tau(lines, *set, loops);
      impl_->sets.push_back(std::move(set));
      impl_->loops.insert(impl_->loops.end(), loops.begin(), loops.end());
    } else if (l.rfind("SCOREP_", 0) == 0) {
      auto set = std::make_unique<OrderedRules>();
      parse_scorep(lines, *set);
      impl_->sets.push_back(std::move(set));
    } else if (l.rfind("include", 0) == 0 || l.rfind("exclude", 0) == 0 || l.rfind("count", 0) == 0) {
      auto set = std::make_unique<OrderedRules>();
      parse_hcc(lines, *set);
      impl_->sets.push_back(std::move(set));
    } else {
      throw ParseError{first + 1, "not a filter file: expected BEGIN_EXCLUDE_LIST/BEGIN_INCLUDE_LIST/"
                                  "BEGIN_FILE_… (TAU), SCOREP_REGION_NAMES_BEGIN/SCOREP_FILE_NAMES_BEGIN "
                                  "(Score-P) or include/exclude/count lines (hcc), found '" + l + "'"};
    }
  } catch (const ParseError &e) {
    error = path + ":" + std::to_string(e.line) + ": " + e.message;
    return false;
  }
  return true;
}

// A plain pattern (--hcc-include/--hcc-exclude, HCC_INCLUDE/HCC_EXCLUDE):
// trimmed, not empty, no control byte (the matcher's wildcards).
static bool plain_pattern(const std::string &pattern, const char *kind, std::string &p, std::string &error) {
  p = trim(pattern);
  if (p.empty()) {
    error = std::string("empty ") + kind + " pattern";
    return false;
  }
  for (char c : p)
    if (is_control(static_cast<unsigned char>(c))) {
      error = std::string(kind) + " pattern: " + control_message(c);
      return false;
    }
  return true;
}

ListRules &Filter::Impl::plain_set() {
  if (!plain) {
    auto set = std::make_unique<ListRules>();
    plain = set.get();
    sets.push_back(std::move(set));
  }
  return *plain;
}

bool Filter::add_include(const std::string &pattern, std::string &error) {
  std::string p;
  if (!plain_pattern(pattern, "include", p, error)) return false;
  ListRules &set = impl_->plain_set();
  set.has_incl = true;
  set.incl.push_back(make_name_pattern(p, Wildcards::Shell, false));
  return true;
}

bool Filter::add_exclude(const std::string &pattern, std::string &error) {
  std::string p;
  if (!plain_pattern(pattern, "exclude", p, error)) return false;
  impl_->plain_set().excl.push_back(make_name_pattern(p, Wildcards::Shell, false));
  return true;
}

bool Filter::add_count(const std::string &pattern, std::string &error) {
  std::string p;
  if (!plain_pattern(pattern, "count", p, error)) return false;
  impl_->plain_set().count.push_back(make_name_pattern(p, Wildcards::Shell, false));
  return true;
}

bool Filter::empty() const { return impl_->sets.empty() && impl_->loops.empty(); }

bool Filter::excludes(const Region &r) const {
  if (impl_->sets.empty()) return false;
  Subject s(r);
  for (const auto &set : impl_->sets)
    if (set->excludes(s)) return true;
  return false;
}

bool Filter::includes_by_name(const Region &r) const {
  if (impl_->sets.empty() || excludes(r)) return false;
  Subject s(r);
  for (const auto &set : impl_->sets)
    if (set->names(s)) return true;
  return false;
}

bool Filter::counts(const Region &r) const {
  if (impl_->sets.empty() || excludes(r)) return false;
  Subject s(r);
  for (const auto &set : impl_->sets)
    if (set->counts(s)) return true;
  return false;
}

bool Filter::excludes_file(std::string_view file) const {
  for (const auto &set : impl_->sets)
    if (set->excludes_file(file)) return true;
  return false;
}

bool Filter::wants_loops(const Region &r) const {
  if (impl_->loops.empty()) return false;
  Subject s(r);
  for (const LoopSelection &l : impl_->loops) {
    if (!l.file.empty() && !match_file(make_file_pattern(l.file, Wildcards::Shell), r.file)) continue;
    if (match_name(make_name_pattern(l.routine, Wildcards::Tau, false), s)) return true;
  }
  return false;
}

const std::vector<LoopSelection> &Filter::loop_selections() const { return impl_->loops; }

}  // namespace hcc::filter
