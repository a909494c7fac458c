/* hcc-test-flags: -std=c11 -D_GNU_SOURCE
 * A realistic C file: K&R and prototype definitions, variadic functions,
 * static inline helpers, function pointers and a setjmp/longjmp error path. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vec {
  size_t n;
  double *v;
};

static jmp_buf solver_failure;
static sigjmp_buf signal_ctx;

static inline double sq(double x) { return x * x; }

inline double cube(double x) { return x * x * x; } /* left alone: C99 inline */

static void fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  longjmp(solver_failure, 1);
}

static double norm(const struct vec *a) {
  double s = 0;
  size_t i;
  for (i = 0; i < a->n; ++i) s += sq(a->v[i]);
  return sqrt(s);
}

double dot(a, b)
    const struct vec *a;
const struct vec *b;
{
  double s = 0;
  size_t i;
  if (a->n != b->n) fail("size mismatch %zu != %zu\n", a->n, b->n);
  for (i = 0; i < a->n; ++i) s += a->v[i] * b->v[i];
  return s;
}

typedef double (*reducer)(const struct vec *);

static double apply(reducer r, const struct vec *a) { return r(a); }

int solve(struct vec *a, struct vec *b, double *out) {
  if (setjmp(solver_failure) != 0) {
    return -1;
  }
  if (sigsetjmp(signal_ctx, 1)) return -2;
  *out = dot(a, b) / (apply(norm, a) + 1e-12);
  return 0;
}

int main(int argc, char **argv) {
  double x[3] = {1, 2, 3}, y[3] = {3, 2, 1}, r = 0;
  struct vec a = {3, x}, b = {3, y};
  (void)argv;
  if (solve(&a, &b, &r) != 0) return 1;
  b.n = (size_t)argc + 5;
  printf("%f %d\n", r + cube(0), solve(&a, &b, &r));
  return 0;
}
