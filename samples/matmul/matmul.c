/* Matrix multiply in the four variants of the classic TAU/PAPI study:
 * the naive i-j-k order, loop interchange (i-k-j), strip mining (blocked),
 * and both combined. The profile shows how much time each variant takes;
 * with hardware counters (HCC_METRICS=PAPI_L1_DCM,... on a machine that has
 * them) it also shows why: the naive order walks B column-wise and misses
 * the cache on almost every access. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 384
#endif
#define BLOCK 32
/* Whole blocks only: a second bound in the blocked inner loops would keep
 * the compiler from vectorising them and hide the effect being shown. */
#if N % BLOCK != 0
#error "N must be a multiple of BLOCK"
#endif

static double a[N][N], b[N][N], c[N][N];

static void init_matrices(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = (double)((i * 7 + j * 3) % 13) / 13.0;
      b[i][j] = (double)((i * 5 + j * 11) % 17) / 17.0;
    }
}

static void clear_result(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) c[i][j] = 0.0;
}

/* Inner loop strides through b by rows of N doubles: a cache miss per step. */
static void multiply_plain(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++) c[i][j] += a[i][k] * b[k][j];
}

/* Swapping j and k makes the inner loop walk b and c contiguously. */
static void multiply_interchange(void) {
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++) {
      double aik = a[i][k];
      for (int j = 0; j < N; j++) c[i][j] += aik * b[k][j];
    }
}

/* Blocking the k and j loops keeps a BLOCK x BLOCK tile of b in cache. */
static void multiply_strip_mined(void) {
  for (int kk = 0; kk < N; kk += BLOCK)
    for (int jj = 0; jj < N; jj += BLOCK)
      for (int i = 0; i < N; i++)
        for (int j = jj; j < jj + BLOCK; j++)
          for (int k = kk; k < kk + BLOCK; k++)
            c[i][j] += a[i][k] * b[k][j];
}

static void multiply_both(void) {
  for (int kk = 0; kk < N; kk += BLOCK)
    for (int jj = 0; jj < N; jj += BLOCK)
      for (int i = 0; i < N; i++)
        for (int k = kk; k < kk + BLOCK; k++) {
          double aik = a[i][k];
          for (int j = jj; j < jj + BLOCK; j++) c[i][j] += aik * b[k][j];
        }
}

static double checksum(void) {
  double s = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) s += c[i][j] * (double)((i + j) % 5 + 1);
  return s;
}

static void run_variant(const char *name, void (*multiply)(void)) {
  clear_result();
  multiply();
  printf("%-12s checksum %.6f\n", name, checksum());
}

int main(void) {
  init_matrices();
  run_variant("plain", multiply_plain);
  run_variant("interchange", multiply_interchange);
  run_variant("strip-mined", multiply_strip_mined);
  run_variant("both", multiply_both);
  return EXIT_SUCCESS;
}
