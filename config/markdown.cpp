// hcc config — the table as Markdown (markdown.hpp).
#include "config/markdown.hpp"

#include <sstream>
#include <vector>

#include "config/config.hpp"

namespace hcc::config {

namespace {

// "auto|tsc|monotonic" -> "`auto`, `tsc` or `monotonic`".
std::string words(const char *bar_separated) {
  std::vector<std::string> w;
  std::string cur;
  for (const char *p = bar_separated;; ++p) {
    if (*p == '|' || *p == '\0') {
      if (!cur.empty()) w.push_back("`" + cur + "`");
      cur.clear();
      if (!*p) break;
    } else {
      cur += *p;
    }
  }
  std::string s;
  for (size_t i = 0; i < w.size(); ++i) s += (i == 0 ? "" : i + 1 == w.size() ? " or " : ", ") + w[i];
  return s;
}

// "(none)" -> "none"; "4M" -> "`4M`"; words ("a new ./hcc-...") as they are.
std::string default_cell(const char *d) {
  const std::string s = d;
  if (!s.empty() && s.front() == '(' && s.back() == ')') return s.substr(1, s.size() - 2);
  if (s.find(' ') != std::string::npos) return s;
  return "`" + s + "`";
}

std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// [begin, end) line indexes of the generated section, or false.
bool section(const std::vector<std::string> &lines, size_t &begin, size_t &end) {
  begin = end = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] == kBeginMarker) begin = i + 1;
    else if (lines[i] == kEndMarker && begin != lines.size()) {
      end = i;
      return true;
    }
  }
  return false;
}

}  // namespace

std::string accepted_text(const Variable &v) {
  const std::string extra = *v.choices ? words(v.choices) + " or " : "";
  switch (v.type) {
    case Type::Switch: return "on/off";
    case Type::Unsigned: return extra + "an integer " + range_text(v);
    case Type::Size: return extra + "a size " + range_text(v);
    case Type::Seconds: return extra + "seconds " + range_text(v);
    case Type::Choice: return words(v.choices);
    case Type::List: return "a comma-separated list";
    case Type::Text: return *v.choices ? words(v.choices) : "text";
  }
  return "";
}

std::string markdown_table() {
  std::string s = "| variable | default | accepts | read by | meaning |\n|---|---|---|---|---|\n";
  for (const Variable *v = table_begin(); v != table_end(); ++v)
    s += std::string("| `") + v->name + "` | " + default_cell(v->default_text) + " | " + accepted_text(*v) +
         " | " + reader_name(v->reader) + " | " + v->doc + " |\n";
  return s;
}

std::string compare_section(const std::string &document) {
  const std::vector<std::string> doc = lines_of(document), want = lines_of(markdown_table());
  size_t b, e;
  if (!section(doc, b, e)) return std::string("no section between the lines ") + kBeginMarker + " and " + kEndMarker;
  for (size_t i = 0; i < want.size() || b + i < e; ++i) {
    const std::string have = b + i < e ? doc[b + i] : "(the section ends)";
    const std::string should = i < want.size() ? want[i] : "(the table ends)";
    if (have != should)
      return "line " + std::to_string(b + i + 1) + " is\n  " + have + "\nbut the table gives\n  " + should;
  }
  return "";
}

std::string replace_section(const std::string &document) {
  const std::vector<std::string> doc = lines_of(document);
  size_t b, e;
  if (!section(doc, b, e)) return "";
  std::string out;
  for (size_t i = 0; i < b; ++i) out += doc[i] + "\n";
  out += markdown_table();
  for (size_t i = e; i < doc.size(); ++i) out += doc[i] + "\n";
  return out;
}

}  // namespace hcc::config
