#include "gprof_view.hpp"

#include <algorithm>
#include <map>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "call_graph_model.hpp"
#include "marks.hpp"

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

// A time in printf format `f` (no width), with the mark when it came from
// samples (marks.hpp), right-aligned in `width` columns as gprof's own.
std::string time_cell(const char *f, double v, size_t width, bool sampled) {
  const std::string s = profile::marked(fmt(f, v), sampled);
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

}  // namespace

std::string gprof_text(const profile::Profile &p, int location, bool mark) {
  const CallGraph g = build_call_graph(p, location);
  const std::vector<CgFunction> &fs = g.functions;
  auto name = [&](int region) { return p.regions[size_t(region)].name; };
  const double total = g.total_time > 0 ? g.total_time : 1.0;
  // A function's own time and what includes it are marked on its lines;
  // `children` is other functions' time, marked on theirs.
  auto sampled = [&](int region) { return mark && profile::region_time_from_samples(p.regions[size_t(region)]); };
  bool any_sampled = false;
  for (const CgFunction &f : fs) any_sampled |= profile::region_time_from_samples(p.regions[size_t(f.region)]);
  const std::string legend = any_sampled && mark ? std::string(profile::kSampledLegend) + "\n" : "";

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

  std::string o = "Flat profile:\n\nTimes per call path (hcc's call-context tree): hcc's clock";
  if (any_sampled) o += mark ? ", or the CPU time of samples where marked ~" : ", or the CPU time of samples (unmarked)";
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
    const bool s = sampled(f.region);
    o += time_cell("%.2f", 100.0 * f.self / total, 6, s) + fmt(" %9.2f ", cumulative) + time_cell("%.2f", f.self, 8, s);
    if (count(f.calls) > 0)
      o += fmt(" %8lu ", count(f.calls)) + time_cell("%.2f", 1e3 * f.self / f.calls, 8, s) + " " +
           time_cell("%.2f", 1e3 * f.total / f.calls, 8, s);
    else
      o += fmt(" %8s %8s %8s", "", "", "");
    o += "  " + name(f.region) + "\n";
  }
  o += legend;

  o += "\f\n\t\t\tCall graph\n\n\n";
  o += fmt("granularity: per call path, for %.2f seconds\n\n", g.total_time);
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
    // `self` of an arc is its callee's time: f's on a caller line, the
    // callee's on a callee line.
    auto arc_line = [&](int other, const CgArc &a, double of_total, int callee) {
      return fmt("%6s %5s ", "", "") + time_cell("%.2f", a.self, 7, sampled(callee)) +
             fmt(" %7.2f %7lu/%-7lu     %s [%d]\n", a.children, count(a.calls), count(of_total), name(other).c_str(),
                 idx(other));
    };
    // Recursive calls: a count only, as gprof prints calls inside a cycle.
    auto rec_line = [&](int other, double n) {
      return fmt("%6s %5s %7s %7s %7lu %7s     %s [%d]\n", "", "", "", "", count(n), "", name(other).c_str(),
                 idx(other));
    };
    for (const auto &[other, n] : rec_callers) o += rec_line(other, n);
    if (callers.empty() && f.spontaneous) o += fmt("%6s %5s %7s %7s %7s %7s     <spontaneous>\n", "", "", "", "", "", "");
    for (const auto &[r, a] : callers) o += arc_line(r, a, f.calls, f.region);
    std::string called = count(f.calls) ? fmt("%7lu", count(f.calls)) : fmt("%7s", "");
    std::string plus = rec ? fmt("+%-7lu", rec) : fmt("%-8s", "");
    const bool s = sampled(f.region);
    o += fmt("%-6s ", fmt("[%d]", index_of[size_t(i)]).c_str()) + time_cell("%.1f", 100.0 * f.total / total, 5, s) +
         " " + time_cell("%.2f", f.self, 7, s) +
         fmt(" %7.2f %s%s %s [%d]\n", f.total - f.self, called.c_str(), plus.c_str(), name(f.region).c_str(),
             index_of[size_t(i)]);
    for (const auto &[r, a] : callees) {
      const CgFunction *c = fn_of(r);
      o += arc_line(r, a, c ? c->calls : a.calls, r);
    }
    for (const auto &[other, n] : rec_callees) o += rec_line(other, n);
    o += "-----------------------------------------------\n";
  }
  o += legend;

  o += "\f\nIndex by function name\n\n";
  std::vector<int> by_name = order;
  std::stable_sort(by_name.begin(), by_name.end(),
                   [&](int a, int b) { return name(fs[size_t(a)].region) < name(fs[size_t(b)].region); });
  for (int i : by_name) o += fmt("%6s %s\n", fmt("[%d]", index_of[size_t(i)]).c_str(), name(fs[size_t(i)].region).c_str());
  return o;
}

}  // namespace hcc::report
