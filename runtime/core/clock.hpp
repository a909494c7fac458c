// hcc runtime — the clock every event reads.
//
// Two rdtsc reads are the floor of an enter+exit pair, so the clock is an
// inline function on a global flag decided once at start-up: `rdtsc` when the
// TSC ticks at a constant rate on every core (constant_tsc + nonstop_tsc),
// else CLOCK_MONOTONIC in nanoseconds. Ticks become seconds only when a rate
// is asked for (at the end, for a snapshot, ...), from a (tsc, monotonic)
// pair taken at start-up and one taken then: nothing waits at start-up.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>

namespace hcc::rt {

// Written once by clock_init() before the first thread state exists; only
// read afterwards (so reading it on the hot path is not a shared write).
extern bool g_clock_is_tsc;

inline uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

__attribute__((always_inline)) inline uint64_t clock_now() {
#if defined(__x86_64__)
  if (__builtin_expect(g_clock_is_tsc, 1)) return __builtin_ia32_rdtsc();
#endif
  return monotonic_ns();
}

enum class ClockRequest { Auto, Tsc, Monotonic };

// True on x86-64 when /proc/cpuinfo lists constant_tsc and nonstop_tsc.
bool tsc_usable();

// Chooses the clock and takes the first calibration pair. Returns a warning
// line when the request cannot be honoured (HCC_CLOCK=tsc without a usable
// TSC), else "".
std::string clock_init(ClockRequest req);

// Seconds per tick, from the init pair and a pair taken now (the run so far;
// no waiting). A span too short to measure (its reads' uncertainty above
// 1e-4 of it) takes the frequency the CPU or hypervisor states (CPUID 0x15,
// leaf 0x40000010) where there is one, else is extended to 1e-3 (~50 us).
double clock_seconds_per_tick();

// "tsc" or "CLOCK_MONOTONIC", and a readable description with the rate.
const char *clock_name();
std::string clock_describe(double seconds_per_tick);

}  // namespace hcc::rt
