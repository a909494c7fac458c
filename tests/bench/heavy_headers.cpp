// Build-time benchmark input: a small program behind heavy standard headers,
// where parsing the headers dominates the compile.
#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <unordered_map>
#include <vector>

namespace {
std::map<std::string, int> count_words(const std::vector<std::string> &words) {
  std::map<std::string, int> counts;
  for (const auto &w : words) ++counts[w];
  return counts;
}

int longest(const std::vector<std::string> &words) {
  auto it = std::max_element(words.begin(), words.end(),
                             [](const std::string &a, const std::string &b) { return a.size() < b.size(); });
  return it == words.end() ? 0 : static_cast<int>(it->size());
}
}  // namespace

int main() {
  std::vector<std::string> words{"alpha", "beta", "alpha", "gamma"};
  std::unordered_map<int, std::function<int(int)>> ops{{1, [](int x) { return x + 1; }}};
  auto p = std::make_unique<int>(ops[1](41));
  std::regex re("a+");
  std::cout << count_words(words)["alpha"] << " " << longest(words) << " " << *p << " "
            << std::regex_search(words[0], re) << "\n";
  return 0;
}
