// hcc config — the one on/off vocabulary for every switch (config.hpp).
// Before there were four (0/1 only, on/off/0/1, and two case-blind sets);
// now HCC_TRACE=on and HCC_SERVER=no mean what they say.
#include <cctype>
#include <cstring>

#include "config/config.hpp"

namespace hcc::config {

namespace {
struct Word {
  const char *text;
  bool on;
};
constexpr Word kWords[] = {{"on", true},  {"off", false}, {"1", true},    {"0", false},
                           {"yes", true}, {"no", false},  {"true", true}, {"false", false}};

bool equal_any_case(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b)
    if (std::tolower(static_cast<unsigned char>(*a)) != *b) return false;
  return *a == *b;
}
}  // namespace

std::optional<bool> parse_switch(const char *value) {
  if (!value) return std::nullopt;
  for (const Word &w : kWords)
    if (equal_any_case(value, w.text)) return w.on;
  return std::nullopt;
}

const char *switch_words() { return "on, off, 1, 0, yes, no, true or false"; }

}  // namespace hcc::config
