// A hot straight-line leaf, for --hcc-functions=auto: tri_weight is a
// geometry kernel of 60 operations with no loop and no call, called 2 per
// element; pair_weight composes two of them without a loop. auto leaves both
// out (their time per call is bounded by their size, of the order of an
// enter/exit pair) and keeps the element loop and main.
//
//   straight_line [rounds]   (default 4; tests/bench/functions_dilation.sh
//                             runs it with more, as a hot-leaf workload)
#include <cstdio>
#include <cstdlib>
#include <vector>

static double tri_weight(const double *p, const double *q, const double *r, double w) {
  double ux = q[0] - p[0], uy = q[1] - p[1], uz = q[2] - p[2];
  double vx = r[0] - p[0], vy = r[1] - p[1], vz = r[2] - p[2];
  double cx = uy * vz - uz * vy;
  double cy = uz * vx - ux * vz;
  double cz = ux * vy - uy * vx;
  double area2 = cx * cx + cy * cy + cz * cz;
  double len2 = ux * ux + uy * uy + uz * uz + vx * vx + vy * vy + vz * vz;
  double mid = (p[0] + q[0] + r[0]) * (p[1] + q[1] + r[1]) / 9.0;
  return w * area2 + (area2 > len2 ? mid : -mid);
}

static double pair_weight(const double *p, const double *q, const double *r, double w) {
  return tri_weight(p, q, r, w) - tri_weight(r, q, p, w * 0.5);
}

double element_loop(const std::vector<double> &pts, double w) {
  double s = 0;
  for (size_t i = 0; i + 8 < pts.size(); i += 3) s += pair_weight(&pts[i], &pts[i + 3], &pts[i + 6], w);
  return s;
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 4;
  std::vector<double> pts(3 * 20002);
  for (size_t i = 0; i < pts.size(); ++i) pts[i] = double((i * 7919) % 1000) / 100.0;
  double total = 0;
  for (int k = 0; k < rounds; ++k) total += element_loop(pts, 1.0 + k % 4);
  std::printf("%.6e\n", total);
  return 0;
}
