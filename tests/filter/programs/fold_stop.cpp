// A function that recurses only through another (throttle_e2e_test.cpp):
// `walk` does a few hundred operations and calls `bounce`, a tiny function
// that calls walk again, until a depth of 4 — the shape of a path tracer's
// radiance ↔ diffuse_bounce. bounce's call paths have no child but the fold
// link back to walk, so the default throttling stops its count instead of
// throttling it (a throttled frame inside a recursion costs a timed pair).
// Phase one makes 240 000 calls of bounce; the program naps so the deciding
// thread looks, and phase two makes as many again. Prints a checksum that
// does not depend on measurement.
#include <time.h>

#include <cstdio>

namespace {
volatile unsigned sink_ = 0;
}

unsigned bounce(unsigned depth, unsigned x);

unsigned walk(unsigned depth, unsigned x) {
  for (int i = 0; i < 200; ++i) x = x * 2654435761u + unsigned(i);
  return depth == 0 ? x : bounce(depth - 1, x) ^ depth;
}

unsigned bounce(unsigned depth, unsigned x) { return walk(depth, x * 3u + 1u); }

void nap_ms(int ms) {
  for (int i = 0; i < ms; ++i) {
    timespec t{0, 1000000L};
    nanosleep(&t, nullptr);
  }
}

int main() {
  unsigned s = 1;
  for (unsigned i = 0; i < 60000; ++i) s ^= walk(4, s + i);
  nap_ms(400);
  for (unsigned i = 0; i < 60000; ++i) s ^= walk(4, s + i);
  sink_ = s;
  std::printf("checksum %u\n", s);
  return 0;
}
