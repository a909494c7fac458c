// Count mode (COUNT / --hcc-functions=count:): functions whose visits are
// counted on their call path without a clock. counted_leaf is called from
// two callers, in loops; counted_with_child has a timed child (work);
// counted_rec recurses. Everything is noinline so each call is a real call.
#include <cstdio>

static volatile double sink;

__attribute__((noinline)) double work(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += i * 0.5;
  sink = s;
  return s;
}

__attribute__((noinline)) double counted_leaf(int i) { return i * 2.0 + sink * 0.0; }

__attribute__((noinline)) double counted_with_child(int n) { return work(n) + 1.0; }

__attribute__((noinline)) int counted_rec(int n) { return n <= 0 ? 0 : 1 + counted_rec(n - 1); }

__attribute__((noinline)) double caller_a() {
  double s = 0;
  for (int i = 0; i < 1000; ++i) s += counted_leaf(i);
  return s;
}

__attribute__((noinline)) double caller_b() {
  double s = 0;
  for (int i = 0; i < 7; ++i) s += counted_leaf(i) + counted_with_child(1000);
  return s;
}

int main() {
  const double a = caller_a();
  const double b = caller_b();
  const int r = counted_rec(10);
  std::printf("%.1f %.1f %d\n", a, b, r);
  return 0;
}
