// C++ features the instrumentor must handle; visits are asserted by the test.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

template <typename T>
T twice(T v) {
  return v + v;
}

struct Shape {
  virtual ~Shape() {}
  virtual double area() const = 0;
};

struct Square : Shape {
  double s;
  explicit Square(double s_) : s(s_) {}
  double area() const override { return s * s; }
};

struct Circle : Shape {
  double r;
  explicit Circle(double r_) : r(r_) {}
  double area() const override { return 3.0 * r * r; }
};

constexpr int cube(int x) { return x * x * x; }
static_assert(cube(3) == 27, "constexpr functions keep working");

void thrower(int depth) {
  if (depth == 0) throw std::runtime_error("boom");
  thrower(depth - 1);
}

int catcher() {
  try {
    thrower(3);
  } catch (const std::exception &e) {
    return static_cast<int>(std::string(e.what()).size());
  }
  return 0;
}

void worker(int id, std::vector<long> *out) {
  long s = 0;
  for (int i = 0; i < 1000 * (id + 1); ++i) s += i % (id + 2);
  (*out)[static_cast<size_t>(id)] = s;
}

int main() {
  std::printf("twice: %d %.1f\n", twice(21), twice(1.25));
  Square sq(2.0);
  Circle ci(1.0);
  const Shape *shapes[] = {&sq, &ci, &sq};
  double total = 0.0;
  for (const Shape *s : shapes) total += s->area();
  std::printf("areas: %.1f\n", total);
  auto scale = [](double x) { return 2.0 * x; };
  double acc = 0.0;
  for (int i = 0; i < 5; ++i) acc += scale(i);
  std::printf("lambda: %.1f\n", acc);
  std::printf("caught: %d\n", catcher());
  std::printf("cube: %d\n", cube(4));
  std::vector<long> results(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back(worker, t, &results);
  for (auto &t : threads) t.join();
  for (long r : results) std::printf("worker result %ld\n", r);
  return 0;
}
