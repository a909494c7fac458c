// The grid project: functions defined in include/geo/grid.hpp (inline
// members, an out-of-class inline function, a template used with double and
// float, a lambda) are measured; sysinc/ comes in through -isystem and is
// not.
#include <cstdio>
#include "geo/grid.hpp"
#include <sysdep.hpp>

double corner_sum(geo::Grid &g);

int main() {
  geo::Grid g(6);
  g.sweep();
  g.sweep();
  std::vector<double> d = {1.0, 2.0};
  std::vector<float> f = {3.0f};
  std::printf("%.4f %.1f %.1f %ld %.1f %d\n", g.at(2, 2), geo::sum_of_squares(d),
              double(geo::sum_of_squares(f)), g.positive(), corner_sum(g), sys_helper(1));
  return 0;
}
