// A region's name as one filter line, read back before it is written (see
// filter_lines.hpp).
#include "filter_lines.hpp"

#include <cctype>

#include "filter/filter.hpp"

namespace hcc::report {

namespace {

// What the filter parser refuses anywhere in a file, comments included
// (filter/README.md, "Errors"): bytes below 0x20 but the tab, and 0x7f.
bool is_control(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; }

bool has_control(const std::string &s) {
  for (char c : s)
    if (is_control(static_cast<unsigned char>(c))) return true;
  return false;
}

bool has_blank(const std::string &s) {
  for (char c : s)
    if (std::isspace(static_cast<unsigned char>(c))) return true;
  return false;
}

// Escapes the shell wildcards of hcc and Score-P patterns so a name matches
// only itself (`f(int *)` must not become `f(int <anything>)`).
std::string escape_glob(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '*' || c == '?' || c == '[' || c == '\\' || c == '#') out += '\\';
    out += c;
  }
  return out;
}

// Score-P reads these words as keywords wherever they stand, so a region
// named `MANGLED` would end its own rule's patterns. The parser keeps an
// escape inside a word and resolves it in the pattern: `\MANGLED` is the
// pattern `MANGLED`.
std::string scorep_word(std::string w) {
  if (w == "INCLUDE" || w == "EXCLUDE" || w == "COUNT" || w == "MANGLED" || w == "DEMANGLED" ||
      w.rfind("SCOREP_", 0) == 0)
    w.insert(0, "\\");
  return w;
}

// Score-P: the linker name when there is one, else the qualified name (all
// its overloads); patterns are blank-separated words, so the blanks of a
// qualified name (`operator new`) become '?'.
std::string scorep_text(const char *verb, const std::string &name, const std::string &mangled) {
  if (!mangled.empty() && mangled != name) return std::string("  ") + verb + " MANGLED " + scorep_word(escape_glob(mangled)) + "\n";
  std::string w;
  for (char ch : escape_glob(hcc::filter::name_forms(name).qual)) w += std::isspace(static_cast<unsigned char>(ch)) ? '?' : ch;
  return std::string("  ") + verb + " " + scorep_word(w) + "\n";
}

// hcc's format: the rest of the line is the pattern, but one that starts
// with the word `file` would be a file rule; `\f` is a literal f.
std::string hcc_text(const char *verb, const std::string &name) {
  std::string p = escape_glob(hcc::filter::substitute_template_bindings(name));
  if (p.rfind("file", 0) == 0 && p.size() > 4 && std::isspace(static_cast<unsigned char>(p[4]))) p.insert(0, "\\");
  return std::string(verb) + " " + p + "\n";
}

// TAU: one routine per line; a leading '#' would be a comment, so quoted.
std::string tau_text(const std::string &name) {
  std::string n = hcc::filter::substitute_template_bindings(name);
  if (!n.empty() && n[0] == '#') n = "\"" + n + "\"";
  return n + "\n";
}

// A filter holding just `line`, as the build would read it.
std::string one_rule_filter(FilterSyntax syntax, const std::string &line) {
  switch (syntax) {
    case FilterSyntax::Tau: return "BEGIN_EXCLUDE_LIST\n" + line + "END_EXCLUDE_LIST\n";
    case FilterSyntax::ScoreP: return "SCOREP_REGION_NAMES_BEGIN\n" + line + "SCOREP_REGION_NAMES_END\n";
    case FilterSyntax::Hcc: break;
  }
  return line;
}

// Whether `line` parses, is one line, and leaves out (or counts) the region
// and neither `main` nor an unrelated region (what a name that became two
// patterns, or a pattern of its own choosing, would also hit).
bool reads_back(FilterSyntax syntax, const std::string &line, bool count, const std::string &name,
                const std::string &mangled) {
  if (line.find('\n') + 1 != line.size()) return false;
  hcc::filter::Filter f;
  std::string error;
  if (!f.add_text(one_rule_filter(syntax, line), "plan", error)) return false;
  const hcc::filter::Region region{name, mangled, ""};
  if (!(count ? f.counts(region) : f.excludes(region))) return false;
  static const hcc::filter::Region kOthers[] = {{"main", "main", ""},
                                                {"hcc_unrelated_region(int)", "_Z20hcc_unrelated_regioni", ""}};
  for (const auto &other : kOthers) {
    if (other.name == name && other.mangled == mangled) continue;
    if (f.excludes(other) || f.counts(other)) return false;
  }
  return true;
}

}  // namespace

FilterLine region_line(FilterSyntax syntax, const std::string &name, const std::string &mangled, bool count) {
  const bool by_linker_name = syntax == FilterSyntax::ScoreP && !mangled.empty() && mangled != name;
  const std::string &written = by_linker_name ? mangled : name;
  if (written.empty()) return {"", "an empty name"};
  if (has_control(written))
    return {"", by_linker_name ? "a control character in its linker name" : "a control character in its name"};
  if (by_linker_name && has_blank(written)) return {"", "a blank in its linker name"};
  const char *verb = syntax == FilterSyntax::Hcc ? (count ? "count" : "exclude") : (count ? "COUNT" : "EXCLUDE");
  const std::string line = syntax == FilterSyntax::ScoreP ? scorep_text(verb, name, mangled)
                           : syntax == FilterSyntax::Hcc  ? hcc_text(verb, name)
                                                          : tau_text(name);
  if (!reads_back(syntax, line, count, name, mangled))
    return {"", "the filter parser does not read its line back as that one region"};
  return {line, ""};
}

std::string comment_text(std::string s) {
  for (char &c : s)
    if (is_control(static_cast<unsigned char>(c))) c = '?';
  return s;
}

}  // namespace hcc::report
