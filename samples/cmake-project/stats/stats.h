/* stats — a few statistics over an array of doubles (plain C). */
#ifndef SAMPLE_STATS_H
#define SAMPLE_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

double stats_mean(const double *v, size_t n);
double stats_variance(const double *v, size_t n);
double stats_median(double *v, size_t n); /* sorts v */
/* Counts v[i] into nbins equal bins over [lo, hi); values outside are dropped. */
void stats_histogram(const double *v, size_t n, double lo, double hi, unsigned *bins,
                     size_t nbins);

#ifdef __cplusplus
}
#endif

#endif
