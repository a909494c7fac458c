// A small Monte-Carlo path tracer whose shading recurses the way renderers
// of this kind do: radiance() calls diffuse_bounce(), which calls radiance()
// again, until a depth limit; mirrors recurse directly, and glass splits a
// path in two (reflected and refracted) near the eye. Every vector operation
// is a small function, so an instrumented build has many short regions below
// every recursion level — the case that made call trees explode before hcc
// folded recursion (tests/bench/recursion_profile.sh measures it).
//
//   pathtracer [width height samples [max_bounces]]   (default 48 36 8 10)
//
// Prints one checksum of the image; the same on every run (fixed seeds).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

int g_max_bounces = 10;

struct Vec {
  double x, y, z;
  Vec(double a = 0, double b = 0, double c = 0) : x(a), y(b), z(c) {}
  Vec operator+(const Vec &o) const { return Vec(x + o.x, y + o.y, z + o.z); }
  Vec operator-(const Vec &o) const { return Vec(x - o.x, y - o.y, z - o.z); }
  Vec operator*(double s) const { return Vec(x * s, y * s, z * s); }
  Vec times(const Vec &o) const { return Vec(x * o.x, y * o.y, z * o.z); }
  double dot(const Vec &o) const { return x * o.x + y * o.y + z * o.z; }
  Vec cross(const Vec &o) const { return Vec(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x); }
  Vec unit() const { return *this * (1.0 / std::sqrt(dot(*this))); }
};

struct Ray {
  Vec from, dir;
};

enum class Finish { Matte, Mirror, Glass };

struct Ball {
  double radius;
  Vec centre, glow, tint;
  Finish finish;

  // Distance along `r` to the nearest hit in front of its origin, or 0.
  double hit(const Ray &r) const {
    const Vec to_centre = centre - r.from;
    const double along = to_centre.dot(r.dir);
    double disc = along * along - to_centre.dot(to_centre) + radius * radius;
    if (disc < 0) return 0;
    disc = std::sqrt(disc);
    const double near = along - disc, far = along + disc, eps = 1e-4;
    return near > eps ? near : (far > eps ? far : 0);
  }
};

// A closed room of huge balls (walls, floor, ceiling), a mirror ball, a
// glass ball and a lamp.
const Ball kScene[] = {
    {1e5, Vec(-1e5 + 1, 40, 80), Vec(), Vec(.70, .20, .20), Finish::Matte},   // left wall, x = 1
    {1e5, Vec(1e5 + 99, 40, 80), Vec(), Vec(.20, .20, .70), Finish::Matte},   // right wall, x = 99
    {1e5, Vec(50, 40, -1e5), Vec(), Vec(.70, .70, .70), Finish::Matte},       // back wall, z = 0
    {1e5, Vec(50, 40, 1e5 + 175), Vec(), Vec(.10, .10, .10), Finish::Matte},  // behind the eye, z = 175
    {1e5, Vec(50, -1e5, 80), Vec(), Vec(.70, .70, .70), Finish::Matte},       // floor, y = 0
    {1e5, Vec(50, 1e5 + 82, 80), Vec(), Vec(.70, .70, .70), Finish::Matte},   // ceiling, y = 82
    {15, Vec(28, 15, 50), Vec(), Vec(.95, .95, .95), Finish::Mirror},
    {14, Vec(72, 14, 85), Vec(), Vec(.95, .95, .95), Finish::Glass},
    {600, Vec(50, 681.7, 80), Vec(12, 12, 12), Vec(), Finish::Matte},         // lamp, 0.3 below the ceiling
};
constexpr int kBalls = sizeof kScene / sizeof kScene[0];

// xorshift64*: tiny, fast, and the same sequence on every run.
struct Random {
  uint64_t state;
  double next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return double((state * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
  }
};

bool first_hit(const Ray &r, double *dist, int *which) {
  *dist = 1e20;
  *which = -1;
  for (int i = 0; i < kBalls; ++i) {
    const double d = kScene[i].hit(r);
    if (d > 0 && d < *dist) {
      *dist = d;
      *which = i;
    }
  }
  return *which >= 0;
}

Vec radiance(const Ray &r, int bounces, Random &rnd);

// Light arriving at `at` from a random direction of the hemisphere around
// `normal`, cosine-weighted.
Vec diffuse_bounce(const Vec &at, const Vec &normal, int bounces, Random &rnd) {
  const double angle = 2 * M_PI * rnd.next(), s = rnd.next(), root_s = std::sqrt(s);
  const Vec helper = std::fabs(normal.x) > 0.1 ? Vec(0, 1, 0) : Vec(1, 0, 0);
  const Vec side = helper.cross(normal).unit(), up = normal.cross(side);
  const Vec dir = (side * (std::cos(angle) * root_s) + up * (std::sin(angle) * root_s) +
                   normal * std::sqrt(1 - s)).unit();
  return radiance(Ray{at, dir}, bounces, rnd);
}

Vec radiance(const Ray &r, int bounces, Random &rnd) {
  double dist;
  int which;
  if (!first_hit(r, &dist, &which)) return Vec();
  const Ball &b = kScene[which];
  const Vec at = r.from + r.dir * dist;
  const Vec n = (at - b.centre).unit();
  const bool outside = n.dot(r.dir) < 0;
  const Vec facing = outside ? n : n * -1;
  if (++bounces > g_max_bounces) return b.glow;
  Vec tint = b.tint;
  // Past a few bounces a path survives with the probability of its
  // brightest colour channel (and is weighted up to stay unbiased).
  const double keep = std::fmax(tint.x, std::fmax(tint.y, tint.z));
  if (bounces > 4) {
    if (keep <= 0 || rnd.next() >= keep) return b.glow;
    tint = tint * (1 / keep);
  }
  if (b.finish == Finish::Matte) return b.glow + tint.times(diffuse_bounce(at, facing, bounces, rnd));
  const Vec mirrored = r.dir - n * (2 * n.dot(r.dir));
  if (b.finish == Finish::Mirror) return b.glow + tint.times(radiance(Ray{at, mirrored}, bounces, rnd));
  // Glass (index 1.5): Snell's law for the refracted direction, Schlick's
  // approximation of the Fresnel reflectance.
  const double ratio = outside ? 1 / 1.5 : 1.5, cos_in = -r.dir.dot(facing);
  const double sin2_out = ratio * ratio * (1 - cos_in * cos_in);
  if (sin2_out > 1) return b.glow + tint.times(radiance(Ray{at, mirrored}, bounces, rnd));
  const Vec bent = (r.dir * ratio + facing * (ratio * cos_in - std::sqrt(1 - sin2_out))).unit();
  const double r0 = (0.5 / 2.5) * (0.5 / 2.5), c = 1 - (outside ? cos_in : -bent.dot(facing));
  const double reflect = r0 + (1 - r0) * c * c * c * c * c, transmit = 1 - reflect;
  Vec light;
  if (bounces <= 2) {  // near the eye: follow both
    light = radiance(Ray{at, mirrored}, bounces, rnd) * reflect + radiance(Ray{at, bent}, bounces, rnd) * transmit;
  } else {  // deeper: one of them, chosen by the reflectance
    const double pick = 0.25 + 0.5 * reflect;
    light = rnd.next() < pick ? radiance(Ray{at, mirrored}, bounces, rnd) * (reflect / pick)
                              : radiance(Ray{at, bent}, bounces, rnd) * (transmit / (1 - pick));
  }
  return b.glow + tint.times(light);
}

int to_byte(double v) {
  v = v < 0 ? 0 : (v > 1 ? 1 : v);
  return int(std::pow(v, 1 / 2.2) * 255 + 0.5);
}

}  // namespace

int main(int argc, char **argv) {
  const int w = argc > 3 ? std::atoi(argv[1]) : 48, h = argc > 3 ? std::atoi(argv[2]) : 36;
  const int samples = argc > 3 ? std::atoi(argv[3]) : 8;
  if (argc > 4) g_max_bounces = std::atoi(argv[4]);
  if (w <= 0 || h <= 0 || samples <= 0 || g_max_bounces <= 0) {
    std::fprintf(stderr, "usage: pathtracer [width height samples [max_bounces]]\n");
    return 2;
  }
  const Vec eye(50, 45, 165), ahead = Vec(0, -0.04, -1).unit();
  const Vec across(w * 0.5 / h, 0, 0), upward = across.cross(ahead).unit() * 0.5;
  uint64_t checksum = 0;
  for (int y = 0; y < h; ++y) {
    Random rnd{0x9E3779B97F4A7C15ull ^ uint64_t(y + 1) * 0x100000001B3ull};
    for (int x = 0; x < w; ++x) {
      Vec sum;
      for (int s = 0; s < samples; ++s) {
        const double dx = (x + rnd.next()) / w - 0.5, dy = (h - 1 - y + rnd.next()) / h - 0.5;
        const Vec dir = (across * dx + upward * dy + ahead).unit();
        sum = sum + radiance(Ray{eye + dir * 5, dir}, 0, rnd) * (1.0 / samples);
      }
      checksum = checksum * 31 + uint64_t(to_byte(sum.x) + 256 * to_byte(sum.y) + 65536 * to_byte(sum.z));
    }
  }
  std::printf("image %dx%d, %d samples per pixel, checksum %016llx\n", w, h, samples,
              static_cast<unsigned long long>(checksum));
  return 0;
}
