int f(int n, int *a) {
  int s = 0;
#pragma omp parallel if(n > 10) num_threads(n / 2) default(none) shared(a, s)
  {
    a[0] = s;
  }
  #pragma omp parallel
    s++;
  return s;
}
