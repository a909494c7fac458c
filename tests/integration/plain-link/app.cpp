#include <cstdio>
#include <stdexcept>

#include "shapes.hpp"

template <class T>
T twice(T x) { return x + x; }

int main() {
  std::vector<std::unique_ptr<Shape>> shapes;
  for (int i = 1; i <= 4; ++i) {
    shapes.push_back(std::make_unique<Square>(i));
    shapes.push_back(std::make_unique<Circle>(i));
  }
  int caught = 0;
  for (int i = -2; i < 3; ++i) {
    try {
      checked(i);
    } catch (const std::invalid_argument &) {
      ++caught;
    }
  }
  std::printf("area=%.1f twice=%d caught=%d\n", total_area(shapes), twice(21), caught);
  return 0;
}
