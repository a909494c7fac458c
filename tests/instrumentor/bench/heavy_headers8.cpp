// Benchmark input for instrument_time.sh: the eight heavy standard headers of
// the instrumentor brief and a little code, so header parsing dominates.
#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

struct Item {
  std::string name;
  int weight;
};

static std::map<std::string, int> histogram(const std::vector<Item> &items) {
  std::map<std::string, int> h;
  for (const auto &i : items) h[i.name] += i.weight;
  return h;
}

int main(int argc, char **argv) {
  std::vector<Item> items;
  for (int i = 0; i < argc * 100; ++i) items.push_back({argv[0], i});
  std::sort(items.begin(), items.end(), [](const Item &a, const Item &b) { return a.weight < b.weight; });
  std::unordered_map<int, std::unique_ptr<Item>> index;
  for (auto &i : items) index[i.weight] = std::make_unique<Item>(i);
  std::function<int(int)> f = [&](int x) { return x + static_cast<int>(index.size()); };
  for (const auto &[k, v] : histogram(items)) std::cout << k << ' ' << v << ' ' << f(1) << '\n';
  return 0;
}
