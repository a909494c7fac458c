#include "gprof_view.hpp"

#include <algorithm>
#include <map>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "call_graph_model.hpp"

namespace hcc::report {

namespace {

std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char *f, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

// Rounded, and clamped: a count from a file may be any double, and casting
// one beyond the integer's range is undefined.
unsigned long count(double v) {
  if (!(v > 0)) return 0ul;
  if (v >= 18446744073709551615.0) return std::numeric_limits<unsigned long>::max();
  return static_cast<unsigned long>(v + 0.5);
}

}  // namespace

std::string gprof_text(const profile::Profile &p, int location) {
  const CallGraph g = build_call_graph(p, location);
  const std::vector<CgFunction> &fs = g.functions;
  auto name = [&](int region) { return p.regions[size_t(region)].name; };
  const double total = g.total_time > 0 ? g.total_time : 1.0;

  // Indices as gprof numbers them: by inclusive time, largest first.
  std::vector<int> order(fs.size());
  for (size_t i = 0; i < fs.size(); ++i) order[i] = int(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (fs[size_t(a)].total != fs[size_t(b)].total) return fs[size_t(a)].total > fs[size_t(b)].total;
    return name(fs[size_t(a)].region) < name(fs[size_t(b)].region);
  });
  std::vector<int> index_of(fs.size());
  for (size_t k = 0; k < order.size(); ++k) index_of[size_t(order[k])] = int(k + 1);
  auto idx = [&](int region) {
    auto it = g.by_region.find(region);
    return it == g.by_region.end() ? 0 : index_of[size_t(it->second)];
  };
  auto fn_of = [&](int region) -> const CgFunction * {
    auto it = g.by_region.find(region);
    return it == g.by_region.end() ? nullptr : &fs[size_t(it->second)];
  };

  std::string o = "Flat profile:\n\nTimes are exact per call path (hcc's call-context tree), not samples";
  o += location < 0 ? "; all locations summed.\n" : fmt("; location %d only.\n", location);
  o += "  %   cumulative   self              self     total           \n";
  o += " time   seconds   seconds    calls  ms/call  ms/call  name    \n";
  std::vector<int> flat = order;
  std::stable_sort(flat.begin(), flat.end(), [&](int a, int b) {
    const CgFunction &x = fs[size_t(a)], &y = fs[size_t(b)];
    if (x.self != y.self) return x.self > y.self;
    if (x.calls != y.calls) return x.calls > y.calls;
    return name(x.region) < name(y.region);
  });
  double cumulative = 0;
  for (int i : flat) {
    const CgFunction &f = fs[size_t(i)];
    cumulative += f.self;
    o += fmt("%6.2f %9.2f %8.2f", 100.0 * f.self / total, cumulative, f.self);
    if (count(f.calls) > 0)
      o += fmt(" %8lu %8.2f %8.2f", count(f.calls), 1e3 * f.self / f.calls, 1e3 * f.total / f.calls);
    else
      o += fmt(" %8s %8s %8s", "", "", "");
    o += "  " + name(f.region) + "\n";
  }

  o += "\f\n\t\t\tCall graph\n\n\n";
  o += fmt("granularity: exact per call path, for %.2f seconds\n\n", g.total_time);
  o += "index % time    self  children    called     name\n";
  // Arcs by callee and by caller, each in the arcs' key order, sorted out
  // once: looking through all arcs for every function would cost
  // functions x arcs (quadratic on a deep chain of distinct functions).
  std::map<int, std::vector<std::pair<int, CgArc>>> callers_of, callees_of;
  for (const auto &[key, arc] : g.arcs) {
    if (key.first == key.second) continue;
    callers_of[key.second].emplace_back(key.first, arc);
    callees_of[key.first].emplace_back(key.second, arc);
  }
  std::map<int, std::vector<std::pair<int, double>>> rec_callers_of, rec_callees_of;
  for (const auto &[key, n] : g.recursive_arcs) {
    rec_callers_of[key.second].emplace_back(key.first, n);
    rec_callees_of[key.first].emplace_back(key.second, n);
  }
  const std::vector<std::pair<int, double>> no_rec;
  for (int i : order) {
    const CgFunction &f = fs[size_t(i)];
    // Callers, the largest last (next to the function, as gprof has them).
    std::vector<std::pair<int, CgArc>> callers = std::move(callers_of[f.region]), callees = std::move(callees_of[f.region]);
    auto rec_in = rec_callers_of.find(f.region), rec_out = rec_callees_of.find(f.region);
    const auto &rec_callers = rec_in == rec_callers_of.end() ? no_rec : rec_in->second;
    const auto &rec_callees = rec_out == rec_callees_of.end() ? no_rec : rec_out->second;
    auto arc_time = [](const std::pair<int, CgArc> &a) { return a.second.self + a.second.children; };
    std::stable_sort(callers.begin(), callers.end(), [&](auto &a, auto &b) { return arc_time(a) < arc_time(b); });
    std::stable_sort(callees.begin(), callees.end(), [&](auto &a, auto &b) { return arc_time(a) > arc_time(b); });
    const unsigned long rec = count(f.recursive);
    auto arc_line = [&](int other, const CgArc &a, double of_total) {
      return fmt("%6s %5s %7.2f %7.2f %7lu/%-7lu     %s [%d]\n", "", "", a.self, a.children, count(a.calls),
                 count(of_total), name(other).c_str(), idx(other));
    };
    // Recursive calls: a count only, as gprof prints calls inside a cycle.
    auto rec_line = [&](int other, double n) {
      return fmt("%6s %5s %7s %7s %7lu %7s     %s [%d]\n", "", "", "", "", count(n), "", name(other).c_str(),
                 idx(other));
    };
    for (const auto &[other, n] : rec_callers) o += rec_line(other, n);
    if (callers.empty() && f.spontaneous) o += fmt("%6s %5s %7s %7s %7s %7s     <spontaneous>\n", "", "", "", "", "", "");
    for (const auto &[r, a] : callers) o += arc_line(r, a, f.calls);
    std::string called = count(f.calls) ? fmt("%7lu", count(f.calls)) : fmt("%7s", "");
    std::string plus = rec ? fmt("+%-7lu", rec) : fmt("%-8s", "");
    o += fmt("%-6s %5.1f %7.2f %7.2f %s%s %s [%d]\n", fmt("[%d]", index_of[size_t(i)]).c_str(),
             100.0 * f.total / total, f.self, f.total - f.self, called.c_str(), plus.c_str(),
             name(f.region).c_str(), index_of[size_t(i)]);
    for (const auto &[r, a] : callees) {
      const CgFunction *c = fn_of(r);
      o += arc_line(r, a, c ? c->calls : a.calls);
    }
    for (const auto &[other, n] : rec_callees) o += rec_line(other, n);
    o += "-----------------------------------------------\n";
  }

  o += "\f\nIndex by function name\n\n";
  std::vector<int> by_name = order;
  std::stable_sort(by_name.begin(), by_name.end(),
                   [&](int a, int b) { return name(fs[size_t(a)].region) < name(fs[size_t(b)].region); });
  for (int i : by_name) o += fmt("%6s %s\n", fmt("[%d]", index_of[size_t(i)]).c_str(), name(fs[size_t(i)].region).c_str());
  return o;
}

}  // namespace hcc::report
