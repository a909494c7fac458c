// The default throttling's test program (throttle_e2e_test.cpp): a tiny
// function called from two callers, far past 100 000 calls; a heavier
// function called 120 000 times whose calls take several microseconds; a
// tiny recursive function past 100 000 visits, and a tiny leaf it calls at
// the bottom of each recursion (so inside libhcc's recursion mode) past
// 100 000 calls. Between its two phases the
// program sleeps in short naps, so the runtime's deciding thread, which
// first wakes 10 ms after start, gets its turns even on a busy machine.
// Prints a checksum that does not depend on measurement.
#include <time.h>

#include <cstdio>

namespace {
volatile unsigned sink_ = 0;
}

unsigned tiny(unsigned x) { return x * 2654435761u + 1u; }

unsigned heavy(unsigned x) {
  unsigned h = x;
  for (int i = 0; i < 4000; ++i) h = h * 31u + unsigned(i);
  return h;
}

unsigned rec_leaf(unsigned x) { return x * 7u + 3u; }

unsigned rec(unsigned depth, unsigned x) { return depth == 0 ? rec_leaf(x) : rec(depth - 1, x ^ depth) * 3u; }

unsigned caller_a(long n, unsigned s) {
  for (long i = 0; i < n; ++i) s = tiny(s);
  return s;
}

unsigned caller_b(long n, unsigned s) {
  for (long i = 0; i < n; ++i) s = tiny(s ^ 5u);
  return s;
}

void nap_ms(int ms) {
  for (int i = 0; i < ms; ++i) {
    timespec t{0, 1000000L};
    nanosleep(&t, nullptr);
  }
}

int main() {
  unsigned s = 1;
  // Phase 1: every function past 100 000 visits.
  s = caller_a(200000, s);
  s = caller_b(100000, s);
  for (int i = 0; i < 60000; ++i) s ^= heavy(s + unsigned(i));
  for (int i = 0; i < 110000; ++i) s ^= rec(3, s + unsigned(i));
  nap_ms(400);
  // Phase 2: more of the same, after the deciding thread has looked.
  s = caller_a(1800000, s);
  s = caller_b(900000, s);
  for (int i = 0; i < 60000; ++i) s ^= heavy(s + unsigned(i));
  for (int i = 0; i < 110000; ++i) s ^= rec(3, s + unsigned(i));
  sink_ = s;
  std::printf("checksum %u\n", s);
  return 0;
}
