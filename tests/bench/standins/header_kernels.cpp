// Stand-in for a code built on a header-only kernel library: the hot loop is
// for_each_interior calling DiffusionStep::operator() (header_kernels.hpp)
// 5.2e7 times, each a 9-point stencil through inline accessors (~20 ns).
//
//   header_kernels [size steps]   (default 512 200)
//
// Prints a checksum of the field; the same on every run.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "header_kernels.hpp"

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 200;
  if (n < 3 || steps < 1) {
    std::fprintf(stderr, "usage: header_kernels [size>=3 steps>0]\n");
    return 2;
  }
  standin::View2D<double> a(n, n), b(n, n), k(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      a(i, j) = b(i, j) = std::sin(0.05 * i) * std::cos(0.03 * j);
      k(i, j) = 1.0 + 0.5 * std::sin(0.11 * (i + j));
    }
  double change = 0;
  for (int s = 0; s < steps; ++s) {
    standin::View2D<double> &from = s % 2 ? b : a, &to = s % 2 ? a : b;
    standin::for_each_interior(n, n, standin::DiffusionStep<double>{from, k, to, 0.1});
    if (s % 10 == 9) change += standin::squared_difference(from, to);
  }
  const standin::View2D<double> &last = steps % 2 ? b : a;
  double sum = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) sum += last(i, j);
  std::printf("header_kernels n=%d steps=%d sum %.12e change %.12e\n", n, steps, sum, change);
  return 0;
}
