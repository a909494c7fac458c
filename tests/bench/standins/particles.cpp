// Stand-in for a C++ particle code whose work is small member functions
// calling libm: Cloud::step() loops over the particles, and for each calls
// force() (a spring to the centre, a screened repulsion and a drag: norm(),
// dot(), std::erfc and std::exp), then updates velocity and position.
// force(), norm() and dot() are straight-line leaves, left out by
// --hcc-functions=auto; step() has a loop and is kept. They are marked
// noinline so that a sampler of the plain -O2 build sees each of them as a
// function of its own, as it would in a code whose members live in other
// files. With perf: libm ~40%, step and force ~20% each, dot ~14%.
//
//   particles [particles steps]   (default 4096 12000)
//
// Prints a checksum of the final state; the same on every run.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define NOINLINE __attribute__((noinline))

namespace {

struct Vec3 {
  double x, y, z;
};

class Cloud {
 public:
  explicit Cloud(int n) : pos_(n), vel_(n) {
    uint64_t s = 0x243f6a8885a308d3ull;
    for (int i = 0; i < n; ++i) {
      pos_[i] = {uniform(&s) - 0.5, uniform(&s) - 0.5, uniform(&s) - 0.5};
      vel_[i] = {0.1 * (uniform(&s) - 0.5), 0.1 * (uniform(&s) - 0.5), 0.1 * (uniform(&s) - 0.5)};
    }
  }

  // One explicit time step of every particle; returns the kinetic energy.
  double step(double dt) {
    double kinetic = 0;
    for (size_t i = 0; i < pos_.size(); ++i) {
      const Vec3 f = force(pos_[i], vel_[i]);
      Vec3 &v = vel_[i], &p = pos_[i];
      v = {v.x + dt * f.x, v.y + dt * f.y, v.z + dt * f.z};
      p = {p.x + dt * v.x, p.y + dt * v.y, p.z + dt * v.z};
      kinetic += 0.5 * dot(v, v);
    }
    return kinetic;
  }

  double checksum() const {
    double sum = 0;
    for (size_t i = 0; i < pos_.size(); ++i) sum += (i % 7 + 1) * (pos_[i].x + 2 * pos_[i].y + 3 * pos_[i].z);
    return sum;
  }

 private:
  NOINLINE static double dot(const Vec3 &a, const Vec3 &b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
  NOINLINE static double norm(const Vec3 &a) { return std::sqrt(dot(a, a)); }

  // A spring towards the origin, a screened repulsion from it (the real-
  // space term of an Ewald sum, erfc(r/a)/r^2, softened at r = 0) and a
  // drag along the radius that fades outwards: a bounded cloud.
  NOINLINE Vec3 force(const Vec3 &p, const Vec3 &v) const {
    const double r = norm(p);
    const double pull = 0.2 * std::erfc(r / 0.3) / (r * r + 0.01) - 1;
    const double drag = -0.05 * dot(v, p) * std::exp(-r * r);
    const double k = pull + drag;
    return {k * p.x, k * p.y, k * p.z};
  }

  static double uniform(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return double((*s * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
  }

  std::vector<Vec3> pos_, vel_;
};

}  // namespace

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 12000;
  if (n < 1 || steps < 1) {
    std::fprintf(stderr, "usage: particles [particles>0 steps>0]\n");
    return 2;
  }
  Cloud cloud(n);
  double kinetic = 0;
  for (int s = 0; s < steps; ++s) kinetic += cloud.step(1e-3);
  std::printf("particles n=%d steps=%d kinetic %.12e checksum %.12e\n", n, steps, kinetic, cloud.checksum());
  return 0;
}
