// A program for instrumentation plans (tests/filter/plan_e2e_test.cpp): a
// function the static size rule keeps (its rare branch is long) but that
// does a few nanoseconds of work per call and is called millions of times,
// beside a real kernel. `plan_hot N` makes N calls of mix and 1000 of kernel.
#include <cstdio>
#include <cstdlib>
#include <vector>

static volatile int g_rare = 0;  // never set: mix's long branch never runs

// Large to the size rule (a loop it cannot count), tiny at run time.
unsigned mix(unsigned h, unsigned x) {
  if (g_rare) {
    unsigned a = h * 31u + x, b = a ^ (a >> 7), c = b * 2654435761u, d = c + (c << 3);
    unsigned e = d ^ (d >> 11), f = e * 40503u + 17u, g = f ^ (f << 5), k = g + (g >> 13);
    for (int i = 0; i < int(x & 15u); ++i) k = (k ^ (k >> 3)) * 2246822519u + unsigned(i) * a + b - c;
    std::printf("rare %u %u %u\n", k, e, f);
    return k ^ g ^ a ^ d;
  }
  return (h ^ x) * 16777619u;
}

unsigned accumulate(long n) {
  unsigned h = 2166136261u;
  for (long i = 0; i < n; ++i) h = mix(h, unsigned(i));
  return h;
}

// The real work: 1000 passes over 2^18 doubles.
double kernel(const std::vector<double> &a, double s) {
  double sum = 0;
  for (double v : a) sum += v * s + v * v * 0.5;
  return sum;
}

int main(int argc, char **argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 20000000;
  std::vector<double> a(1 << 18);
  for (size_t i = 0; i < a.size(); ++i) a[i] = double(i % 1000) * 1e-3;
  double total = 0;
  for (int k = 0; k < 1000; ++k) total += kernel(a, 1.0 + k * 1e-4);
  const unsigned h = accumulate(n);
  std::printf("checksum %u %.6e\n", h, total);
  return 0;
}
