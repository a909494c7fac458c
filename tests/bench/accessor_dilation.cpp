// Benchmark program for selective instrumentation: a Jacobi relaxation whose
// inner loop goes through tiny accessors (Grid::at, Grid::set), called
// ~5*10^7 times, inside real work. Fully instrumented, every accessor call
// pays an enter/exit pair and loses inlining; the filter hcc-report suggests
// removes exactly these. Run by accessor_dilation.sh.
#include <cstdio>
#include <cstdlib>
#include <vector>

class Grid {
 public:
  explicit Grid(int n) : n_(n), v_(size_t(n) * size_t(n), 0.0) {}
  double at(int i, int j) const { return v_[size_t(i) * size_t(n_) + size_t(j)]; }
  void set(int i, int j, double x) { v_[size_t(i) * size_t(n_) + size_t(j)] = x; }
  int n() const { return n_; }

 private:
  int n_;
  std::vector<double> v_;
};

// Boundary: hot top edge.
void init(Grid &g) {
  for (int j = 0; j < g.n(); ++j) g.set(0, j, 100.0);
}

// One sweep; returns the largest change.
double relax(const Grid &from, Grid &to) {
  const int n = from.n();
  double change = 0;
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j) {
      double x = 0.25 * (from.at(i - 1, j) + from.at(i + 1, j) + from.at(i, j - 1) + from.at(i, j + 1));
      double d = x - from.at(i, j);
      if (d < 0) d = -d;
      if (d > change) change = d;
      to.set(i, j, x);
    }
  return change;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 400;
  int sweeps = argc > 2 ? std::atoi(argv[2]) : 60;
  Grid a(n), b(n);
  init(a);
  init(b);
  double change = 0;
  for (int s = 0; s < sweeps; ++s) change = (s % 2 == 0) ? relax(a, b) : relax(b, a);
  std::printf("n=%d sweeps=%d change=%.6f centre=%.6f\n", n, sweeps, change, a.at(n / 2, n / 2));
  return 0;
}
