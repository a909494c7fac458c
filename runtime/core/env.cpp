// hcc runtime — HCC_* parsing (see env.hpp).
//
// To add a variable: add one row to kVariables (name, default shown in
// messages, purpose, and a parser that stores into Settings, or nullptr when
// another part of hcc reads it). Everything else follows from the table.
#include "env.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hcc::rt {

namespace {

// Returns "" when `value` is accepted, else the reason ("is not ...").
using Parser = std::string (*)(const char *value, Settings &s);

struct Variable {
  const char *name;
  const char *default_text;
  const char *purpose;
  Parser parse;  // nullptr: known, but read by another part of hcc
};

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

std::string parse_signals(const char *v, Settings &s) {
  if (std::strcmp(v, "0") == 0) s.signals = false;
  else if (std::strcmp(v, "1") == 0) s.signals = true;
  else return "is not 0 or 1";
  return "";
}

std::string parse_overwrite(const char *v, Settings &s) {
  if (std::strcmp(v, "0") == 0) s.overwrite = false;
  else if (std::strcmp(v, "1") == 0) s.overwrite = true;
  else return "is not 0 or 1";
  return "";
}

std::string parse_cfg(const char *v, Settings &s) {
  if (std::strcmp(v, "on") == 0 || std::strcmp(v, "1") == 0) s.cfg = true;
  else if (std::strcmp(v, "off") == 0 || std::strcmp(v, "0") == 0) s.cfg = false;
  else return "is not on or off";
  return "";
}

std::string parse_clock(const char *v, Settings &s) {
  if (std::strcmp(v, "auto") == 0) s.clock = ClockRequest::Auto;
  else if (std::strcmp(v, "tsc") == 0) s.clock = ClockRequest::Tsc;
  else if (std::strcmp(v, "monotonic") == 0) s.clock = ClockRequest::Monotonic;
  else return "is not auto, tsc or monotonic";
  return "";
}

// THE table of HCC_* names. Unknown HCC_* variables draw a warning.
const Variable kVariables[] = {
    {"HCC_OUTPUT_DIR", "a new ./hcc-<program>-<date>_<time>", "directory for profile.cubex and summary.txt (created; an earlier run's profile there is kept, this run's goes beside it as profile-N.cubex)", parse_output_dir},
    {"HCC_OVERWRITE", "0", "1: replace the profile an earlier run left in HCC_OUTPUT_DIR instead of writing beside it", parse_overwrite},
    {"HCC_VERBOSE", "1", "0: silent unless something fails; 1: one line naming the profile; 2: details", parse_verbose},
    {"HCC_MAX_DEPTH", "1024", "deepest call path recorded; deeper calls go to one artificial node", parse_max_depth},
    {"HCC_SIGNALS", "1", "0: do not install the write-the-profile-on-fatal-signal handlers", parse_signals},
    {"HCC_CLOCK", "auto", "auto, tsc or monotonic", parse_clock},
    {"HCC_CFG", "on", "off: keep no predecessor lists (control flow, hcc-report --cfg); on: count per call path and thread which call path ran just before", parse_cfg},
    // Read by the counter service (runtime/counters), which validates them itself.
    {"HCC_METRICS", "(none: time and visits only)", "comma-separated PAPI preset or native event names (perf:: events also without PAPI) counted per call path", nullptr},
    {"HCC_METRICS_SOURCE", "auto", "auto: PAPI, else perf_event_open directly; papi or perf: only that source", nullptr},
    {"HCC_METRICS_MULTIPLEX", "0", "1: multiplex the HCC_METRICS events (values become estimates)", nullptr},
    {"HCC_METRICS_STRICT", "0", "1: a bad HCC_METRICS event stops the program (exit status 1) at its first event", nullptr},
    // Read by the tracer (runtime/trace) and the snapshot writer (runtime/snapshot), which validate them.
    {"HCC_TRACE", "0", "1: write an OTF2 trace (traces.otf2, traces.def, traces/) next to the profile", nullptr},
    {"HCC_TRACE_BUFFER", "4M", "event buffer per thread (bytes, or with K/M/G); flushed to disk when full", nullptr},
    {"HCC_TRACE_SELECT", "(none: every region)", "comma-separated regions: trace only inside the call subtrees they start", nullptr},
    // Read by gmon_out.cpp at the end of the run, which reports a bad value itself.
    {"HCC_GPROF", "0", "1: also write gmon.out (gmon.out.rank-<r> per MPI rank) for GNU gprof: our call counts and exclusive times", nullptr},
    {"HCC_SNAPSHOT", "(off)", "SECONDS: write snapshot.cubex, the profile so far, every SECONDS while the program runs", nullptr},
    // Read by the sampler (runtime/sampling), which validates them.
    {"HCC_SAMPLING", "off", "on (200 Hz), off, or a rate in Hz (1..10000): sample every thread's call path on its CPU time, unwinding below the innermost instrumented function", nullptr},
    {"HCC_MPI_UNWIND", "on", "with HCC_SAMPLING: on, off or exclude:MPI_Send,...: MPI calls find their caller's call path by unwinding from the wrapper", nullptr},
    // Read by the MPI wrappers (libhcc_mpi.so, wrappers/).
    {"HCC_MPI_GROUPS", "DEFAULT", "MPI function groups measured (CG COLL ENV ERR EXT IO MISC P2P RMA SPAWN TOPO TYPE XNONBLOCK XREQTEST, ALL, DEFAULT, -GROUP)", nullptr},
    // Read by the selective-measurement service (selection.cpp), which reports bad values itself.
    {"HCC_FILTER", "(none)", "TAU select file, Score-P filter file or hcc filter: excluded regions are not recorded", nullptr},
    {"HCC_INCLUDE", "(none)", "comma-separated name patterns (* ?): record only regions they match", nullptr},
    {"HCC_EXCLUDE", "(none)", "comma-separated name patterns (* ?): do not record regions they match", nullptr},
    {"HCC_SELECT", "(none)", "comma-separated regions: record only inside the call subtrees they start", nullptr},
    {"HCC_PRUNE", "(none)", "comma-separated regions: record them, but nothing called below them", nullptr},
    {"HCC_THROTTLE", "(off)", "CALLS:USEC: stop recording a region after CALLS calls if its mean time per call is under USEC", nullptr},
    // Read by the `hcc` compiler driver, not by the runtime.
    {"HCC_COMPILER", "(by source language)", "compiler under hcc (driver)", nullptr},
    {"HCC_WRAPPER", "on", "off: hcc passes everything through (driver)", nullptr},
    {"HCC_INSTRUMENTOR", "(installed)", "command that rewrites sources (driver)", nullptr},
    {"HCC_CACHE", "on", "off: hcc-instrument neither reads nor writes its result cache (driver)", nullptr},
    {"HCC_CACHE_DIR", "$XDG_CACHE_HOME/hcc or ~/.cache/hcc", "where hcc-instrument caches rewritten files (driver)", nullptr},
    {"HCC_CACHE_MAX_MB", "(see instrumentor/README.md)", "size bound of hcc-instrument's result cache (driver)", nullptr},
    {"HCC_SERVER", "on", "off: hcc starts hcc-instrument for every file instead of using its instrumentation server (driver)", nullptr},
    {"HCC_SERVER_IDLE", "120", "seconds without a request after which the instrumentation server ends (driver)", nullptr},
    {"HCC_DRIVER_DEPTH", "0", "nesting guard the driver sets for the compiler it runs (driver)", nullptr},
    // Read by the build and test scripts; often exported in a developer's shell.
    {"HCC_BUILD_DIR", "./build", "build tree of scripts/build.sh and scripts/test.sh", nullptr},
    {"HCC_PREFIX", "./install", "install prefix of scripts/build.sh", nullptr},
    {"HCC_CUBELIB_BIN", "(none)", "CubeLib tools for the CUBE compatibility tests", nullptr},
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
    const Variable *known = nullptr;
    for (const Variable &v : kVariables)
      if (name == v.name) known = &v;
    if (!known) {
      std::string msg = "hcc: warning: unknown environment variable " + name + " ignored";
      const Variable *best = nullptr;
      size_t best_d = 3;  // suggest only close names
      for (const Variable &v : kVariables) {
        size_t d = edit_distance(name, v.name);
        if (d < best_d) best_d = d, best = &v;
      }
      if (best) msg += std::string(" (did you mean ") + best->name + "?)";
      r.messages.push_back(msg);
      continue;
    }
    if (!known->parse) continue;
    std::string why = known->parse(value, r.settings);
    if (!why.empty())
      r.messages.push_back("hcc: error: " + name + "='" + value + "' " + why + "; using " + known->default_text);
  }
  return r;
}

std::vector<KnownVariable> known_variables() {
  std::vector<KnownVariable> out;
  for (const Variable &v : kVariables) out.push_back({v.name, v.default_text, v.purpose});
  return out;
}

const Settings &settings() { return g_settings(); }
Settings &settings_for_testing() { return g_settings(); }

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
