// A header of the project's own: inline members, an out-of-class inline
// function, a function template, a lambda, a constexpr function.
#ifndef GEO_GRID_HPP
#define GEO_GRID_HPP
#include <algorithm>
#include <cstddef>
#include <vector>

namespace geo {

constexpr std::size_t cells(std::size_t n) { return n * n; }

class Grid {
 public:
  explicit Grid(std::size_t n) : n_(n), v_(cells(n), 1.0) {}
  double &at(std::size_t i, std::size_t j) { return v_[i * n_ + j]; }
  double smooth_point(std::size_t i, std::size_t j) {
    return 0.25 * (at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
  }
  void sweep();
  std::size_t size() const { return n_; }
  long positive() const {
    return std::count_if(v_.begin(), v_.end(), [](double x) { return x > 0; });
  }

 private:
  std::size_t n_;
  std::vector<double> v_;
};

inline void Grid::sweep() {
  for (std::size_t i = 1; i + 1 < n_; ++i)
    for (std::size_t j = 1; j + 1 < n_; ++j) at(i, j) = smooth_point(i, j);
}

template <typename T>
T sum_of_squares(const std::vector<T> &xs) {
  T s = 0;
  for (const T &x : xs) s += x * x;
  return s;
}

}  // namespace geo
#endif
