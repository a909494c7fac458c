/* Known call graph for the TAU-syntax tests (tests/filter): the routines
 * TAU's select-file examples name (quicksort, sort_5elements, interchange,
 * select_kth_largest, main(int, char **)), plus early/early_report, which
 * differ only in their return types, and a C "(void)" routine.
 *   main -> select_kth_largest -> sort_5elements (x4) -> quicksort -> ...
 *        -> early (x3), early_report (x3), multiply
 */
#include <stdio.h>

void interchange(int *a, int *b) {
  int t = *a;
  *a = *b;
  *b = t;
}

void quicksort(int *arr, int lo, int hi) {
  if (lo >= hi) return;
  int pivot = arr[hi], i = lo;
  for (int j = lo; j < hi; ++j)
    if (arr[j] > pivot) interchange(&arr[i++], &arr[j]); /* descending */
  interchange(&arr[i], &arr[hi]);
  quicksort(arr, lo, i - 1);
  quicksort(arr, i + 1, hi);
}

void sort_5elements(int *arr) { quicksort(arr, 0, 4); }

/* The k-th largest of n values (n a multiple of 5): sort each group of
 * five, then the whole array. */
int select_kth_largest(int k, int *s, int n) {
  for (int g = 0; g < n; g += 5) sort_5elements(&s[g]);
  quicksort(s, 0, n - 1);
  return s[k - 1];
}

int early(int x) { return 2 * x + 1; }

void early_report(int v) { printf("early %d\n", v); }

double multiply(void) {
  double p = 1.0;
  for (int i = 1; i <= 5; ++i) p *= i;
  return p;
}

int main(int argc, char **argv) {
  (void)argv;
  int data[20] = {17, 3, 99, 42, 8, 23, 64, 5, 71, 30, 12, 88, 1, 56, 37, 90, 14, 26, 49, 61};
  int third = select_kth_largest(3, data, 20);
  for (int i = 0; i < 3; ++i) early_report(early(i + argc));
  printf("3rd largest %d, 5! = %g\n", third, multiply());
  return 0;
}
