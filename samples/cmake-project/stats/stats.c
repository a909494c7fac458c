#include "stats.h"

#include <stdlib.h>

#ifdef SAMPLE_HAVE_BUILTIN_EXPECT
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define UNLIKELY(x) (x)
#endif

/* static: still instrumented, visible in the profile under its callers. */
static double sum(const double *v, size_t n) {
  double s = 0.0;
  for (size_t i = 0; i < n; ++i) s += v[i];
  return s;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double stats_mean(const double *v, size_t n) { return n ? sum(v, n) / (double)n : 0.0; }

double stats_variance(const double *v, size_t n) {
  if (n < 2) return 0.0;
  double m = stats_mean(v, n), s = 0.0;
  for (size_t i = 0; i < n; ++i) s += (v[i] - m) * (v[i] - m);
  return s / (double)(n - 1);
}

double stats_median(double *v, size_t n) {
  if (n == 0) return 0.0;
  qsort(v, n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void stats_histogram(const double *v, size_t n, double lo, double hi, unsigned *bins,
                     size_t nbins) {
  for (size_t b = 0; b < nbins; ++b) bins[b] = 0;
  for (size_t i = 0; i < n; ++i) {
    if (UNLIKELY(v[i] < lo || v[i] >= hi)) continue;
    bins[(size_t)((v[i] - lo) / (hi - lo) * (double)nbins)]++;
  }
}
