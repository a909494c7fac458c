// hcc config — the typed accessors on this process's environment (the only
// getenv of HCC_* names in hcc; tests/config checks that).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "config/config.hpp"

namespace hcc::config {

namespace {

const Variable &row(const char *name) {
  const Variable *v = find(name);
  if (!v) {
    // A reader asked for a variable nobody declared: it would be warned
    // about as unknown and missing from the docs. Caught by the tests.
    std::fprintf(stderr, "hcc: internal error: %s is not in the configuration table (config/)\n", name);
    std::abort();
  }
  return *v;
}

}  // namespace

std::string shown(const char *value) {
  if (!value) return "";
  const std::string v(value);
  if (v.size() <= kShownLimit) return v;
  return v.substr(0, kShownLimit) + "... (" + std::to_string(v.size()) + " characters)";
}

const char *text(const char *name) { return std::getenv(row(name).name); }

const char *nonempty(const char *name) {
  const char *v = text(name);
  return v && *v ? v : nullptr;
}

bool flag(const char *name, const char *otherwise, bool fallback) {
  const char *v = nonempty(name);
  if (!v) return fallback;
  if (std::optional<bool> on = parse_switch(v)) return *on;
  std::fprintf(stderr, "hcc: error: %s='%s' is not %s; %s\n", name, shown(v).c_str(), switch_words(), otherwise);
  return fallback;
}

bool flag(const char *name, const char *otherwise) {
  return flag(name, otherwise, parse_switch(row(name).default_text).value_or(false));
}

std::optional<double> number(const char *name, const char *otherwise) {
  const Variable &r = row(name);
  const char *v = nonempty(name);
  if (!v) return std::nullopt;
  const Parsed p = parse_number(r, v);
  if (p.ok) return p.value;
  if (otherwise) std::fprintf(stderr, "hcc: error: %s='%s' %s; %s\n", name, shown(v).c_str(), p.why.c_str(), otherwise);
  return std::nullopt;
}

}  // namespace hcc::config
