#include <cstdio>
#include <vector>

#include "kernel.h"

static void init(std::vector<double> &v) {
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i % 7) * 1.0;
}

int main() {
  std::vector<double> v(1000), next(1000);
  init(v);
  next = v;
  long change = 0;
  for (int step = 0; step < 5; ++step) {
    change = relax(v, next);
    v.swap(next);
  }
  std::printf("change in the last of 5 sweeps: %ld\n", change);
  return 0;
}
