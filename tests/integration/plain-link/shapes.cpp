// C++ objects from `hcc -c`, linked by `g++` (plain_link.sh).
#include "shapes.hpp"

#include <numeric>
#include <stdexcept>

double Square::area() const { return side_ * side_; }
double Circle::area() const { return 3.0 * r_ * r_; }

double total_area(const std::vector<std::unique_ptr<Shape>> &shapes) {
  return std::accumulate(shapes.begin(), shapes.end(), 0.0,
                         [](double acc, const std::unique_ptr<Shape> &s) { return acc + s->area(); });
}

int checked(int x) {
  if (x < 0) throw std::invalid_argument("negative");
  return x;
}
