// The pair as the run pays it (auto_throttle.cpp): `dear` and `twin` do the
// same few microseconds of arithmetic a call, far above ten timed pairs, so
// the pair timed at exit never throttles either. But every call of `dear`
// also hands the runtime a sample whose interrupted instruction is in hcc's
// code (the test interface's take_sample_from, with libhcc's hcc_enter as the
// instruction): measurement_cpu on dear's call path, the CPU time since
// the thread's previous sample, several microseconds a visit. Priced so, dear
// costs under ten in-run pairs and is throttled, and then its count stops;
// twin stays timed, every visit of it exact. Prints a checksum that does not
// depend on measurement.
#include <dlfcn.h>
#include <ucontext.h>

#include <cstdio>
#include <cstdlib>

namespace hcc::rt::testing {
bool take_sample_from(void *ucontext, bool caches);  // libhcc's test interface (core/testing.hpp)
}

namespace {
volatile unsigned sink_ = 0;
void *g_in_hcc = nullptr;  // an instruction of libhcc's: hcc_enter's first
}

#define WORK(x) \
  for (int i = 0; i < 2000; ++i) x = (x ^ (x >> 7)) * 2654435761u + unsigned(i)

unsigned dear(unsigned x) {
  WORK(x);
  ucontext_t uc;
  getcontext(&uc);
  uc.uc_mcontext.gregs[REG_RIP] = greg_t(reinterpret_cast<unsigned long>(g_in_hcc));
  // Sampling off: the sample is not taken; the checksum is the same either way.
  if (!g_in_hcc || !hcc::rt::testing::take_sample_from(&uc, true)) x ^= 1;
  return x & ~1u;
}

unsigned twin(unsigned x) {
  WORK(x);
  return x & ~1u;
}

// Each has its own caller: once dear's frames are no longer pushed (its
// count stopped), its samples land on its caller's call path, whose
// measurement the runtime splits over the caller's children only.
unsigned dear_loop(unsigned s, unsigned n) {
  for (unsigned i = 0; i < n; ++i) s = dear(s + i);
  return s;
}

unsigned twin_loop(unsigned s, unsigned n) {
  for (unsigned i = 0; i < n; ++i) s = twin(s + i);
  return s;
}

int main(int argc, char **argv) {
  const unsigned n = unsigned(argc > 1 ? std::atol(argv[1]) : 150000);
  g_in_hcc = dlsym(RTLD_DEFAULT, "hcc_enter");
  const unsigned s = twin_loop(dear_loop(1, n), n);
  sink_ = s;
  std::printf("checksum %u\n", s);
  return 0;
}
