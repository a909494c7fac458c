// A program instrumented by hand, run by process_test.cpp with different
// HCC_* settings: `hcc_rt_probe <mode>`. Each mode ends the process in a
// different way (return, exit deep inside, uncaught exception, signals).
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "core/testing.hpp"
#include "hcc/detail/inject.h"

#define REGION(var, name) \
  static hcc_region_desc var = {name, nullptr, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0}

namespace {

REGION(main_r, "probe_main");
REGION(a_r, "a");
REGION(b_r, "b");
REGION(c_r, "c");
REGION(rec_r, "rec");
REGION(thrower_r, "thrower");
REGION(faulter_r, "faulter");
REGION(dtor_r, "static_dtor");
REGION(atexit_r, "atexit_handler");

uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

void spin_ms(double ms) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(ms);
  while (std::chrono::steady_clock::now() < end) {
  }
}

void b() {
  HCC_FUNCTION_GUARD_(g, &b_r);
  spin_ms(5);
}
void c() { HCC_FUNCTION_GUARD_(g, &c_r); }
void a() {
  HCC_FUNCTION_GUARD_(g, &a_r);
  b();
  c();
}

void rec(int n) {
  HCC_FUNCTION_GUARD_(g, &rec_r);
  if (n > 1) rec(n - 1);
}

// A recursion through two regions (a and b, 20 us of their own each),
// each calling c() once per level: ping(9) is a 5 times, b 4, c 9.
void pong(int n);
void ping(int n) {
  HCC_FUNCTION_GUARD_(g, &a_r);
  spin_ms(0.02);
  c();
  if (n > 1) pong(n - 1);
}
void pong(int n) {
  HCC_FUNCTION_GUARD_(g, &b_r);
  spin_ms(0.02);
  c();
  ping(n - 1);
}

[[noreturn]] void exit_deep() {
  HCC_FUNCTION_GUARD_(ga, &a_r);
  HCC_FUNCTION_GUARD_(gb, &b_r);
  std::exit(3);
}

void thrower() {
  HCC_FUNCTION_GUARD_(g, &thrower_r);
  throw std::runtime_error("nobody catches this");
}

// The fault is the point: UBSan (scripts/test-sanitized.sh) must let it
// happen instead of reporting the null store.
__attribute__((no_sanitize("undefined"))) void faulter() {
  HCC_FUNCTION_GUARD_(g, &faulter_r);
  volatile int *null = nullptr;
  *null = 1;
}

struct WithInstrumentedDestructor {
  bool armed = false;
  ~WithInstrumentedDestructor() {
    if (!armed) return;
    HCC_FUNCTION_GUARD_(g, &dtor_r);
  }
} static_object;

void on_exit_handler() { HCC_FUNCTION_GUARD_(g, &atexit_r); }

void own_handler(int) {
  const char msg[] = "own handler\n";
  (void)!write(2, msg, sizeof msg - 1);
  _exit(7);
}

}  // namespace

int main(int argc, char **argv) {
  std::string mode = argc > 1 ? argv[1] : "calls";
  if (mode == "none") return 0;  // links libhcc, never enters a region
  if (mode == "own_handler") signal(SIGTERM, own_handler);  // before the first event
  int counter = -1;
  if (mode == "extra") counter = hcc::rt::testing::register_extra_metric("test_counter", true);

  HCC_FUNCTION_GUARD_(g, &main_r);
  if (mode == "empty") {
    // one region and nothing else: start-up and exit are all there is
  } else if (mode == "span") {
    // a: 60 ms asleep, as CLOCK_MONOTONIC measures it inside the region.
    HCC_FUNCTION_GUARD_(ga, &a_r);
    const uint64_t t0 = monotonic_ns();
    timespec ts{0, 60000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
    std::fprintf(stderr, "span_ns %llu\n", static_cast<unsigned long long>(monotonic_ns() - t0));
  } else if (mode == "libraries") {
    // While the program runs: which of the CUBE writer's libraries are mapped.
    FILE *maps = std::fopen("/proc/self/maps", "r");
    if (!maps) return 12;
    char line[4096];
    std::string seen;
    while (std::fgets(line, sizeof line, maps))
      for (const char *lib : {"libhcc_cubex.so", "libxml2.so", "libarchive.so", "libicuuc.so"})
        if (std::strstr(line, lib) && seen.find(lib) == std::string::npos) seen += std::string(" ") + lib;
    std::fclose(maps);
    std::fprintf(stderr, "mapped while running:%s\n", seen.c_str());
  } else if (mode == "calls") a();
  else if (mode == "deep") rec(20);
  else if (mode == "pingpong")
    for (int i = 0; i < 200; ++i) ping(9);  // a 1000 calls, b 800, c 1800
  else if (mode == "exit") exit_deep();
  else if (mode == "throw") thrower();
  else if (mode == "segv") faulter();
  else if (mode == "sigint") {
    HCC_FUNCTION_GUARD_(ga, &a_r);
    raise(SIGINT);
  } else if (mode == "own_handler") {
    HCC_FUNCTION_GUARD_(ga, &a_r);
    raise(SIGTERM);
  } else if (mode == "static") {
    static_object.armed = true;
    std::atexit(on_exit_handler);
  } else if (mode == "extra") {
    if (counter != 0) return 10;
    hcc_enter(&a_r);
    hcc::rt::testing::add_to_extra_counter(0, 10);  // a: 10 inclusive
    hcc_enter(&b_r);
    hcc::rt::testing::add_to_extra_counter(0, 4);  // b (inside a): 4
    hcc_exit(&b_r);
    hcc_exit(&a_r);
    if (hcc::rt::testing::register_extra_metric("too_late", true) != -1) return 11;
  } else {
    std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
    return 2;
  }
  return 0;
}
