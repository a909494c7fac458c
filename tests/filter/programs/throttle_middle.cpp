// The middle of a call chain throttled (throttle_e2e_test.cpp): main calls
// `mid` (tiny, so the default throttling stops timing it past 100 000
// visits), and every 16th call of mid calls `leaf` (a few hundred
// operations, too few visits to be throttled). Every path the program takes
// is main → mid → leaf; before throttling kept a throttled function's frame,
// leaf's later calls hung below main (main → leaf, a path it never takes).
// Between its two phases the program naps, so the deciding thread, which
// first wakes 10 ms after start, gets its turns on a busy machine. The
// argument is the number of mid calls, half in each phase (100 000: mid is
// not throttled; 600 000: it is, during the nap). Prints a checksum that
// does not depend on measurement.
#include <time.h>

#include <cstdio>
#include <cstdlib>

namespace {
volatile unsigned sink_ = 0;
}

unsigned leaf(unsigned x) {
  for (int i = 0; i < 300; ++i) x = x * 2654435761u + unsigned(i);
  return x;
}

unsigned mid(unsigned i, unsigned s) { return (i & 15u) == 0 ? leaf(s) : s ^ i; }

void nap_ms(int ms) {
  for (int i = 0; i < ms; ++i) {
    timespec t{0, 1000000L};
    nanosleep(&t, nullptr);
  }
}

int main(int argc, char **argv) {
  const unsigned half = unsigned(argc > 1 ? std::atol(argv[1]) : 600000) / 2;
  unsigned s = 1;
  for (unsigned i = 0; i < half; ++i) s = mid(i, s);
  nap_ms(300);
  for (unsigned i = 0; i < half; ++i) s = mid(i, s);
  sink_ = s;
  std::printf("checksum %u\n", s);
  return 0;
}
