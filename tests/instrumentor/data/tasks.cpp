// hcc-test-flags: -std=c++20
// C++20: coroutines (left alone), consteval (left alone), concepts,
// abbreviated templates, templated lambdas, a function-try-block constructor.
#include <concepts>
#include <coroutine>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

template <class T>
concept Number = std::integral<T> || std::floating_point<T>;

template <class T>
class Generator {
 public:
  struct promise_type {
    std::optional<T> value;
    Generator get_return_object() {
      return Generator{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) {
      value = std::move(v);
      return {};
    }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit Generator(std::coroutine_handle<promise_type> h) : h_(h) {}
  Generator(Generator &&o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~Generator() {
    if (h_) h_.destroy();
  }
  std::optional<T> next() {
    if (!h_ || h_.done()) return std::nullopt;
    h_.resume();
    if (h_.done()) return std::nullopt;
    return std::move(h_.promise().value);
  }

 private:
  std::coroutine_handle<promise_type> h_;
};

Generator<int> counter(int limit) {
  for (int i = 0; i < limit; ++i) co_yield i;
}

consteval int table_size(int n) { return n * 2; }

template <Number T>
T twice(T v) {
  return v + v;
}

auto sum_all(const auto &range) {
  typename std::decay_t<decltype(range)>::value_type total{};
  for (const auto &v : range) total += v;
  return total;
}

struct Config {
  std::string name;
  int level;
  Config(const char *n, int l) try : name(n), level(l) {
    if (l < 0) throw 1;
  } catch (...) {
    throw;
  }
};

int main() {
  int buf[table_size(2)] = {};
  auto gen = counter(5);
  std::vector<int> seen;
  while (auto v = gen.next()) seen.push_back(*v);
  auto scale = []<class T>(T v, T f) { return v * f; };
  Config c("x", 1);
  return static_cast<int>(sum_all(seen)) + twice(buf[0]) + scale(1, 2) + c.level - 13;
}
