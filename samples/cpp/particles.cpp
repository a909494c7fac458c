// A small C++ program to look at with hcc: virtual calls, a class template
// with two instantiations, lambdas, and four worker threads. Each worker
// becomes a location of its own in the profile.
#include <cmath>
#include <cstdio>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

namespace sim {

struct Force {
  virtual ~Force() = default;
  virtual double at(double x) const = 0;
};

struct Spring : Force {
  double k;
  explicit Spring(double k_) : k(k_) {}
  double at(double x) const override { return -k * x; }
};

struct Drag : Force {
  double c;
  explicit Drag(double c_) : c(c_) {}
  double at(double x) const override { return -c * x * std::fabs(x); }
};

template <typename Real>
class Particles {
 public:
  explicit Particles(std::size_t n) : x_(n), v_(n) {
    for (std::size_t i = 0; i < n; ++i) x_[i] = static_cast<Real>(1.0 + 0.001 * static_cast<double>(i));
  }
  void step(const std::vector<std::unique_ptr<Force>> &forces, Real dt) {
    for (std::size_t i = 0; i < x_.size(); ++i) {
      double f = 0.0;
      for (const auto &force : forces) f += force->at(static_cast<double>(x_[i]));
      v_[i] += static_cast<Real>(f) * dt;
      x_[i] += v_[i] * dt;
    }
  }
  double energy() const {
    return std::accumulate(v_.begin(), v_.end(), 0.0,
                           [](double s, Real v) { return s + 0.5 * static_cast<double>(v * v); });
  }

 private:
  std::vector<Real> x_, v_;
};

template <typename Real>
double simulate(std::size_t n, int steps) {
  std::vector<std::unique_ptr<Force>> forces;
  forces.push_back(std::make_unique<Spring>(2.0));
  forces.push_back(std::make_unique<Drag>(0.1));
  Particles<Real> p(n);
  for (int s = 0; s < steps; ++s) p.step(forces, static_cast<Real>(0.01));
  return p.energy();
}

}  // namespace sim

int main() {
  std::vector<double> results(4);
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t)
    workers.emplace_back([t, &results] { results[t] = sim::simulate<double>(2000 + 500 * t, 2000); });
  for (auto &w : workers) w.join();
  const double single = sim::simulate<float>(4000, 1000);
  for (int t = 0; t < 4; ++t) std::printf("worker %d energy %.6f\n", t, results[t]);
  std::printf("float run energy %.4f\n", single);
  return 0;
}
