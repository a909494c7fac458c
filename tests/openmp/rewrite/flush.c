int release, acquire;
int f(int *data) {
  int s = 0;
#pragma omp parallel shared(s)
  {
    data[0] = 1;
#pragma omp flush(release)
#pragma omp flush (acquire, data)
#pragma omp flush acq_rel
#pragma omp flush
    s += release + acquire;
  }
  return s;
}
