/* Stand-in for a Monte-Carlo cross-section lookup whose INNER function is
 * the hot spot (the shape of a neutron transport proxy's history-based
 * lookup): every lookup picks an energy and a material, and
 * calculate_macro_xs loops over the material's nuclides calling
 * calculate_micro_xs, a short call (~0.1-0.2 us here) that binary-searches
 * the nuclide's own energy grid within the few points an energy bin leaves
 * (a hash grid of bins, as such codes use to avoid a full search) and
 * interpolates five cross sections. The nuclides' grids are far larger than
 * the last-level cache (68 x 16000 points x 48 bytes = 50 MiB by default),
 * so each micro call is a few cache misses; it is called ~14 times a lookup.
 * The macro function also finds the material's thermal factor by a full
 * binary search of a table of its own (points / 32 entries per nuclide of
 * the material), once a lookup. With perf (-O2 -fno-inline): micro ~69%,
 * macro ~24%. Both have loops, so --hcc-functions=auto keeps both; the
 * tables' set-up (grid_init, thermal_init) is a few percent.
 *
 *   micro_lookup [lookups nuclides points]   (default 700000 68 16000)
 *
 * Prints a checksum (an integer sum, so it does not depend on the order of
 * the additions); the same on every run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CHANNELS 5
#define MATERIALS 12

/* One point of a nuclide's grid: its energy and the cross sections there. */
struct point {
  double energy, xs[CHANNELS];
};

struct tables {
  int nuclides, points, bins;
  struct point *grid;       /* [nuclides][points], energies ascending from 0 to 1 */
  int *bin_lo;              /* [bins + 1][nuclides]: the grid interval holding b / bins */
  int size[MATERIALS];      /* nuclides in each material */
  int *member;              /* [MATERIALS][nuclides]: which ones */
  double *density;          /* [MATERIALS][nuclides] */
  long thermal_points[MATERIALS];
  double *thermal[MATERIALS]; /* (energy, factor) pairs, energies ascending */
};

/* splitmix64: a fixed sequence, so every run builds the same tables. */
static uint64_t next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double unit(uint64_t *state) { return (double)(next(state) >> 11) * (1.0 / 9007199254740992.0); }

/* Each nuclide's grid (energies rising by random steps from 0 to exactly 1,
 * random positive cross sections) and its entries in the bins' index. */
void grid_init(struct tables *t, uint64_t seed) {
  for (int n = 0; n < t->nuclides; ++n) {
    struct point *g = t->grid + (size_t)n * t->points;
    uint64_t s = seed ^ (0x1000193ull * (uint64_t)(n + 1));
    double e = 0;
    for (int i = 0; i < t->points; ++i) {
      g[i].energy = e;
      e += 0.5 + unit(&s);
      for (int c = 0; c < CHANNELS; ++c) g[i].xs[c] = 0.1 + unit(&s);
    }
    const double scale = 1.0 / g[t->points - 1].energy;
    for (int i = 0; i < t->points; ++i) g[i].energy *= scale;
    g[t->points - 1].energy = 1.0;
    int j = 0;
    for (int b = 0; b <= t->bins; ++b) {
      const double eb = (double)b / t->bins;
      while (j < t->points - 2 && g[j + 1].energy <= eb) ++j;
      t->bin_lo[(size_t)b * t->nuclides + n] = j;
    }
  }
}

/* Fills one thermal table of n pairs: energies rising from 0 to 1, factors
 * near 1. */
void thermal_init(double *th, long n, uint64_t *s) {
  double e = 0;
  for (long i = 0; i < n; ++i) {
    th[2 * i] = e;
    th[2 * i + 1] = 0.9 + 0.2 * unit(s);
    e += 0.5 + unit(s);
  }
  for (long i = 0; i < n; ++i) th[2 * i] /= th[2 * (n - 1)];
}

/* Microscopic cross sections of one nuclide at energy e, given that
 * g[lo].energy <= e < g[hi].energy: the interval holding e by binary search,
 * then linear interpolation. */
void calculate_micro_xs(const struct point *g, int lo, int hi, double e, double out[CHANNELS]) {
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    if (g[mid].energy > e) hi = mid; else lo = mid;
  }
  const double f = (e - g[lo].energy) / (g[hi].energy - g[lo].energy);
  for (int c = 0; c < CHANNELS; ++c) out[c] = g[lo].xs[c] + f * (g[hi].xs[c] - g[lo].xs[c]);
}

/* Macroscopic cross sections of material mat at energy e (0 <= e < 1): its
 * thermal factor times the density-weighted sum of its nuclides'
 * microscopic cross sections, each searched within e's bin. */
void calculate_macro_xs(const struct tables *t, double e, int mat, double macro[CHANNELS]) {
  const double *th = t->thermal[mat];
  long tlo = 0, thi = t->thermal_points[mat] - 1;
  while (thi - tlo > 1) {
    const long mid = tlo + (thi - tlo) / 2;
    if (th[2 * mid] > e) thi = mid; else tlo = mid;
  }
  const double thermal = th[2 * tlo + 1];
  const int b = (int)(e * t->bins);
  const int *lo = t->bin_lo + (size_t)b * t->nuclides, *hi = lo + t->nuclides;
  double micro[CHANNELS];
  for (int c = 0; c < CHANNELS; ++c) macro[c] = 0;
  for (int k = 0; k < t->size[mat]; ++k) {
    const int n = t->member[mat * t->nuclides + k];
    calculate_micro_xs(t->grid + (size_t)n * t->points, lo[n], hi[n] + 1, e, micro);
    const double d = t->density[mat * t->nuclides + k];
    for (int c = 0; c < CHANNELS; ++c) macro[c] += thermal * d * micro[c];
  }
}

int main(int argc, char **argv) {
  const long lookups = argc > 1 ? atol(argv[1]) : 700000L;
  const int nuclides = argc > 2 ? atoi(argv[2]) : 68;
  const int points = argc > 3 ? atoi(argv[3]) : 16000;
  if (lookups < 1 || nuclides < 1 || points < 4) {
    fprintf(stderr, "usage: micro_lookup [lookups>0 nuclides>0 points>=4]\n");
    return 2;
  }
  /* A bin per two grid points: a micro search of a couple of steps. */
  struct tables t = {.nuclides = nuclides, .points = points, .bins = points / 2};
  t.grid = malloc(sizeof(struct point) * (size_t)nuclides * points);
  t.bin_lo = malloc(sizeof(int) * ((size_t)t.bins + 1) * nuclides);
  t.member = malloc(sizeof(int) * MATERIALS * (size_t)nuclides);
  t.density = malloc(sizeof(double) * MATERIALS * (size_t)nuclides);
  if (!t.grid || !t.bin_lo || !t.member || !t.density) {
    fprintf(stderr, "micro_lookup: out of memory for %d x %d grid points\n", nuclides, points);
    return 1;
  }
  grid_init(&t, 0x5eed);
  /* One big material (half the nuclides, as a fuel), the others smaller. */
  static const int kShare[MATERIALS] = {50, 9, 6, 7, 33, 29, 26, 23, 20, 17, 12, 14}; /* percent */
  uint64_t s = 42;
  for (int m = 0; m < MATERIALS; ++m) {
    t.size[m] = nuclides * kShare[m] / 100 > 0 ? nuclides * kShare[m] / 100 : 1;
    for (int k = 0; k < t.size[m]; ++k) {
      t.member[m * nuclides + k] = (int)((7 * m + 13 * k) % nuclides);
      t.density[m * nuclides + k] = 0.2 + unit(&s);
    }
    t.thermal_points[m] = (long)t.size[m] * points / 32 > 2 ? (long)t.size[m] * points / 32 : 2;
    t.thermal[m] = malloc(sizeof(double) * 2 * (size_t)t.thermal_points[m]);
    if (!t.thermal[m]) {
      fprintf(stderr, "micro_lookup: out of memory for material %d's thermal table\n", m);
      return 1;
    }
    thermal_init(t.thermal[m], t.thermal_points[m], &s);
  }
  unsigned long long sum = 0;
  uint64_t r = 0xfeed;
  for (long i = 0; i < lookups; ++i) {
    double macro[CHANNELS];
    const double e = unit(&r) * 0.999999;
    const int mat = (int)(next(&r) % MATERIALS);
    calculate_macro_xs(&t, e, mat, macro);
    for (int c = 0; c < CHANNELS; ++c) sum += (unsigned long long)(macro[c] * 1e6);
  }
  printf("micro_lookup lookups=%ld nuclides=%d points=%d checksum %llu\n", lookups, nuclides, points, sum);
  free(t.grid);
  free(t.bin_lo);
  free(t.member);
  free(t.density);
  for (int m = 0; m < MATERIALS; ++m) free(t.thermal[m]);
  return 0;
}
