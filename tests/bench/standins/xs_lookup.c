/* Stand-in for a Monte-Carlo neutron transport proxy's cross-section lookup:
 * an OpenMP parallel loop over particle lookups, each calling a kernel that
 * binary-searches a unionized energy grid and then loops over the nuclides
 * of a material, interpolating each one's cross sections. The kernel has a
 * loop, so --hcc-functions=auto times all 2.4e7 calls of it (~60 ns each).
 *
 *   xs_lookup [lookups grid_points]   (default 24000000 1000)
 *
 * Prints a checksum that does not depend on the thread count (integer sum). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NUCLIDES 12
#define MATERIALS 6
#define CHANNELS 5

static const int kMaterialSize[MATERIALS] = {4, 2, 3, 2, 3, 2};

struct tables {
  int points;          /* unionized grid points */
  double *energy;      /* [points], ascending */
  int *index;          /* [points][NUCLIDES]: each nuclide's grid interval */
  double *nuc_energy;  /* [NUCLIDES][points]: each nuclide's own grid */
  double *xs;          /* [NUCLIDES][points][CHANNELS] */
  int material[MATERIALS][NUCLIDES];
  double density[MATERIALS][NUCLIDES];
};

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

static double unit(uint64_t x) { return (double)(mix(x) >> 11) * (1.0 / 9007199254740992.0); }

/* Macroscopic cross sections of material `mat` at energy `e`: the lookup
 * kernel (one binary search, then one interpolation per nuclide). */
void macro_xs(const struct tables *t, double e, int mat, double out[CHANNELS]) {
  int lo = 0, hi = t->points - 1;
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (t->energy[mid] > e) hi = mid; else lo = mid;
  }
  for (int c = 0; c < CHANNELS; ++c) out[c] = 0;
  for (int k = 0; k < kMaterialSize[mat]; ++k) {
    const int n = t->material[mat][k];
    const int i = t->index[(size_t)lo * NUCLIDES + n];
    const double *eg = t->nuc_energy + (size_t)n * t->points;
    const double *lo_xs = t->xs + ((size_t)n * t->points + i) * CHANNELS;
    const double f = (e - eg[i]) / (eg[i + 1] - eg[i]);
    for (int c = 0; c < CHANNELS; ++c)
      out[c] += t->density[mat][k] * (lo_xs[c] + f * (lo_xs[CHANNELS + c] - lo_xs[c]));
  }
}

static void build(struct tables *t, int points) {
  t->points = points;
  t->energy = malloc(sizeof(double) * points);
  t->index = malloc(sizeof(int) * (size_t)points * NUCLIDES);
  t->nuc_energy = malloc(sizeof(double) * (size_t)points * NUCLIDES);
  t->xs = malloc(sizeof(double) * (size_t)points * NUCLIDES * CHANNELS);
  if (!t->energy || !t->index || !t->nuc_energy || !t->xs) {
    fprintf(stderr, "xs_lookup: out of memory for %d grid points\n", points);
    exit(1);
  }
  for (int n = 0; n < NUCLIDES; ++n) {
    double *eg = t->nuc_energy + (size_t)n * points;
    /* Ascending, spanning [0, 1] with both ends exact. */
    for (int i = 0; i < points; ++i) eg[i] = (i + 0.5 * unit(n * 1000003ull + i)) / (points - 1);
    eg[0] = 0;
    eg[points - 1] = 1;
    for (size_t i = 0; i < (size_t)points * CHANNELS; ++i)
      t->xs[(size_t)n * points * CHANNELS + i] = 0.1 + unit(7 * n * 1000003ull + i);
  }
  /* The unionized grid here is nuclide 0's, and each nuclide's interval
   * around it is found once, as the real code's index grid does. */
  for (int i = 0; i < points; ++i) t->energy[i] = t->nuc_energy[i];
  for (int n = 0; n < NUCLIDES; ++n) {
    const double *eg = t->nuc_energy + (size_t)n * points;
    int j = 0;
    for (int i = 0; i < points; ++i) {
      while (j < points - 2 && eg[j + 1] <= t->energy[i]) ++j;
      t->index[(size_t)i * NUCLIDES + n] = j;
    }
  }
  for (int m = 0; m < MATERIALS; ++m)
    for (int k = 0; k < NUCLIDES; ++k) {
      t->material[m][k] = (m * 5 + k * 7) % NUCLIDES;
      t->density[m][k] = 0.5 + unit(99991ull * m + k);
    }
}

int main(int argc, char **argv) {
  const long lookups = argc > 1 ? atol(argv[1]) : 24000000L;
  const int points = argc > 2 ? atoi(argv[2]) : 1000;
  if (lookups < 1 || points < 4) {
    fprintf(stderr, "usage: xs_lookup [lookups>0 grid_points>=4]\n");
    return 2;
  }
  struct tables t;
  build(&t, points);
  unsigned long long sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (long i = 0; i < lookups; ++i) {
    double xs[CHANNELS];
    const double e = unit(0x5eedull + (uint64_t)i) * 0.999999;
    const int mat = (int)(mix((uint64_t)i) % MATERIALS);
    macro_xs(&t, e, mat, xs);
    /* Integers, so the sum is the same in any order. */
    for (int c = 0; c < CHANNELS; ++c) sum += (unsigned long long)(xs[c] * 1e6);
  }
  printf("xs_lookup lookups=%ld points=%d checksum %llu\n", lookups, points, sum);
  free(t.energy);
  free(t.index);
  free(t.nuc_energy);
  free(t.xs);
  return 0;
}
