// hcc-test-flags: -std=c++17
// A realistic C++17 file: classes, operators, templates, lambdas,
// exceptions, the standard library. Must build warning-free when rewritten.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace geo {

struct Point {
  double x = 0, y = 0;
  Point() = default;
  Point(double px, double py) : x(px), y(py) {}
  Point operator+(const Point &o) const { return {x + o.x, y + o.y}; }
  Point &operator*=(double f) {
    x *= f;
    y *= f;
    return *this;
  }
  friend bool operator==(const Point &a, const Point &b) { return a.x == b.x && a.y == b.y; }
  explicit operator bool() const { return x != 0 || y != 0; }
};

class Shape {
 public:
  virtual ~Shape();
  virtual double area() const = 0;
  virtual std::string name() const { return "shape"; }
};
Shape::~Shape() {}

class Circle final : public Shape {
 public:
  explicit Circle(double r) : r_(r) {
    if (r < 0) throw std::invalid_argument("negative radius");
  }
  double area() const override { return M_PI * r_ * r_; }
  std::string name() const override { return "circle"; }

 private:
  double r_;
};

class Polygon : public Shape {
 public:
  Polygon(std::initializer_list<Point> pts) : pts_(pts) {}
  double area() const override;
  const std::vector<Point> &points() const { return pts_; }

 private:
  std::vector<Point> pts_;
};

double Polygon::area() const {
  double sum = 0;
  for (size_t i = 0; i < pts_.size(); ++i) {
    const Point &a = pts_[i];
    const Point &b = pts_[(i + 1) % pts_.size()];
    sum += a.x * b.y - b.x * a.y;
  }
  return std::fabs(sum) / 2;
}

template <class T, size_t N>
class Ring {
 public:
  void push(const T &v) {
    data_[head_] = v;
    head_ = (head_ + 1) % N;
    if (count_ < N) ++count_;
  }
  template <class F>
  void each(F f) const {
    for (size_t i = 0; i < count_; ++i) f(data_[i]);
  }
  size_t size() const;

 private:
  T data_[N] = {};
  size_t head_ = 0, count_ = 0;
};

template <class T, size_t N>
size_t Ring<T, N>::size() const {
  return count_;
}

template <class T>
T clamp(T v, T lo, T hi) {
  return std::min(std::max(v, lo), hi);
}

template <>
int clamp<int>(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

template <class... Args>
std::string join(const Args &...args) {
  std::ostringstream os;
  ((os << args << ' '), ...);
  return os.str();
}

constexpr double kScale = 2.0;
constexpr double scaled(double v) { return v * kScale; }
static_assert(scaled(1.0) == 2.0, "constexpr still works");
constexpr auto half = [](double v) { return v / 2; };  // left alone: may run at compile time
static_assert(half(2.0) == 1.0, "constexpr lambdas still work");

}  // namespace geo

namespace {

int parse_int(const std::string &s) try {
  return std::stoi(s);
} catch (const std::exception &) {
  return -1;
}

struct Registry {
  std::map<std::string, std::function<std::unique_ptr<geo::Shape>(double)>> makers;
  Registry() {
    makers["circle"] = [](double r) { return std::make_unique<geo::Circle>(r); };
  }
};

}  // namespace

extern "C" int geo_c_entry(int v) { return v * 2; }

double total_area(const std::vector<std::unique_ptr<geo::Shape>> &shapes) {
  double total = std::accumulate(shapes.begin(), shapes.end(), 0.0,
                                 [](double acc, const auto &s) { return acc + s->area(); });
  auto bigger = [threshold = 1.0](const auto &s) {
    auto check = [&](double a) { return a > threshold; };
    return check(s->area());
  };
  return total + static_cast<double>(std::count_if(shapes.begin(), shapes.end(), bigger));
}

int main(int argc, char **argv) {
  Registry reg;
  std::vector<std::unique_ptr<geo::Shape>> shapes;
  shapes.push_back(reg.makers["circle"](1.5));
  shapes.push_back(std::make_unique<geo::Polygon>(
      std::initializer_list<geo::Point>{{0, 0}, {1, 0}, {1, 1}}));
  geo::Ring<int, 4> ring;
  for (int i = 0; i < 6; ++i) ring.push(i);
  int sum = 0;
  ring.each([&sum](int v) { sum += v; });
  geo::Point p(1, 2);
  p *= 2;
  struct Local {
    static int twice(int v) { return 2 * v; }
  };
  std::string s = geo::join(sum, ring.size(), argc > 1 ? argv[1] : "none");
  return (p == geo::Point(2, 4) && p ? 0 : 1) + geo::clamp(sum, 0, 100) +
         static_cast<int>(geo::clamp(total_area(shapes), 0.0, 1.0)) + parse_int("x") +
         Local::twice(geo_c_entry(0)) + static_cast<int>(s.size() > 1000) +
         static_cast<int>(geo::scaled(0) + geo::half(0));
}
