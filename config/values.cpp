// hcc config — parsing one value against its row: numbers with the row's
// range, sizes with K/M/G (config.hpp). Pure: no environment, no output.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "config/config.hpp"

namespace hcc::config {

namespace {

std::string plain(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", x);
  return buf;
}

// 4194304 -> "4M": the largest unit that divides it.
std::string size_text(double x) {
  const char *units = "GMK";
  for (int i = 0; i < 3; ++i) {
    const double unit = std::ldexp(1.0, 30 - 10 * i);
    if (x >= unit && std::fmod(x, unit) == 0) return plain(x / unit) + units[i];
  }
  return plain(x);
}

// Digits only (no sign, no blanks), then an optional K/M/G and B.
bool parse_size(const char *v, double &out) {
  if (*v < '0' || *v > '9') return false;
  errno = 0;
  char *end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  if (errno) return false;
  double mult = 1;
  if (*end == 'K' || *end == 'k') mult = 1024.0, ++end;
  else if (*end == 'M' || *end == 'm') mult = 1048576.0, ++end;
  else if (*end == 'G' || *end == 'g') mult = 1073741824.0, ++end;
  if (*end == 'B' || *end == 'b') ++end;
  if (*end != '\0') return false;
  out = double(n) * mult;
  return true;
}

bool parse_unsigned(const char *v, double &out) {
  if (*v < '0' || *v > '9') return false;
  errno = 0;
  char *end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  if (errno || *end != '\0') return false;
  out = double(n);
  return true;
}

bool parse_seconds(const char *v, double &out) {
  char *end = nullptr;
  out = std::strtod(v, &end);
  return end != v && *end == '\0' && std::isfinite(out);
}

}  // namespace

std::string range_text(const Variable &v) {
  if (v.type == Type::Size) return "from " + size_text(v.min) + " to " + size_text(v.max);
  return "from " + plain(v.min) + " to " + plain(v.max);
}

Parsed parse_number(const Variable &v, const char *value) {
  Parsed p;
  bool syntax = false;
  const char *kind = "";
  switch (v.type) {
    case Type::Size:
      syntax = parse_size(value, p.value);
      kind = "a size";
      break;
    case Type::Seconds:
      syntax = parse_seconds(value, p.value);
      kind = "a number of seconds";
      break;
    default:
      syntax = parse_unsigned(value, p.value);
      kind = "an integer";
      break;
  }
  p.ok = syntax && p.value >= v.min && p.value <= v.max;
  if (!p.ok) {
    p.why = std::string("is not ") + kind + " " + range_text(v);
    if (v.type == Type::Size) p.why += " (bytes, or with K, M, G)";
  }
  return p;
}

}  // namespace hcc::config
