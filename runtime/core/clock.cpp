// hcc runtime — clock choice and TSC calibration (see clock.hpp).
#include "clock.hpp"

#include <atomic>
#include <cstdio>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace hcc::rt {

bool g_clock_is_tsc = false;

namespace {

// One (tsc, monotonic) pair. The monotonic read is bracketed by two TSC
// reads and the tightest of a few tries is kept, so a preemption between the
// reads does not skew the rate; `gap` (ticks between the brackets) bounds
// how far the pair's tsc can be from the instant the monotonic clock read.
struct Pair {
  uint64_t tsc;
  uint64_t ns;
  uint64_t gap;
};

Pair g_start{0, 0, 0};
double g_nominal_spt = 0;  // seconds per tick the CPU or hypervisor states; 0 = unknown
// Whether the last rate handed out was the stated one (for clock_describe,
// which the profile writer calls right after clock_seconds_per_tick).
std::atomic<bool> g_last_was_stated{false};

Pair take_pair() {
#if !defined(__x86_64__)
  return Pair{0, monotonic_ns(), 0};
#else
  Pair best{0, 0, UINT64_MAX};
  for (int i = 0; i < 5; ++i) {
    uint64_t a = __builtin_ia32_rdtsc();
    uint64_t ns = monotonic_ns();
    uint64_t b = __builtin_ia32_rdtsc();
    if (b - a < best.gap) best = Pair{a + (b - a) / 2, ns, b - a};
  }
  return best;
#endif
}

// The TSC frequency as the hardware or the hypervisor states it, in Hz, or 0.
// Intel: CPUID 0x15 (TSC/crystal ratio and the crystal's frequency; only when
// the crystal frequency is filled in). Hypervisors that follow VMware's
// timing leaf (VMware, KVM/QEMU with a fixed tsc-frequency): 0x40000010
// EAX, in kHz. Neither is guessed from a model table or from /proc/cpuinfo's
// "cpu MHz", which is the current core clock where cpufreq runs.
double stated_tsc_hz() {
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_max(0, nullptr) >= 0x15) {
    __cpuid_count(0x15, 0, a, b, c, d);
    if (a && b && c) return double(c) * double(b) / double(a);
  }
  __cpuid(1, a, b, c, d);
  if (c & (1u << 31)) {  // running under a hypervisor
    __cpuid(0x40000000, a, b, c, d);
    if (a >= 0x40000010) {
      __cpuid(0x40000010, a, b, c, d);
      if (a) return double(a) * 1e3;
    }
  }
#endif
  return 0;
}

// A measured span's relative uncertainty is its two bracket gaps over its
// length. Above kStatedBelow the stated frequency (good to a few 1e-5:
// NTP's correction of CLOCK_MONOTONIC) is the better rate. Without one, a
// span is extended until its uncertainty is kMaxRelError (about 50 us of span
// with the vDSO's clock_gettime), or at most to kLongSpanNs, the fixed span
// the calibration once always waited for, should the reads be that slow.
constexpr double kStatedBelow = 1e-4;
constexpr double kMaxRelError = 1e-3;
constexpr uint64_t kLongSpanNs = 20'000'000;

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
  if (g_clock_is_tsc) {
    g_start = take_pair();
    const double hz = stated_tsc_hz();
    g_nominal_spt = hz > 0 ? 1.0 / hz : 0;
  }
  return warning;
}

// The span from the start pair to now is the calibration: at the end of the
// run it is the run itself, so a run of any length costs no waiting, and
// converting the whole run is off by (rate error x run length), i.e. about
// the two bracket gaps: tens of nanoseconds, however short the run. Only a
// span so short that its gaps exceed 1e-4 of it takes the stated frequency
// instead where there is one (e.g. HCC_THROTTLE converting its bound at
// start-up); without one, such a span is extended to 1e-3, some 50 us.
double clock_seconds_per_tick() {
  if (!g_clock_is_tsc) return 1e-9;
  auto rel_error = [](const Pair &end) {
    const uint64_t ticks = end.tsc - g_start.tsc;
    return ticks == 0 || end.ns <= g_start.ns ? 1.0 : double(g_start.gap + end.gap) / double(ticks);
  };
  Pair end = take_pair();
  const bool stated = rel_error(end) > kStatedBelow && end.ns - g_start.ns < kLongSpanNs && g_nominal_spt > 0;
  g_last_was_stated.store(stated, std::memory_order_relaxed);
  if (stated) return g_nominal_spt;
  while (rel_error(end) > kMaxRelError && end.ns - g_start.ns < kLongSpanNs) end = take_pair();
  return double(end.ns - g_start.ns) * 1e-9 / double(end.tsc - g_start.tsc);
}

const char *clock_name() { return g_clock_is_tsc ? "tsc" : "CLOCK_MONOTONIC"; }

std::string clock_describe(double seconds_per_tick) {
  if (!g_clock_is_tsc) return "CLOCK_MONOTONIC (ns)";
  char buf[64];
  std::snprintf(buf, sizeof buf, "tsc (%.3f MHz, %s)", 1e-6 / seconds_per_tick,
                g_last_was_stated.load(std::memory_order_relaxed) ? "stated by the CPU" : "calibrated");
  return buf;
}

}  // namespace hcc::rt
