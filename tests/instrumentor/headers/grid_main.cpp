// hcc-test-flags: -Iinclude -isystem sysinc -std=c++17
#include <cstdio>
#include "geo/grid.hpp"
#include <sysdep.hpp>

int main() {
  geo::Grid g(6);
  g.sweep();
  std::vector<double> d = {1.0, 2.0};
  std::vector<float> f = {3.0f};
  std::printf("%.3f %.1f %.1f %ld %d\n", g.at(2, 2), geo::sum_of_squares(d),
              double(geo::sum_of_squares(f)), g.positive(), sys_helper(1));
  return 0;
}
