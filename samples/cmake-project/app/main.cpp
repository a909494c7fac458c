// histogram — fills an array in an OpenMP parallel loop, then summarises it
// with the C library `stats`. Prints the same on every run and thread count.
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "stats.h"

namespace {

// A value that depends only on i, so the output never depends on threads.
double sample(std::size_t i) {
  std::uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 31;
  double u = static_cast<double>(x % 1000003) / 1000003.0;
  return 50.0 + 10.0 * std::sin(6.2831853 * u) + 30.0 * u;
}

std::vector<double> make_samples(std::size_t n) {
  std::vector<double> v(n);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < static_cast<long>(n); ++i) v[static_cast<std::size_t>(i)] = sample(static_cast<std::size_t>(i));
  return v;
}

void print_histogram(const unsigned *bins, std::size_t nbins, double lo, double hi) {
  for (std::size_t b = 0; b < nbins; ++b) {
    double from = lo + (hi - lo) * static_cast<double>(b) / static_cast<double>(nbins);
    std::printf("%6.1f | %s %u\n", from, std::string(bins[b] / 200, '#').c_str(), bins[b]);
  }
}

}  // namespace

int main(int argc, char **argv) {
  std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 100000;
  std::vector<double> v = make_samples(n);
  const std::size_t nbins = 8;
  unsigned bins[nbins];
  stats_histogram(v.data(), v.size(), 30.0, 90.0, bins, nbins);
  std::printf("n=%zu mean=%.4f variance=%.4f\n", v.size(), stats_mean(v.data(), v.size()),
              stats_variance(v.data(), v.size()));
  std::printf("median=%.4f\n", stats_median(v.data(), v.size()));
  print_histogram(bins, nbins, 30.0, 90.0);
  return omp_get_max_threads() > 0 ? 0 : 1;
}
