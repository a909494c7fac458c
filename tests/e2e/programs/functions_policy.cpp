// Tiny accessors and one-liners next to real work, for --hcc-functions:
// auto (the default) leaves out Field's members, twice() and answer(); it
// keeps total() (a loop), half_total() (calls total) and main.
#include <cstdio>
#include <vector>

class Field {
 public:
  explicit Field(int n) : v_(n, 1.0) {}
  double at(int i) const { return v_[i]; }
  int size() const { return int(v_.size()); }

 private:
  std::vector<double> v_;
};

static double twice(double x) { return 2 * x; }

double total(const Field &f) {
  double s = 0;
  for (int i = 0; i < f.size(); ++i) s += twice(f.at(i));
  return s;
}

double half_total(const Field &f) { return total(f) / 2; }

int answer() { return 42; }

int main() {
  Field f(1000);
  double r = 0;
  for (int k = 0; k < 3; ++k) r += half_total(f);
  std::printf("%.1f %d\n", r, answer());
  return 0;
}
