// hcc-config-doc — the configuration table for people and for checks:
//   hcc-config-doc markdown           the environment table (docs/running.md)
//   hcc-config-doc names              every HCC_* name, one a line
//   hcc-config-doc update FILE        rewrite FILE's generated section in place
//   hcc-config-doc check FILE         exit 1 when FILE's section differs
//   hcc-config-doc check-names FILE   exit 1 when FILE names an HCC_* variable the table lacks
// Built in the tree only (scripts/gen-env-doc.sh and tests/config use it).
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

#include "config/config.hpp"
#include "config/markdown.hpp"

namespace {

bool read(const std::string &path, std::string &text) {
  std::ifstream in(path);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

int usage() {
  std::cerr << "usage: hcc-config-doc markdown | names | update FILE | check FILE | check-names FILE\n";
  return 2;
}

// Every HCC_NAME in `text` (upper case, digits, '_'; a trailing '_' or '*'
// makes it a prefix such as "HCC_*", which is not a name).
std::set<std::string> mentioned(const std::string &text) {
  std::set<std::string> out;
  for (size_t p = 0; (p = text.find("HCC_", p)) != std::string::npos;) {
    const bool inside_word = p > 0 && (std::isalnum((unsigned char)text[p - 1]) || text[p - 1] == '_');
    size_t e = p + 4;
    while (e < text.size() && (std::isupper((unsigned char)text[e]) || std::isdigit((unsigned char)text[e]) || text[e] == '_')) ++e;
    if (!inside_word && e > p + 4 && text[e - 1] != '_' && (e == text.size() || text[e] != '*'))
      out.insert(text.substr(p, e - p));
    p = e;
  }
  return out;
}

}  // namespace

int main(int argc, char **argv) {
  using namespace hcc::config;
  if (argc < 2) return usage();
  const std::string cmd = argv[1];
  if (cmd == "markdown" && argc == 2) {
    std::cout << markdown_table();
    return 0;
  }
  if (cmd == "names" && argc == 2) {
    for (const Variable *v = table_begin(); v != table_end(); ++v) std::cout << v->name << "\n";
    return 0;
  }
  if (argc != 3) return usage();
  const std::string path = argv[2];
  std::string text;
  if (!read(path, text)) {
    std::cerr << "hcc-config-doc: cannot read " << path << "\n";
    return 2;
  }
  if (cmd == "check") {
    const std::string why = compare_section(text);
    if (why.empty()) return 0;
    std::cerr << path << ": the environment table differs from the configuration table (config/, each part's "
              << "env_vars.def): " << why << "\nregenerate it with scripts/gen-env-doc.sh\n";
    return 1;
  }
  if (cmd == "update") {
    const std::string out = replace_section(text);
    if (out.empty()) {
      std::cerr << path << ": " << compare_section(text) << "\n";
      return 1;
    }
    std::ofstream(path) << out;
    return 0;
  }
  if (cmd == "check-names") {
    int bad = 0;
    for (const std::string &n : mentioned(text))
      if (!find(n)) {
        std::cerr << path << ": " << n << " is not in the configuration table (config/, the env_vars.def files)\n";
        ++bad;
      }
    return bad ? 1 : 0;
  }
  return usage();
}
