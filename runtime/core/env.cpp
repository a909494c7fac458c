// hcc runtime — HCC_* parsing (see env.hpp).
//
// The known names are config/'s table (each part declares its own in its
// env_vars.def); the ones that go into Settings are parsed here (kParsers).
#include "env.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "config/config.hpp"

namespace hcc::rt {

namespace {

// Returns "" when `value` is accepted, else the reason ("is not ...").
using Parser = std::string (*)(const char *value, Settings &s);

bool parse_uint(const char *v, unsigned long long max, unsigned long long &out) {
  if (*v < '0' || *v > '9') return false;  // no sign, no blanks
  errno = 0;
  char *end = nullptr;
  out = std::strtoull(v, &end, 10);
  return errno == 0 && *end == '\0' && out <= max;
}

std::string parse_output_dir(const char *v, Settings &s) {
  if (*v == '\0') return "is empty";
  s.output_dir = v;
  return "";
}

std::string parse_verbose(const char *v, Settings &s) {
  unsigned long long n;
  if (!parse_uint(v, 2, n)) return "is not 0, 1 or 2";
  s.verbose = int(n);
  return "";
}

std::string parse_max_depth(const char *v, Settings &s) {
  constexpr unsigned long long kMax = 1u << 24;  // 16 Mi frames = 256 MiB of stack
  unsigned long long n;
  if (!parse_uint(v, ~0ull, n) || n == 0) return "is not a positive integer";
  if (n > kMax) return "is larger than 16777216";
  s.max_depth = uint32_t(n);
  return "";
}

// The one on/off vocabulary (config/switch_words.cpp).
std::string parse_switch_into(const char *v, bool &out) {
  const std::optional<bool> on = config::parse_switch(v);
  if (!on) return std::string("is not ") + config::switch_words();
  out = *on;
  return "";
}
std::string parse_signals(const char *v, Settings &s) { return parse_switch_into(v, s.signals); }
std::string parse_overwrite(const char *v, Settings &s) { return parse_switch_into(v, s.overwrite); }
std::string parse_cfg(const char *v, Settings &s) { return parse_switch_into(v, s.cfg); }

std::string parse_clock(const char *v, Settings &s) {
  if (std::strcmp(v, "auto") == 0) s.clock = ClockRequest::Auto;
  else if (std::strcmp(v, "tsc") == 0) s.clock = ClockRequest::Tsc;
  else if (std::strcmp(v, "monotonic") == 0) s.clock = ClockRequest::Monotonic;
  else return "is not auto, tsc or monotonic";
  return "";
}

// The variables that go into Settings. Every other HCC_* name is in the
// table (config/, rows in each part's env_vars.def) and read by its part.
struct SettingsParser {
  const char *name;
  Parser parse;
};
const SettingsParser kParsers[] = {
    {"HCC_OUTPUT_DIR", parse_output_dir}, {"HCC_OVERWRITE", parse_overwrite},
    {"HCC_VERBOSE", parse_verbose},       {"HCC_MAX_DEPTH", parse_max_depth},
    {"HCC_SIGNALS", parse_signals},       {"HCC_CLOCK", parse_clock},
    {"HCC_CFG", parse_cfg},
};

size_t edit_distance(const std::string &a, const std::string &b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

// Created on first use and leaked: read during exit, after static
// destructors, and possibly before this library's own initialisers ran (an
// instrumented constructor of another library).
Settings &g_settings() {
  static Settings *s = new Settings;
  return *s;
}

}  // namespace

EnvResult parse_environment(const char *const *envp) {
  EnvResult r;
  for (const char *const *e = envp; e && *e; ++e) {
    const char *entry = *e;
    if (std::strncmp(entry, "HCC_", 4) != 0) continue;
    const char *eq = std::strchr(entry, '=');
    if (!eq) continue;
    std::string name(entry, eq);
    const char *value = eq + 1;
    const config::Variable *known = config::find(name);
    if (!known) {
      std::string msg = "hcc: warning: unknown environment variable " + name + " ignored";
      const config::Variable *best = nullptr;
      size_t best_d = 3;  // suggest only close names
      for (const config::Variable *v = config::table_begin(); v != config::table_end(); ++v) {
        size_t d = edit_distance(name, v->name);
        if (d < best_d) best_d = d, best = v;
      }
      if (best) msg += std::string(" (did you mean ") + best->name + "?)";
      r.messages.push_back(msg);
      continue;
    }
    for (const SettingsParser &p : kParsers) {
      if (name != p.name) continue;
      std::string why = p.parse(value, r.settings);
      if (!why.empty())
        r.messages.push_back("hcc: error: " + name + "='" + value + "' " + why + "; using " + known->default_text);
    }
  }
  return r;
}

std::vector<KnownVariable> known_variables() {
  std::vector<KnownVariable> out;
  for (const config::Variable *v = config::table_begin(); v != config::table_end(); ++v)
    out.push_back({v->name, v->default_text, v->doc});
  return out;
}

const Settings &settings() { return g_settings(); }
Settings &settings_to_change() { return g_settings(); }

void settings_init() {
  EnvResult r = parse_environment(environ);
  g_settings() = r.settings;
  for (const std::string &m : r.messages) std::fprintf(stderr, "%s\n", m.c_str());
}

std::vector<std::string> split_list(const char *v) {
  std::vector<std::string> out;
  std::string cur;
  for (const char *p = v;; ++p) {
    if (*p == ',' || *p == '\0') {
      size_t b = cur.find_first_not_of(" \t"), e = cur.find_last_not_of(" \t");
      if (b != std::string::npos) out.push_back(cur.substr(b, e - b + 1));
      cur.clear();
      if (*p == '\0') break;
    } else {
      cur += *p;
    }
  }
  return out;
}

}  // namespace hcc::rt
