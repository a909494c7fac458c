int k(int *v) {
  int c = 0;
#pragma omp parallel shared(c)
  {
#pragma omp critical(update)
    c++;
#pragma omp atomic update
    v[0] += 1;
#pragma omp barrier
#pragma omp flush
#pragma omp single
    {
#pragma omp task firstprivate(v)
      v[1] = 2;
#pragma omp taskwait
    }
  }
  return c;
}
