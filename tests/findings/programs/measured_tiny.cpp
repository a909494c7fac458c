// Findings stand-in, the measurement itself: a one-line member called CALLS
// times from a loop. Built with every function instrumented and run with
// throttling off, each call pays an enter/exit pair many times its own
// work: the measurement finding names it, with CALLS visits exactly.
#include <cstdio>

namespace {

constexpr long kCalls = 20000000;

struct Counter {
  long n = 0;
  __attribute__((noinline)) void bump(long by) { n += by & 3; }
};

}  // namespace

int main() {
  Counter c;
  for (long i = 0; i < kCalls; ++i) c.bump(i);
  std::printf("%ld\n", c.n);
  return 0;
}
