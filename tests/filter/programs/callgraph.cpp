// Known call graph for the selective-instrumentation tests (tests/filter):
//   main -> quicksort (recursive), geo::Matrix<double>::mul_trace,
//   main -> top_a -> mid -> leaf -> tiny, main -> top_b -> {leaf, mid} -> ...
#include <cstdio>
namespace geo {
template <class T> struct Matrix {
  T v[4] = {1, 2, 3, 4};
  T mul_trace(int k) const {
    T s = 0;
    for (int i = 0; i < 4; ++i) s += v[i] * k;
    return s;
  }
};
}  // namespace geo
static int tiny(int x) { return x + 1; }
void quicksort(int *a, int lo, int hi) {
  if (lo >= hi) return;
  int p = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (a[i] < p) ++i;
    while (a[j] > p) --j;
    if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; ++i; --j; }
  }
  quicksort(a, lo, j);
  quicksort(a, i, hi);
}
int leaf(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += tiny(i);
  return s;
}
int mid(int n) { return leaf(n) + leaf(n / 2); }
int top_a(int n) { return mid(n); }
int top_b(int n) { return leaf(n) + mid(n); }
int main() {
  int arr[8] = {5, 3, 7, 1, 8, 2, 6, 4};
  quicksort(arr, 0, 7);
  geo::Matrix<double> m;
  double t = m.mul_trace(3);
  int r = top_a(100) + top_b(50);
  std::printf("%d %g %d %d\n", r, t, arr[0], arr[7]);
  return 0;
}
