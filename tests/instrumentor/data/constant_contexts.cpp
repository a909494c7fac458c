// hcc-test-flags: -std=c++20
// Lambdas the compiler may run at compile time must stay without a guard
// (a static local makes them non-constexpr); the others get one.
#include <array>

template <int N> struct Int { static constexpr int value = N; };

enum Color { Red = [] { return 1; }() };
struct Bits { int w : [] { return 3; }(); };
struct alignas([] { return 8; }()) Aligned { int x; };
void nothrow() noexcept([] { return true; }()) {}
template <int N = [] { return 2; }()> int defaulted_arg() { return N; }
int bounded[([] { return 4; }())];
std::array<int, [] { return 5; }()> sized;
int template_arg() { return Int<[] { return 6; }()>::value; }
int if_constexpr() {
  if constexpr ([] { return true; }())
    return 1;
  else
    return 0;
}
constinit int initialized = [] { return 7; }();
struct Conv {
  explicit([] { return true; }()) Conv(int) {}
};
int labels(int v) {
  switch (v) {
    case [] { return 1; }():
      return 1;
  }
  return 0;
}
const int kCount = [] { return 3; }();
int counted[kCount];
struct Member { static const int m = [] { return 2; }(); };
template <class T> concept Small = [] { return sizeof(T) < 8; }();
constexpr auto kHalf = [](int v) { return v / 2; };
static_assert([] { return true; }());
consteval int immediate(int v) { return v; }

int main() {
  const double scale = [] { return 1.5; }();  // not integral: a runtime lambda
  auto twice = [](int v) { return 2 * v; };   // implicitly constexpr, used at run time
  Conv c(1);
  (void)c;
  nothrow();
  return Red + Bits{}.w + defaulted_arg() + template_arg() + if_constexpr() + initialized +
         labels(1) + static_cast<int>(sizeof(Aligned) + sizeof(bounded) + sizeof(counted) +
                                      sized.size()) +
         Member::m + Small<int> + kHalf(4) + immediate([] { return 1; }()) +
         static_cast<int>(scale) + twice(1) - 58;
}
