// Helpers shared by the runtime tests: regions by hand, and questions about
// a profile::Profile asked by region names.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/testing.hpp"
#include "cube/profile.hpp"
#include "hcc/detail/inject.h"

// A function region descriptor, as the instrumentor writes one.
#define TEST_REGION(var, name) \
  static hcc_region_desc var = {name, nullptr, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0}

namespace tu {

using hcc::profile::Profile;

inline int region_id(const Profile &p, const std::string &name) {
  for (size_t r = 0; r < p.regions.size(); ++r)
    if (p.regions[r].name == name) return int(r);
  return -1;
}

// The call path named by region names from a root; -1 when absent.
inline int find_path(const Profile &p, const std::vector<std::string> &names) {
  int parent = -1;
  for (const std::string &name : names) {
    int found = -1;
    for (size_t c = 0; c < p.cnodes.size(); ++c)
      if (p.cnodes[c].parent == parent && p.regions[p.cnodes[c].region].name == name) found = int(c);
    if (found < 0) return -1;
    parent = found;
  }
  return parent;
}

inline std::vector<int> children(const Profile &p, int c) {
  std::vector<int> out;
  for (size_t i = 0; i < p.cnodes.size(); ++i)
    if (p.cnodes[i].parent == c) out.push_back(int(i));
  return out;
}

// Sum over locations of the exclusive value.
inline double total(const Profile &p, const std::string &metric, int c) {
  int m = p.metric_index(metric);
  double s = 0;
  for (size_t l = 0; l < p.nloc(); ++l) s += p.at(size_t(m), size_t(c), l);
  return s;
}

// Inclusive value at one location, computed here from the exclusive values.
inline double inclusive_at(const Profile &p, const std::string &metric, int c, size_t l) {
  int m = p.metric_index(metric);
  double s = p.at(size_t(m), size_t(c), l);
  for (int k : children(p, c)) s += inclusive_at(p, metric, k, l);
  return s;
}

inline double inclusive_total(const Profile &p, const std::string &metric, int c) {
  double s = 0;
  for (size_t l = 0; l < p.nloc(); ++l) s += inclusive_at(p, metric, c, l);
  return s;
}

// Busy-waits `ms` milliseconds of wall-clock time (a region that surely
// takes at least that long, however loaded the machine is). Returns the
// seconds it really took: more when another process took the core meanwhile,
// which a test comparing regions must allow for.
inline double spin_ms(double ms) {
  const auto start = std::chrono::steady_clock::now();
  const auto end = start + std::chrono::duration<double, std::milli>(ms);
  auto now = start;
  while (now < end) now = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(now - start).count();
}

// The predecessor list of call path c as "main:1,bar:19" (counts summed over
// locations, in the profile's order); markers when there is no such path or
// no control-flow data.
inline std::string preds(const hcc::profile::Profile &p, int c) {
  if (c < 0) return "<no such call path>";
  if (p.preds.empty()) return "<no control-flow data>";
  std::string out;
  for (const auto &pr : p.preds[size_t(c)]) {
    double n = 0;
    for (double v : pr.count) n += v;
    out += (out.empty() ? "" : ",") + p.regions[size_t(p.cnodes[size_t(pr.callpath)].region)].name + ":" +
           std::to_string(static_cast<long long>(n));
  }
  return out;
}

}  // namespace tu
