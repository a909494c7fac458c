/* Stand-in for a block-tridiagonal ADI solver (the shape of NPB BT): on an
 * n^3 grid of 5-component unknowns, each iteration sweeps the x, y and z
 * grid lines; along a line it forms 5x5 blocks and solves the block
 * tridiagonal system with a block Thomas algorithm. The dense work is done
 * by small helper functions (block Jacobian, matrix-vector and matrix-matrix
 * subtract, 5x5 elimination) called once or twice per grid point per line:
 * with loops, so --hcc-functions=auto times every call.
 *
 *   btsolve [n iterations]   (default 32 50)
 *
 * Prints a checksum of the solution; the same on every run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NC 5
typedef double block[NC][NC];

/* The flux Jacobian at one point: a dense 5x5 block of the local state. */
void point_jacobian(const double u[NC], double s, block a) {
  const double rho = 1.0 + 0.1 * u[0] * u[0];
  for (int i = 0; i < NC; ++i)
    for (int j = 0; j < NC; ++j) a[i][j] = s * (0.02 * (i + 1) * u[j] + (i == j ? 0.05 * rho : 0.01 / (1 + i + j)));
}

/* r -= a * x */
void matvec_sub(const block a, const double x[NC], double r[NC]) {
  for (int i = 0; i < NC; ++i)
    r[i] -= a[i][0] * x[0] + a[i][1] * x[1] + a[i][2] * x[2] + a[i][3] * x[3] + a[i][4] * x[4];
}

/* c -= a * b */
void matmul_sub(const block a, const block b, block c) {
  for (int i = 0; i < NC; ++i)
    for (int j = 0; j < NC; ++j)
      c[i][j] -= a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j] + a[i][3] * b[3][j] + a[i][4] * b[4][j];
}

/* Gauss-Jordan on the diagonal block `lhs`: c := lhs^-1 c, r := lhs^-1 r
 * (c may be NULL at the line's end). No pivoting: the blocks are
 * diagonally dominant. */
void block_solve(block lhs, block c, double r[NC]) {
  for (int p = 0; p < NC; ++p) {
    const double inv = 1.0 / lhs[p][p];
    for (int j = p + 1; j < NC; ++j) lhs[p][j] *= inv;
    if (c)
      for (int j = 0; j < NC; ++j) c[p][j] *= inv;
    r[p] *= inv;
    for (int i = 0; i < NC; ++i) {
      if (i == p) continue;
      const double f = lhs[i][p];
      for (int j = p + 1; j < NC; ++j) lhs[i][j] -= f * lhs[p][j];
      if (c)
        for (int j = 0; j < NC; ++j) c[i][j] -= f * c[p][j];
      r[i] -= f * r[p];
    }
  }
}

/* One grid line of m points: u[k * stride] is point k's state. Forms the
 * blocks A (below), B (diagonal), C (above) and the right-hand side, solves
 * A du[k-1] + B du[k] + C du[k+1] = rhs and applies du. */
static void solve_line(double *u, long stride, int m, block *bb, block *cc, double (*r)[NC]) {
  block a;
  for (int k = 0; k < m; ++k) {
    const double *uk = u + k * stride;
    point_jacobian(uk, 1.0, bb[k]);
    for (int i = 0; i < NC; ++i) {
      bb[k][i][i] += 4.0;
      r[k][i] = 0.01 * (i + 1) - 0.05 * uk[i] + (k > 0 ? 0.02 * uk[i - stride] : 0) +
                (k < m - 1 ? 0.02 * uk[i + stride] : 0);
    }
    if (k < m - 1) point_jacobian(uk + stride, -0.3, cc[k]);
  }
  /* Forward elimination. */
  block_solve(bb[0], cc[0], r[0]);
  for (int k = 1; k < m; ++k) {
    point_jacobian(u + (k - 1) * stride, -0.3, a);
    matvec_sub(a, r[k - 1], r[k]);
    matmul_sub(a, cc[k - 1], bb[k]);
    block_solve(bb[k], k < m - 1 ? cc[k] : NULL, r[k]);
  }
  /* Back substitution. */
  for (int k = m - 2; k >= 0; --k) matvec_sub(cc[k], r[k + 1], r[k]);
  for (int k = 0; k < m; ++k)
    for (int i = 0; i < NC; ++i) u[k * stride + i] += 0.5 * r[k][i];
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 32;
  const int iterations = argc > 2 ? atoi(argv[2]) : 50;
  if (n < 2 || iterations < 1) {
    fprintf(stderr, "usage: btsolve [n>=2 iterations>0]\n");
    return 2;
  }
  const long points = (long)n * n * n;
  double *u = malloc(sizeof(double) * NC * points);
  block *bb = malloc(sizeof(block) * n), *cc = malloc(sizeof(block) * n);
  double(*r)[NC] = malloc(sizeof(double[NC]) * n);
  if (!u || !bb || !cc || !r) {
    fprintf(stderr, "btsolve: out of memory for n=%d\n", n);
    return 1;
  }
  for (long p = 0; p < points; ++p)
    for (int i = 0; i < NC; ++i) u[p * NC + i] = 0.1 * sin(0.37 * (double)p + i);
  /* Strides of the x, y and z lines in the [z][y][x][NC] array. */
  const long stride[3] = {NC, (long)NC * n, (long)NC * n * n};
  for (int it = 0; it < iterations; ++it)
    for (int d = 0; d < 3; ++d)
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
          /* The line's first point: vary the two coordinates that are not d. */
          const long o1 = stride[(d + 1) % 3], o2 = stride[(d + 2) % 3];
          solve_line(u + a * o1 + b * o2, stride[d], n, bb, cc, r);
        }
  double sum = 0, sum_sq = 0;
  for (long p = 0; p < points * NC; ++p) {
    sum += u[p];
    sum_sq += u[p] * u[p];
  }
  printf("btsolve n=%d iterations=%d sum %.12e norm %.12e\n", n, iterations, sum, sqrt(sum_sq));
  free(u);
  free(bb);
  free(cc);
  free(r);
  return 0;
}
