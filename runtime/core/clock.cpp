// hcc runtime — clock choice and TSC calibration (see clock.hpp).
#include "clock.hpp"

#include <cstdio>
#include <cstring>

namespace hcc::rt {

bool g_clock_is_tsc = false;

namespace {

struct Pair {
  uint64_t tsc;
  uint64_t ns;
};

Pair g_start{0, 0};

// One (tsc, monotonic) pair. The monotonic read is bracketed by two TSC
// reads and the tightest of a few tries is kept, so a preemption between the
// reads does not skew the rate.
Pair take_pair() {
#if !defined(__x86_64__)
  return Pair{0, monotonic_ns()};
#else
  Pair best{0, 0};
  uint64_t best_gap = UINT64_MAX;
  for (int i = 0; i < 5; ++i) {
    uint64_t a = __builtin_ia32_rdtsc();
    uint64_t ns = monotonic_ns();
    uint64_t b = __builtin_ia32_rdtsc();
    if (b - a < best_gap) {
      best_gap = b - a;
      best = Pair{a + (b - a) / 2, ns};
    }
  }
  return best;
#endif
}

}  // namespace

bool tsc_usable() {
#if defined(__x86_64__)
  FILE *f = std::fopen("/proc/cpuinfo", "r");
  if (!f) return false;
  // The first "flags" line is enough: the kernel only sets these two flags
  // when every CPU has them. Read line by line and stopped there, not whole
  // (io/regular_file.hpp): this runs at every program's start, and on a
  // node with hundreds of CPUs the whole file is a megabyte the kernel
  // generates; it is the kernel's own file, not a path anyone hands us.
  char line[8192];
  bool constant = false, nonstop = false;
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, "flags", 5) != 0) continue;
    for (char *tok = std::strtok(line, " \t\n"); tok; tok = std::strtok(nullptr, " \t\n")) {
      if (std::strcmp(tok, "constant_tsc") == 0) constant = true;
      if (std::strcmp(tok, "nonstop_tsc") == 0) nonstop = true;
    }
    break;
  }
  std::fclose(f);
  return constant && nonstop;
#else
  return false;
#endif
}

std::string clock_init(ClockRequest req) {
  std::string warning;
  bool usable = tsc_usable();
  if (req == ClockRequest::Tsc && !usable)
    warning = "hcc: warning: HCC_CLOCK=tsc but this CPU has no constant, nonstop TSC; using CLOCK_MONOTONIC";
  g_clock_is_tsc = usable && req != ClockRequest::Monotonic;
  if (g_clock_is_tsc) g_start = take_pair();
  return warning;
}

double clock_seconds_per_tick() {
  if (!g_clock_is_tsc) return 1e-9;
  constexpr uint64_t kMinSpanNs = 20'000'000;  // 20 ms: rate error ~1e-6
  Pair end = take_pair();
  while (end.ns - g_start.ns < kMinSpanNs) end = take_pair();
  return double(end.ns - g_start.ns) * 1e-9 / double(end.tsc - g_start.tsc);
}

const char *clock_name() { return g_clock_is_tsc ? "tsc" : "CLOCK_MONOTONIC"; }

std::string clock_describe(double seconds_per_tick) {
  if (!g_clock_is_tsc) return "CLOCK_MONOTONIC (ns)";
  char buf[64];
  std::snprintf(buf, sizeof buf, "tsc (%.3f MHz, calibrated)", 1e-6 / seconds_per_tick);
  return buf;
}

}  // namespace hcc::rt
