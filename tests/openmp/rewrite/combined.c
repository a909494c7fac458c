void h(int n, double *a) {
  int i;
  double last = 0, s = 0;
#pragma omp parallel for default(none) shared(n, a) lastprivate(last) reduction(+:s) \
    schedule(static)
  for (i = 0; i < n; i++) { last = a[i]; s += last; }
#pragma omp parallel for simd linear(i) reduction(+:s)
  for (i = 0; i < n; i++) s += a[i];
#pragma omp parallel sections num_threads(2)
  {
    a[0] = 1;
#pragma omp section
    a[1] = 2;
  }
  a[2] = last + s;
}
int fl(int n, const int *a) {
  int i, x = 1, y = 0;
#pragma omp parallel for default(none) shared(n, a) firstprivate(x) lastprivate(x, i) private(y)
  for (i = 0; i < n; i++) { y = a[i]; x += y; }
  return x + i;
}
