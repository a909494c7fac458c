// A second translation unit using the same header: Grid::at stays one
// region of the program.
#include "geo/grid.hpp"

double corner_sum(geo::Grid &g) {
  const std::size_t n = g.size() - 1;
  return g.at(0, 0) + g.at(0, n) + g.at(n, 0) + g.at(n, n);
}
