// A count that stops (throttle_e2e_test.cpp, HCC_COUNT_STOP): `probe` is a
// leaf of a few instructions called N times from main, so the default
// throttling stops timing it and then, its counted visits costing far more
// than 2% of the run, stops counting it. `outer` calls `probe` on every call
// (N / 4 calls, after the first phase): whatever is stopped, every sample in
// probe must stay below the function that called it, main or outer. Between
// the phases the program naps, so the deciding thread gets its turns on a
// busy machine. Prints a checksum that does not depend on measurement.
#include <time.h>

#include <cstdio>
#include <cstdlib>

namespace {
volatile unsigned sink_ = 0;
}

unsigned probe(unsigned x) { return x * 2654435761u + 1u; }

unsigned outer(unsigned x) { return probe(x) ^ (x >> 3); }

void nap_ms(int ms) {
  for (int i = 0; i < ms; ++i) {
    timespec t{0, 1000000L};
    nanosleep(&t, nullptr);
  }
}

int main(int argc, char **argv) {
  const unsigned n = unsigned(argc > 1 ? std::atol(argv[1]) : 20000000);
  unsigned s = 1;
  for (unsigned i = 0; i < n / 2; ++i) s = probe(s + i);
  nap_ms(100);
  for (unsigned i = 0; i < n / 2; ++i) s = probe(s + i);
  nap_ms(100);
  for (unsigned i = 0; i < n / 4; ++i) s = outer(s + i);
  sink_ = s;
  std::printf("checksum %u\n", s);
  return 0;
}
