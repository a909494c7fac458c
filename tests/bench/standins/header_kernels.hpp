// Header-only kernels in the style of Eigen/Kokkos-based codes: a 2-D view
// with inline accessors, a parallel_for-like template that calls a functor
// per index, and functors whose call operators do a stencil through the
// accessors. All of it is templates and inline member functions in a project
// header (not a system header), so hcc sees every body: the accessors are
// too small for --hcc-functions=auto, the functors' call operators (40+
// operations, no loop) and the loop templates are not.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace standin {

template <class T>
class View2D {
 public:
  View2D(int rows, int cols) : rows_(rows), cols_(cols), data_(std::size_t(rows) * std::size_t(cols)) {}
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  T &operator()(int i, int j) { return data_[std::size_t(i) * std::size_t(cols_) + std::size_t(j)]; }
  const T &operator()(int i, int j) const { return data_[std::size_t(i) * std::size_t(cols_) + std::size_t(j)]; }

 private:
  int rows_, cols_;
  std::vector<T> data_;
};

// Calls f(i, j) for every interior point, row by row.
template <class F>
void for_each_interior(int rows, int cols, const F &f) {
  for (int i = 1; i < rows - 1; ++i)
    for (int j = 1; j < cols - 1; ++j) f(i, j);
}

// A nonlinear 9-point diffusion step, out = in + dt * div(k(in) grad in),
// with a conductivity that depends on the local value and gradient (as a
// flux limiter would): ~70 operations through the accessors per point.
template <class T>
struct DiffusionStep {
  const View2D<T> &in, &k;
  View2D<T> &out;
  T dt;
  T conductivity(T base, T value, T grad2) const { return base / (T(1) + std::sqrt(T(1) + value * value + grad2)); }
  void operator()(int i, int j) const {
    const T c = in(i, j);
    const T gx = T(0.5) * (in(i, j + 1) - in(i, j - 1)), gy = T(0.5) * (in(i + 1, j) - in(i - 1, j));
    const T kc = conductivity(k(i, j), c, gx * gx + gy * gy);
    const T ke = T(0.5) * (kc + conductivity(k(i, j + 1), in(i, j + 1), gx * gx));
    const T kw = T(0.5) * (kc + conductivity(k(i, j - 1), in(i, j - 1), gx * gx));
    const T kn = T(0.5) * (kc + conductivity(k(i - 1, j), in(i - 1, j), gy * gy));
    const T ks = T(0.5) * (kc + conductivity(k(i + 1, j), in(i + 1, j), gy * gy));
    const T diag = T(0.25) * (in(i - 1, j - 1) + in(i - 1, j + 1) + in(i + 1, j - 1) + in(i + 1, j + 1)) - c;
    out(i, j) = c + dt * (ke * (in(i, j + 1) - c) + kw * (in(i, j - 1) - c) + kn * (in(i - 1, j) - c) +
                          ks * (in(i + 1, j) - c) + T(0.1) * kc * diag);
  }
};

// Sum of squares of the difference of two views (a reduction kernel).
template <class T>
T squared_difference(const View2D<T> &a, const View2D<T> &b) {
  T sum = 0;
  for (int i = 0; i < a.rows(); ++i)
    for (int j = 0; j < a.cols(); ++j) {
      const T d = a(i, j) - b(i, j);
      sum += d * d;
    }
  return sum;
}

}  // namespace standin
