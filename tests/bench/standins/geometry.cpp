// Stand-in for a finite-element code's geometry: element loops over a mesh
// of tetrahedra, each element calling straight-line leaves (Jacobian inverse,
// shape gradients, face normals, quadrature weights) of 40-100 operations,
// no loop and no call. The leaves are big enough for --hcc-functions=auto's
// size rule, so a default build times ~6 of them per element: the shape that
// dilated a real FE code. They are ordinary functions of this file (not
// marked inline): the compiler decides whether to inline them.
//
//   geometry [hexes_per_side sweeps]   (default 30 24: 3.9 M element
//                                       calls, 25 M leaf calls)
//
// Prints a checksum of the assembled quantities; the same on every run.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

struct Point {
  double x, y, z;
};

// A node of a perturbed structured grid, computed from its indices (no mesh
// in memory: the cost is the arithmetic, as in the real code's inner loops).
Point node(int i, int j, int k, int n) {
  const uint64_t h = (uint64_t(i) * 73856093u) ^ (uint64_t(j) * 19349663u) ^ (uint64_t(k) * 83492791u);
  const double jitter = 0.15 / n;
  return Point{(i + jitter * double(h & 1023) / 1023.0) / n, (j + jitter * double((h >> 10) & 1023) / 1023.0) / n,
               (k + jitter * double((h >> 20) & 1023) / 1023.0) / n};
}

}  // namespace

// Inverse of the Jacobian of the affine map from the reference tetrahedron;
// returns its determinant (6 x the volume).
double jacobian_inverse(const Point &a, const Point &b, const Point &c, const Point &d, double inv[9]) {
  const double j00 = b.x - a.x, j01 = c.x - a.x, j02 = d.x - a.x;
  const double j10 = b.y - a.y, j11 = c.y - a.y, j12 = d.y - a.y;
  const double j20 = b.z - a.z, j21 = c.z - a.z, j22 = d.z - a.z;
  const double c00 = j11 * j22 - j12 * j21, c01 = j12 * j20 - j10 * j22, c02 = j10 * j21 - j11 * j20;
  const double det = j00 * c00 + j01 * c01 + j02 * c02;
  const double r = 1.0 / det;
  inv[0] = c00 * r;
  inv[1] = (j02 * j21 - j01 * j22) * r;
  inv[2] = (j01 * j12 - j02 * j11) * r;
  inv[3] = c01 * r;
  inv[4] = (j00 * j22 - j02 * j20) * r;
  inv[5] = (j02 * j10 - j00 * j12) * r;
  inv[6] = c02 * r;
  inv[7] = (j01 * j20 - j00 * j21) * r;
  inv[8] = (j00 * j11 - j01 * j10) * r;
  return det;
}

// Gradients of the four linear shape functions: the reference gradients
// (-1,-1,-1), (1,0,0), (0,1,0), (0,0,1) through the inverse Jacobian.
void shape_gradients(const double inv[9], double g[12]) {
  g[3] = inv[0];
  g[4] = inv[1];
  g[5] = inv[2];
  g[6] = inv[3];
  g[7] = inv[4];
  g[8] = inv[5];
  g[9] = inv[6];
  g[10] = inv[7];
  g[11] = inv[8];
  g[0] = -(inv[0] + inv[3] + inv[6]);
  g[1] = -(inv[1] + inv[4] + inv[7]);
  g[2] = -(inv[2] + inv[5] + inv[8]);
}

// Unit normal of the face (a, b, c) from the cross product of two edge
// vectors; returns the face's area.
double face_normal(const Point &a, const Point &b, const Point &c, double n[3]) {
  const double ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z;
  const double vx = c.x - a.x, vy = c.y - a.y, vz = c.z - a.z;
  const double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const double len = std::sqrt(nx * nx + ny * ny + nz * nz);
  const double r = 1.0 / len;
  n[0] = nx * r;
  n[1] = ny * r;
  n[2] = nz * r;
  return 0.5 * len;
}

// Weight of quadrature point q of a 4-point rule, scaled by |det J| and by a
// smooth material coefficient evaluated at the point's physical position.
double quadrature_weight(const Point &a, const Point &b, const Point &c, const Point &d, double det, int q) {
  const double alpha = 0.5854101966249685, beta = 0.1381966011250105;
  const double l1 = q == 1 ? alpha : beta, l2 = q == 2 ? alpha : beta, l3 = q == 3 ? alpha : beta;
  const double l0 = 1.0 - l1 - l2 - l3;
  const double x = l0 * a.x + l1 * b.x + l2 * c.x + l3 * d.x;
  const double y = l0 * a.y + l1 * b.y + l2 * c.y + l3 * d.y;
  const double z = l0 * a.z + l1 * b.z + l2 * c.z + l3 * d.z;
  const double kappa = 1.0 + 0.5 * x * y + 0.25 * z * z - 0.125 * x * z;
  return std::fabs(det) * (1.0 / 24.0) * kappa;
}

namespace {

struct Totals {
  double volume = 0, stiffness = 0, flux = 0;
};

// The six tetrahedra of the hexahedron with lower corner (i, j, k).
void hex_tets(int i, int j, int k, int n, Point t[6][4]) {
  const Point p[8] = {node(i, j, k, n),         node(i + 1, j, k, n),     node(i, j + 1, k, n),
                      node(i + 1, j + 1, k, n), node(i, j, k + 1, n),     node(i + 1, j, k + 1, n),
                      node(i, j + 1, k + 1, n), node(i + 1, j + 1, k + 1, n)};
  static const int kTet[6][4] = {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};
  for (int e = 0; e < 6; ++e)
    for (int v = 0; v < 4; ++v) t[e][v] = p[kTet[e][v]];
}

}  // namespace

// Quadratic (10-node) element stiffness of a variable-coefficient Laplacian:
// 6 leaves per element (1 Jacobian, 1 gradient, 4 weights), then the 10x10
// local matrix at the 4 quadrature points (the element's own ~0.4 us of work).
double element_stiffness(const Point v[4], double *volume) {
  static const int kEdge[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  const double alpha = 0.5854101966249685, beta = 0.1381966011250105;
  double inv[9], g[12], w[4];
  const double det = jacobian_inverse(v[0], v[1], v[2], v[3], inv);
  shape_gradients(inv, g);
  for (int q = 0; q < 4; ++q) w[q] = quadrature_weight(v[0], v[1], v[2], v[3], det, q);
  double k[10][10] = {};
  for (int q = 0; q < 4; ++q) {
    double lam[4], grad[10][3];
    for (int a = 0; a < 4; ++a) lam[a] = a == q ? alpha : beta;
    for (int a = 0; a < 4; ++a)
      for (int d = 0; d < 3; ++d) grad[a][d] = (4.0 * lam[a] - 1.0) * g[3 * a + d];
    for (int e = 0; e < 6; ++e) {
      const int i = kEdge[e][0], j = kEdge[e][1];
      for (int d = 0; d < 3; ++d) grad[4 + e][d] = 4.0 * (lam[i] * g[3 * j + d] + lam[j] * g[3 * i + d]);
    }
    for (int a = 0; a < 10; ++a)
      for (int b = a; b < 10; ++b)
        k[a][b] += w[q] * (grad[a][0] * grad[b][0] + grad[a][1] * grad[b][1] + grad[a][2] * grad[b][2]);
  }
  double sum = 0;
  for (int a = 0; a < 10; ++a)
    for (int b = a; b < 10; ++b) sum += (a == b ? 1.0 : 0.25) * k[a][b];
  *volume += std::fabs(det) / 6.0;
  return sum;
}

// Flux of the field (1 + x, 2 + y*y, 3 + z) out of a boundary element's four
// faces: 4 face-normal leaves.
double element_flux(const Point v[4]) {
  static const int kFace[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  double flux = 0, n[3];
  for (int f = 0; f < 4; ++f) {
    const Point &a = v[kFace[f][0]];
    const double area = face_normal(a, v[kFace[f][1]], v[kFace[f][2]], n);
    flux += area * ((1.0 + a.x) * n[0] + (2.0 + a.y * a.y) * n[1] + (3.0 + a.z) * n[2]);
  }
  return flux;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 30;
  const int sweeps = argc > 2 ? std::atoi(argv[2]) : 24;
  if (n < 1 || sweeps < 1) {
    std::fprintf(stderr, "usage: geometry [elements_per_side>0 sweeps>0]\n");
    return 2;
  }
  Totals t;
  Point tet[6][4];
  for (int s = 0; s < sweeps; ++s)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k) {
          hex_tets(i, j, k, n, tet);
          const bool boundary = i == 0 || j == 0 || k == 0 || i == n - 1 || j == n - 1 || k == n - 1;
          for (int e = 0; e < 6; ++e) {
            t.stiffness += element_stiffness(tet[e], &t.volume);
            if (boundary) t.flux += element_flux(tet[e]);
          }
        }
  std::printf("geometry n=%d sweeps=%d volume %.10f stiffness %.6e flux %.10e\n", n, sweeps, t.volume, t.stiffness,
              t.flux);
  return 0;
}
