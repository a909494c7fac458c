// Known call graph for the TAU-syntax tests (tests/filter), in C++: the
// routines of TAU's select-file examples with C++ names (parameter lists,
// a namespace, a const member, a function template with two instances).
//   main -> select_kth_largest -> sort_5elements -> quicksort -> interchange
//        -> early, early_report, geo::Grid::scale, geo::Grid::sum,
//           initialize(double **, int), compute_interchange<int>/<double>
#include <cstdio>

void interchange(int *a, int *b) {
  int t = *a;
  *a = *b;
  *b = t;
}

void quicksort(int *arr, int lo, int hi) {
  if (lo >= hi) return;
  int pivot = arr[hi], i = lo;
  for (int j = lo; j < hi; ++j)
    if (arr[j] > pivot) interchange(&arr[i++], &arr[j]);  // descending
  interchange(&arr[i], &arr[hi]);
  quicksort(arr, lo, i - 1);
  quicksort(arr, i + 1, hi);
}

void sort_5elements(int *arr) { quicksort(arr, 0, 4); }

int select_kth_largest(int k, int *s, int n) {
  for (int g = 0; g < n; g += 5) sort_5elements(&s[g]);
  quicksort(s, 0, n - 1);
  return s[k - 1];
}

int early(int x) { return 2 * x + 1; }
void early_report(int v) { std::printf("early %d\n", v); }

namespace geo {
struct Grid {
  double cells[4] = {1, 2, 3, 4};
  void scale(double f) {
    for (double &c : cells) c *= f;
  }
  double sum() const { return cells[0] + cells[1] + cells[2] + cells[3]; }
};
}  // namespace geo

void initialize(double **rows, int n) {
  for (int i = 0; i < n; ++i) rows[i][i] = 1.0;
}

// Swaps the first two entries of a, b and c (the n, m, k only make the
// signature TAU's example names).
template <class T> void compute_interchange(T **a, T **b, T **c, int n, int m, int k) {
  T t = a[0][0];
  a[0][0] = b[0][0];
  b[0][0] = c[0][0];
  c[0][0] = t + T(n + m + k);
}

int main(int argc, char **argv) {
  (void)argv;
  int data[20] = {17, 3, 99, 42, 8, 23, 64, 5, 71, 30, 12, 88, 1, 56, 37, 90, 14, 26, 49, 61};
  int third = select_kth_largest(3, data, 20);
  for (int i = 0; i < 3; ++i) early_report(early(i + argc));
  geo::Grid g;
  g.scale(2);
  double r0[2] = {0, 0}, r1[2] = {0, 0};
  double *rows[2] = {r0, r1};
  initialize(rows, 2);
  int ia = 1, ib = 2, ic = 3;
  int *pa = &ia, *pb = &ib, *pc = &ic;
  compute_interchange(&pa, &pb, &pc, 0, 0, 0);
  double *da = r0, *db = r1, *dc = r0;
  compute_interchange(&da, &db, &dc, 1, 1, 1);
  std::printf("3rd largest %d, sum %g, ints %d %d %d, r0 %g\n", third, g.sum(), ia, ib, ic, r0[0]);
  return 0;
}
