// pomp — CTC parsing (see ctc.hpp).
#include "ctc.hpp"

#include <cstdlib>

namespace hcc::pomp {

namespace {

// "file:l1:l2" -> file, l1 (first line) / l2 (last line)
void parse_location(const std::string &v, std::string &file, int &l1, int &l2) {
  size_t b = v.rfind(':');
  if (b == std::string::npos || b == 0) return;
  size_t a = v.rfind(':', b - 1);
  if (a == std::string::npos) return;
  file = v.substr(0, a);
  l1 = std::atoi(v.c_str() + a + 1);
  l2 = std::atoi(v.c_str() + b + 1);
}

}  // namespace

Ctc parse_ctc(const char *ctc) {
  Ctc c;
  if (!ctc) return c;
  std::string s(ctc);
  size_t i = s.find('*');  // skip the length prefix
  while (i != std::string::npos && i + 1 < s.size()) {
    size_t j = s.find('*', i + 1);
    std::string kv = s.substr(i + 1, (j == std::string::npos ? s.size() : j) - i - 1);
    size_t eq = kv.find('=');
    std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
    if (k == "regionType") {
      c.type = v;
    } else if (k == "sscl") {
      int l2 = 0;
      parse_location(v, c.file, c.begin_line, l2);
    } else if (k == "escl") {
      std::string f;
      int l1 = 0;
      parse_location(v, f, l1, c.end_line);
      if (c.file.empty()) c.file = f;
    } else if (k == "criticalName") {
      c.critical_name = v;
    }
    i = j;
  }
  if (c.end_line < c.begin_line) c.end_line = c.begin_line;
  return c;
}

}  // namespace hcc::pomp
