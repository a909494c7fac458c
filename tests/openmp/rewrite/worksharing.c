void g(int n, double *a, double *r) {
  double sum = 0;
#pragma omp parallel default(none) shared(n, a, r, sum)
  {
#pragma omp for schedule(nonmonotonic:dynamic, 4) reduction(+:sum)
    for (int i = 0; i < n; i++) sum += a[i];
#pragma omp for nowait
    for (int i = 0; i < n; i++)
      a[i] = 0;
    double t = 0;
#pragma omp single copyprivate(t)
    t = 1;
#pragma omp single nowait
    { r[0] = sum + t; }
#pragma omp master
    r[1] = 2;
#pragma omp sections
    {
#pragma omp section
      r[2] = 3;
#pragma omp section
      { r[3] = 4; }
    }
  }
}
