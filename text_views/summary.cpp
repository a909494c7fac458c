// hcc — the readable summary: pprof-style flat profile, hottest call paths,
// call tree. Only `time` and `visits` are known by name (they fill pprof's
// columns); every other metric becomes extra columns, so new metrics (MPI
// bytes, PAPI counters) show up without changes here. PAPI preset names are
// known too, for ratios (IPC, MFLOP/s, miss ratios) when both inputs exist.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "findings.hpp"
#include "marks.hpp"
#include "summary.hpp"

namespace hcc::profile {
namespace {

bool is_integer(DType t) { return t == DType::UInt64 || t == DType::Int64; }

// Combines two values of a metric the way CUBE aggregates that data type.
double combine(DType t, double a, double b) {
  if (t == DType::MinDouble) return std::min(a, b);
  if (t == DType::MaxDouble) return std::max(a, b);
  return a + b;
}
double neutral(DType t) {
  if (t == DType::MinDouble) return std::numeric_limits<double>::infinity();
  if (t == DType::MaxDouble) return -std::numeric_limits<double>::infinity();
  return 0.0;
}

std::string format_value(double v, DType t) {
  if (std::isinf(v)) return "-";
  if (is_integer(t)) return fmt::format("{:.0f}", v);
  return fmt::format("{:.6g}", v);
}

// A text table: right-aligned numeric columns, last column left-aligned,
// widths from the widest cell, two spaces between columns.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::string render() const {
    std::vector<std::size_t> w(header.size());
    for (std::size_t i = 0; i < header.size(); ++i) w[i] = header[i].size();
    for (const auto &r : rows)
      for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], r[i].size());
    auto line = [&](const std::vector<std::string> &cells) {
      std::string out;
      for (std::size_t i = 0; i < cells.size(); ++i) {
        if (i) out += "  ";
        if (i + 1 == cells.size()) out += cells[i];  // Name: no padding
        else out += fmt::format("{:>{}}", cells[i], w[i]);
      }
      return out + "\n";
    };
    std::string out = line(header);
    std::size_t total = 0;
    for (std::size_t i = 0; i < w.size(); ++i) total += w[i] + (i ? 2 : 0);
    out += std::string(std::min<std::size_t>(total, 100), '-') + "\n";
    for (const auto &r : rows) out += line(r);
    return out;
  }
};

// True when a metric has no nonzero value anywhere (not-a-number counts as
// a value: it is something to look at).
bool all_zero(const std::vector<double> &values) {
  for (double x : values)
    if (x != 0.0) return false;
  return true;
}

// Everything the views need, computed once: per-metric inclusive matrices
// and per-call-path sums over the selected locations.
// Sampling's per-call-path CPU times (runtime/sampling): `sampled_cpu`, which
// the time columns already hold where a time came from samples, and
// `measurement_cpu`, summed in the summary's header.
bool sampling_bookkeeping(const std::string &metric) {
  return metric == "sampled_cpu" || metric == "measurement_cpu";
}

struct View {
  const Profile &p;
  int loc;  // -1 = all locations
  int time = -1, visits = -1;
  double to_sec = 1.0;
  std::vector<int> extra;                  // metrics shown as extra columns
  std::vector<std::vector<double>> excl;   // [m][c] summed over selected locations
  std::vector<std::vector<double>> incl;   // [m][c]

  View(const Profile &prof, int location) : p(prof), loc(location) {
    time = p.metric_index("time");
    visits = p.metric_index("visits");
    if (time >= 0) to_sec = seconds_per_unit(p.metrics[static_cast<std::size_t>(time)].uom);
    // Extra columns only for metrics with a value somewhere: an MPI build
    // carries 16 MPI/IO byte and count metrics, all zero in a one-rank run,
    // which would push the Name column 400 characters to the right.
    // Sampling's CPU-time metrics get no columns either: a time that came
    // from samples is marked `~` in the time columns, and what measuring
    // cost is one line of the summary (measurement_cpu); both stay in the
    // profile, --json and the HTML page.
    for (std::size_t m = 0; m < p.metrics.size(); ++m)
      if (static_cast<int>(m) != time && static_cast<int>(m) != visits && !all_zero(p.excl[m]) &&
          !sampling_bookkeeping(p.metrics[m].uniq_name) && !is_rank_statistic(p.metrics[m]))
        extra.push_back(static_cast<int>(m));
    const std::size_t nc = p.cnodes.size(), nl = p.nloc();
    excl.resize(p.metrics.size());
    incl.resize(p.metrics.size());
    for (std::size_t m = 0; m < p.metrics.size(); ++m) {
      const DType t = p.metrics[m].dtype;
      const std::vector<double> in = inclusive(p, m);
      excl[m].assign(nc, neutral(t));
      incl[m].assign(nc, neutral(t));
      for (std::size_t c = 0; c < nc; ++c)
        for (std::size_t l = 0; l < nl; ++l) {
          if (loc >= 0 && static_cast<int>(l) != loc) continue;
          excl[m][c] = combine(t, excl[m][c], p.excl[m][c * nl + l]);
          incl[m][c] = combine(t, incl[m][c], in[c * nl + l]);
        }
    }
  }
  double excl_sec(std::size_t c) const { return time >= 0 ? excl[static_cast<std::size_t>(time)][c] * to_sec : 0.0; }
  double incl_sec(std::size_t c) const { return time >= 0 ? incl[static_cast<std::size_t>(time)][c] * to_sec : 0.0; }
  double visits_of(std::size_t c) const { return visits >= 0 ? excl[static_cast<std::size_t>(visits)][c] : 0.0; }
  double total_sec() const {
    double t = 0;
    for (int r : roots(p)) t += incl_sec(static_cast<std::size_t>(r));
    return t;
  }
  std::string scope() const {
    if (loc < 0) return fmt::format("summed over {} location{}", p.nloc(), p.nloc() == 1 ? "" : "s");
    const Location &l = p.locations[static_cast<std::size_t>(loc)];
    return fmt::format("location {} (rank {}, thread {})", loc, l.rank, l.thread);
  }
};

std::string path_name(const Profile &p, int c) {
  std::vector<int> chain;
  for (int n = c; n >= 0; n = p.cnodes[static_cast<std::size_t>(n)].parent) chain.push_back(n);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!out.empty()) out += " \u2192 ";
    out += p.regions[static_cast<std::size_t>(p.cnodes[static_cast<std::size_t>(*it)].region)].name;
  }
  return out;
}

// Time cells say `~12.345` when the time came from samples (marks.hpp; a
// profile without a time metric prints zeros, which are not marked), and a
// table with such a cell gets the legend under it.
std::string with_legend(const std::string &table, bool any_marked, bool any_lower_bound = false) {
  std::string out = any_marked ? table + kSampledLegend + "\n" : table;
  return any_lower_bound ? out + kLowerBoundLegend + "\n" : out;
}

std::string flat_text(const View &v) {
  const Profile &p = v.p;
  const std::size_t nr = p.regions.size(), nc = p.cnodes.size();
  struct Row {
    bool used = false;
    bool subrs_lower_bound = false;  // a child's count stopped
    double excl = 0, incl = 0, calls = 0, subrs = 0;
    std::vector<double> x_excl, x_incl;  // extra metrics
  };
  std::vector<Row> rows(nr);
  for (auto &r : rows) {
    for (int m : v.extra) {
      r.x_excl.push_back(neutral(p.metrics[static_cast<std::size_t>(m)].dtype));
      r.x_incl.push_back(neutral(p.metrics[static_cast<std::size_t>(m)].dtype));
    }
  }
  // A region's inclusive value counts only its outermost call paths, so a
  // recursive function is not counted once per recursion level (as pprof).
  // Pre-order walk with enter/leave events keeps "is the region active".
  const auto children = children_of(p);
  std::vector<int> active(nr, 0);
  walk_preorder(
      p,
      [&](int e) {
        const std::size_t c = static_cast<std::size_t>(e);
        const std::size_t r = static_cast<std::size_t>(p.cnodes[c].region);
        Row &row = rows[r];
        row.used = true;
        const bool outermost = active[r] == 0;
        row.excl += v.excl_sec(c);
        row.calls += v.visits_of(c);
        for (int ch : children[c]) {
          row.subrs += v.visits_of(static_cast<std::size_t>(ch));
          row.subrs_lower_bound |= path_visits_lower_bound(p, static_cast<std::size_t>(ch));
        }
        if (outermost) row.incl += v.incl_sec(c);
        for (std::size_t k = 0; k < v.extra.size(); ++k) {
          const std::size_t m = static_cast<std::size_t>(v.extra[k]);
          const DType t = p.metrics[m].dtype;
          row.x_excl[k] = combine(t, row.x_excl[k], v.excl[m][c]);
          if (outermost) row.x_incl[k] = combine(t, row.x_incl[k], v.incl[m][c]);
        }
        ++active[r];
      },
      [&](int e) { --active[static_cast<std::size_t>(p.cnodes[static_cast<std::size_t>(e)].region)]; });
  (void)nc;

  std::vector<std::size_t> order;
  for (std::size_t r = 0; r < nr; ++r)
    if (rows[r].used) order.push_back(r);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (rows[a].excl != rows[b].excl) return rows[a].excl > rows[b].excl;
    return rows[a].incl > rows[b].incl;
  });

  const double total = v.total_sec();
  Table t;
  t.header = {"%Time", "Exclusive msec", "Inclusive total msec", "#Call", "#Subrs", "Inclusive usec/call"};
  for (int m : v.extra) {
    t.header.push_back(p.metrics[static_cast<std::size_t>(m)].uniq_name + " excl");
    t.header.push_back(p.metrics[static_cast<std::size_t>(m)].uniq_name + " incl");
  }
  t.header.push_back("Name");
  bool any_marked = false, any_lower_bound = false;
  for (std::size_t r : order) {
    const Row &row = rows[r];
    const bool lower_bound = visits_lower_bound(p.regions[r]);
    any_lower_bound |= lower_bound || row.subrs_lower_bound;
    // All of a region's call paths are of one kind: timed or from samples.
    const bool sampled = region_time_from_samples(p.regions[r]) && v.time >= 0;
    any_marked |= sampled;
    std::vector<std::string> cells = {
        marked(fmt::format("{:.1f}", total > 0 ? 100.0 * row.incl / total : 0.0), sampled),
        marked(fmt::format("{:.3f}", row.excl * 1e3), sampled),
        marked(fmt::format("{:.3f}", row.incl * 1e3), sampled),
        visits_marked(fmt::format("{:.0f}", row.calls), lower_bound),
        visits_marked(fmt::format("{:.0f}", row.subrs), row.subrs_lower_bound),
        // Over a lower bound of visits, an upper bound.
        (lower_bound ? kUpperBoundMark : "") +
            marked(fmt::format("{:.3f}", row.calls > 0 ? row.incl * 1e6 / row.calls : 0.0), sampled),
    };
    for (std::size_t k = 0; k < v.extra.size(); ++k) {
      const DType dt = p.metrics[static_cast<std::size_t>(v.extra[k])].dtype;
      cells.push_back(format_value(row.x_excl[k], dt));
      cells.push_back(format_value(row.x_incl[k], dt));
    }
    cells.push_back(p.regions[r].name);
    t.rows.push_back(std::move(cells));
  }
  std::string out = fmt::format("FLAT PROFILE ({}, sorted by exclusive time)\n", v.scope());
  if (v.time < 0) out += "(this profile has no 'time' metric; time columns are 0)\n";
  return out + with_legend(t.render(), any_marked, any_lower_bound);
}

std::string hot_paths_text(const View &v, std::size_t top) {
  const Profile &p = v.p;
  std::vector<int> order(p.cnodes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return v.excl_sec(static_cast<std::size_t>(a)) > v.excl_sec(static_cast<std::size_t>(b)); });
  if (order.size() > top) order.resize(top);
  const double total = v.total_sec();
  Table t;
  t.header = {"Exclusive msec", "%Time", "Visits", "Call path"};
  bool any_marked = false, any_lower_bound = false;
  for (int c : order) {
    const std::size_t cc = static_cast<std::size_t>(c);
    const bool sampled = path_time_from_samples(p, cc) && v.time >= 0;
    any_marked |= sampled;
    any_lower_bound |= path_visits_lower_bound(p, cc);
    t.rows.push_back({marked(fmt::format("{:.3f}", v.excl_sec(cc) * 1e3), sampled),
                      marked(fmt::format("{:.1f}", total > 0 ? 100.0 * v.excl_sec(cc) / total : 0.0), sampled),
                      visits_marked(fmt::format("{:.0f}", v.visits_of(cc)), path_visits_lower_bound(p, cc)),
                      path_name(p, c)});
  }
  return fmt::format("HOTTEST CALL PATHS (top {} by exclusive time, {})\n", top, v.scope()) +
         with_legend(t.render(), any_marked, any_lower_bound);
}

// Two spaces per level up to kMaxIndentLevels; deeper rows print their depth
// instead ("[depth 5000] name"), so the text of a deep tree (a recursion of
// 100 000 levels) grows linearly with its paths, not with their square.
std::string tree_indent(std::size_t depth) {
  constexpr std::size_t kMaxIndentLevels = 40;
  if (depth <= kMaxIndentLevels) return std::string(2 * depth, ' ');
  return std::string(2 * kMaxIndentLevels, ' ') + "[depth " + std::to_string(depth) + "] ";
}

// The call tree in pre-order. With `max_paths` > 0 only that many call
// paths are shown: those with the largest inclusive time (summed over the
// selected locations; ties: parents first), plus their ancestors, so what is
// shown is the top of the tree where the time goes; under a node whose
// children were left out a line says how many.
std::string tree_text(const View &v, std::size_t max_paths = 0) {
  const Profile &p = v.p;
  const std::size_t nc = p.cnodes.size();
  std::vector<char> shown(nc, 1);
  std::size_t n_shown = nc;
  double cutoff_ms = 0;
  if (max_paths > 0 && nc > max_paths) {
    std::vector<int> order(nc);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return v.incl_sec(static_cast<std::size_t>(a)) > v.incl_sec(static_cast<std::size_t>(b));
    });
    shown.assign(nc, 0);
    for (std::size_t i = 0; i < max_paths; ++i)
      for (int c = order[i]; c >= 0 && !shown[static_cast<std::size_t>(c)]; c = p.cnodes[static_cast<std::size_t>(c)].parent)
        shown[static_cast<std::size_t>(c)] = 1;
    n_shown = 0;
    for (char s : shown) n_shown += s ? 1 : 0;
    cutoff_ms = v.incl_sec(static_cast<std::size_t>(order[max_paths])) * 1e3;
  }
  const auto children = children_of(p);
  Table t;
  t.header = {"Incl msec", "Excl msec", "Visits"};
  for (int m : v.extra) {
    t.header.push_back(p.metrics[static_cast<std::size_t>(m)].uniq_name + " incl");
    t.header.push_back(p.metrics[static_cast<std::size_t>(m)].uniq_name + " excl");
  }
  t.header.push_back("Call path");
  const std::size_t ncols = t.header.size();
  std::vector<std::pair<int, std::vector<std::string>>> pending;  // "... more" rows, innermost last
  int depth = 0;
  bool any_marked = false, any_lower_bound = false;
  walk_preorder(
      p,
      [&](int c) {
        const std::size_t cc = static_cast<std::size_t>(c);
        ++depth;
        if (!shown[cc]) return;
        // Inclusive too: an untimed node's inclusive time is its samples'
        // time plus its children's.
        const bool sampled = path_time_from_samples(p, cc) && v.time >= 0;
        any_marked |= sampled;
        const bool lower_bound = path_visits_lower_bound(p, cc);
        any_lower_bound |= lower_bound;
        std::vector<std::string> cells = {marked(fmt::format("{:.3f}", v.incl_sec(cc) * 1e3), sampled),
                                          marked(fmt::format("{:.3f}", v.excl_sec(cc) * 1e3), sampled),
                                          visits_marked(fmt::format("{:.0f}", v.visits_of(cc)), lower_bound)};
        for (int m : v.extra) {
          const std::size_t mm = static_cast<std::size_t>(m);
          cells.push_back(format_value(v.incl[mm][cc], p.metrics[mm].dtype));
          cells.push_back(format_value(v.excl[mm][cc], p.metrics[mm].dtype));
        }
        cells.push_back(tree_indent(static_cast<std::size_t>(depth - 1)) +
                        p.regions[static_cast<std::size_t>(p.cnodes[cc].region)].name);
        t.rows.push_back(std::move(cells));
        std::size_t hidden = 0;
        for (int k : children[cc]) hidden += shown[static_cast<std::size_t>(k)] ? 0 : 1;
        if (hidden > 0) {
          // Stands in the children's place, after the shown ones (pre-order
          // puts them first): marked now, placed when the node is left.
          std::vector<std::string> more(ncols - 1, "");
          more.push_back(std::string(2 * static_cast<std::size_t>(depth), ' ') +
                         fmt::format("... {} more call path{} below", hidden, hidden == 1 ? "" : "s"));
          pending.push_back({c, std::move(more)});
        }
      },
      [&](int c) {
        --depth;
        if (!pending.empty() && pending.back().first == c) {
          t.rows.push_back(std::move(pending.back().second));
          pending.pop_back();
        }
      });
  if (n_shown == nc) return fmt::format("CALL TREE ({})\n", v.scope()) + with_legend(t.render(), any_marked, any_lower_bound);
  return fmt::format("CALL TREE ({}; the {} call paths of {} with the largest inclusive time, and their callers)\n",
                     v.scope(), n_shown, nc) +
         with_legend(t.render(), any_marked, any_lower_bound) +
         fmt::format("... {} more call paths, each with at most {:.3f} msec inclusive: all of them are in the "
                     ".cubex (CubeGUI, hcc-report --tree)\n",
                     nc - n_shown, cutoff_ms);
}

// Ratios of counters, when their inputs were measured (PAPI preset names,
// as PAPI and Score-P/TAU users know them, and the kernel's generic events). The first variant whose inputs
// are all present is used; "" as denominator means the time in seconds.
struct Derived {
  const char *title;
  const char *num;
  const char *den;
  double factor;
};
const Derived kDerived[] = {
    {"IPC", "PAPI_TOT_INS", "PAPI_TOT_CYC", 1.0},
    {"IPC", "perf::INSTRUCTIONS", "perf::CYCLES", 1.0},  // the kernel's generic events
    {"MFLOP/s", "PAPI_FP_OPS", "", 1e-6},
    {"MFLOP/s", "PAPI_DP_OPS", "", 1e-6},
    {"MFLOP/s", "PAPI_SP_OPS", "", 1e-6},
    {"L1 miss ratio", "PAPI_L1_DCM", "PAPI_L1_DCA", 1.0},
    {"L1 miss ratio", "PAPI_L1_DCM", "PAPI_LD_INS", 1.0},
    {"L2 miss ratio", "PAPI_L2_DCM", "PAPI_L2_DCA", 1.0},
    {"L2 miss ratio", "PAPI_L2_TCM", "PAPI_L2_TCA", 1.0},
};

// Per region, from exclusive values (the region's own code), plus the whole
// program from the roots' inclusive values. "" when nothing can be derived.
std::string derived_text(const View &v) {
  const Profile &p = v.p;
  struct Use {
    const Derived *d;
    int num, den;  // metric ids; den -1 = time
  };
  std::vector<Use> uses;
  for (const Derived &d : kDerived) {
    bool have = false;
    for (const Use &u : uses) have |= std::string(u.d->title) == d.title;
    const int num = p.metric_index(d.num), den = *d.den ? p.metric_index(d.den) : -1;
    if (have || num < 0 || (*d.den && den < 0) || (!*d.den && v.time < 0)) continue;
    uses.push_back({&d, num, den});
  }
  if (uses.empty()) return "";
  const std::size_t nr = p.regions.size();
  // [use][region] numerator / denominator sums, exclusive.
  std::vector<std::vector<double>> num(uses.size(), std::vector<double>(nr, 0.0)), den = num;
  std::vector<double> excl_time(nr, 0.0);
  std::vector<bool> used(nr, false);
  for (std::size_t c = 0; c < p.cnodes.size(); ++c) {
    const std::size_t r = static_cast<std::size_t>(p.cnodes[c].region);
    used[r] = true;
    excl_time[r] += v.excl_sec(c);
    for (std::size_t u = 0; u < uses.size(); ++u) {
      num[u][r] += v.excl[static_cast<std::size_t>(uses[u].num)][c];
      den[u][r] += uses[u].den < 0 ? v.excl_sec(c) : v.excl[static_cast<std::size_t>(uses[u].den)][c];
    }
  }
  auto cell = [](double n, double d, double f) { return d > 0 ? fmt::format("{:.4g}", f * n / d) : std::string("-"); };
  Table t;
  for (const Use &u : uses) t.header.push_back(u.d->title);
  t.header.push_back("Name");
  {  // whole program: inclusive values of the roots
    std::vector<std::string> cells;
    for (const Use &u : uses) {
      double n = 0, d = 0;
      for (int root : roots(p)) {
        const std::size_t rc = static_cast<std::size_t>(root);
        n += v.incl[static_cast<std::size_t>(u.num)][rc];
        d += u.den < 0 ? v.incl_sec(rc) : v.incl[static_cast<std::size_t>(u.den)][rc];
      }
      cells.push_back(cell(n, d, u.d->factor));
    }
    cells.push_back("(whole program, inclusive)");
    t.rows.push_back(std::move(cells));
  }
  std::vector<std::size_t> order;
  for (std::size_t r = 0; r < nr; ++r)
    if (used[r]) order.push_back(r);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return excl_time[a] > excl_time[b]; });
  for (std::size_t r : order) {
    std::vector<std::string> cells;
    for (std::size_t u = 0; u < uses.size(); ++u) cells.push_back(cell(num[u][r], den[u][r], uses[u].d->factor));
    cells.push_back(p.regions[r].name);
    t.rows.push_back(std::move(cells));
  }
  std::string how;
  for (const Use &u : uses)
    how += fmt::format("{}{} = {}{}{}", how.empty() ? "" : ", ", u.d->title, u.d->factor != 1.0 ? "1e-6 * " : "",
                       u.d->num, u.den < 0 ? " / time" : std::string(" / ") + u.d->den);
  return fmt::format("DERIVED METRICS (exclusive per region, {}; {})\n", v.scope(), how) + t.render();
}

// summary.txt shows this many call paths of the tree (the rest are in the
// .cubex): a text view stays readable, and small, whatever the tree.
constexpr std::size_t kSummaryTreePaths = 200;

std::string program_name(const Profile &p) {
  for (const char *key : {"program", "hcc.program", "executable"})
    for (const auto &kv : p.attrs)
      if (kv.first == key && !kv.second.empty()) return kv.second;
  const auto rs = roots(p);
  if (!rs.empty()) return p.regions[static_cast<std::size_t>(p.cnodes[static_cast<std::size_t>(rs.front())].region)].name;
  return "(unknown)";
}

}  // namespace

std::string flat_profile_text(const Profile &p, int location) {
  if (location >= static_cast<int>(p.nloc()))
    return fmt::format("no location {} (the profile has {})\n", location, p.nloc());
  const View v(p, location);
  return flat_text(v) + "\n" + hot_paths_text(v, 10);
}

std::string hot_paths_text(const Profile &p, std::size_t top) { return hot_paths_text(View(p, -1), top); }

std::string call_tree_text(const Profile &p, int location) {
  if (location >= static_cast<int>(p.nloc()))
    return fmt::format("no location {} (the profile has {})\n", location, p.nloc());
  return tree_text(View(p, location));
}

std::string summary_text(const Profile &p) {
  const View v(p, -1);
  std::vector<int> ranks;
  for (const auto &l : p.locations) ranks.push_back(l.rank);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::string metrics;
  bool rank_stats = false;
  for (const auto &m : p.metrics) {
    rank_stats |= is_rank_statistic(m);
    if (!is_rank_statistic(m)) metrics += (metrics.empty() ? "" : ", ") + m.uniq_name + " [" + m.uom + "]";
  }

  // What cost the run the most comes first (findings/): the answer before the tables.
  std::string out = hcc::findings::findings_text(hcc::findings::find_all(p)) + "\n";
  out += "hcc profile summary\n";
  out += fmt::format("Program:    {}\n", program_name(p));
  std::string job_ranks = "?", why = "HCC_LOCATIONS=summary";
  for (const auto &[k, val] : p.attrs) {
    if (k == "mpi ranks") job_ranks = val;
    if (k == "hcc summary.txt") why = val;  // a job too large for rank 0 to keep here
  }
  if (rank_stats)
    out += fmt::format("Locations:  the sum and statistics over {} MPI ranks ({})\n", job_ranks, why);
  else
    out += fmt::format("Locations:  {} ({} process{}, {} thread{})\n", p.nloc(), ranks.size(),
                       ranks.size() == 1 ? "" : "es", p.nloc(), p.nloc() == 1 ? "" : "s");
  out += fmt::format("Total time: {:.6f} s (inclusive time of the root call paths, summed over locations)\n",
                     v.total_sec());
  out += fmt::format("Call paths: {}, regions: {}\n", p.cnodes.size(), p.regions.size());
  out += fmt::format("Metrics:    {}\n", metrics);
  if (rank_stats)
    out += "Over ranks: <metric>_rank_min, _rank_mean, _rank_max, _rank_max_at per call path (in the profile; MPI below)\n";
  std::string zero;
  for (std::size_t m = 0; m < p.metrics.size(); ++m)
    if (static_cast<int>(m) != v.time && static_cast<int>(m) != v.visits && all_zero(p.excl[m]) &&
        !is_rank_statistic(p.metrics[m]))
      zero += (zero.empty() ? "" : ", ") + p.metrics[m].uniq_name;
  if (!zero.empty()) out += fmt::format("All zero:   {} (no columns for them below)\n", zero);
  // What measuring cost, where it was paid (samples inside hcc's code).
  if (const int mc = p.metric_index("measurement_cpu"); mc >= 0) {
    double cost = 0, cpu = 0;
    for (double x : p.excl[static_cast<std::size_t>(mc)]) cost += x;
    if (const int sc = p.metric_index("sampled_cpu"); sc >= 0)
      for (double x : p.excl[static_cast<std::size_t>(sc)]) cpu += x;
    cpu += cost;
    out += fmt::format("Measuring:  {:.3f} s of CPU in hcc's own code, {:.1f}% of the {:.3f} s sampled "
                       "(metric measurement_cpu, per call path)\n",
                       cost, cpu > 0 ? 100.0 * cost / cpu : 0.0, cpu);
  }
  // Recursion folded by the runtime (runtime/core/fold.hpp): say where it
  // went deepest, so nobody looks for recursion levels in the tree.
  if (const int rd = p.metric_index("recursion_depth"); rd >= 0) {
    double deepest = 0;
    std::size_t where = 0;
    for (std::size_t c = 0; c < p.cnodes.size(); ++c)
      for (std::size_t l = 0; l < p.nloc(); ++l)
        if (p.at(static_cast<std::size_t>(rd), c, l) > deepest) {
          deepest = p.at(static_cast<std::size_t>(rd), c, l);
          where = c;
        }
    if (deepest > 1)
      out += fmt::format("Recursion:  folded (a recursive call is counted on the call path it recurses into); "
                         "deepest: {} frames of {}\n",
                         deepest, p.regions[static_cast<std::size_t>(p.cnodes[where].region)].name);
  }
  // Count mode: which regions have exact visits but no clock, and where
  // their time is: their samples' (marked ~), or, in a run without samples
  // or a profile written before sampling was the default, their caller's.
  {
    std::string counted;
    std::size_t n = 0;
    bool before = false;
    for (const auto &r : p.regions)
      if (is_counted(r)) {
        before |= r.descr == kCountedRegionDescrBefore;
        if (n++ < 10) counted += (n == 1 ? "" : ", ") + r.name;
      }
    if (n > 10) counted += fmt::format(" and {} more", n - 10);
    bool sampled_run = false;
    for (const auto &kv : p.attrs) sampled_run |= kv.first == "hcc.sampling";
    const char *where = before         ? "their time is their caller's (written before sampling was the default)"
                        : sampled_run ? "their time is the CPU time of their samples, marked ~"
                                      : "no samples in this run (HCC_SAMPLING=off): their time is their caller's";
    if (n > 0) out += fmt::format("Counted:    {} (visits exact, no clock read; {})\n", counted, where);
  }
  // Selective measurement (runtime/core/selection.cpp): what was left out,
  // so nobody reads a filtered profile as the whole program.
  for (const auto &kv : p.attrs) {
    if (kv.first == "hcc.filter") out += fmt::format("Filter:     HCC_FILTER={}\n", kv.second);
    if (kv.first == "hcc.select") out += fmt::format("Selected:   HCC_SELECT={} (only these subtrees)\n", kv.second);
    if (kv.first == "hcc.prune") out += fmt::format("Pruned:     HCC_PRUNE={} (nothing below them)\n", kv.second);
    if (kv.first == "hcc.throttle") out += fmt::format("Throttle:   HCC_THROTTLE={}\n", kv.second);
    // The tracer (runtime/trace) and the snapshot writer (runtime/snapshot).
    if (kv.first == "hcc.trace") out += fmt::format("Trace:      {}\n", kv.second);
    if (kv.first == "hcc.trace.lost") out += fmt::format("TRACE EVENTS LOST: {}\n", kv.second);
    if (kv.first == "hcc.snapshot") out += fmt::format("Snapshot:   {}\n", kv.second);
  }
  for (const auto &kv : p.attrs) {
    const bool stopped = kv.first == "hcc.count_stopped";
    if (kv.first != "hcc.throttled" && !stopped) continue;
    out += stopped ? "COUNTS STOPPED (throttled regions whose counting cost more than it told: their visits are a lower "
                     "bound, marked \u2265)\n"
                   : "THROTTLED REGIONS (timed until the calls shown; every visit counted, its time is the CPU time of "
                     "its samples, marked ~)\n";
    std::size_t b = 0;
    while (b < kv.second.size()) {
      std::size_t e = kv.second.find("; ", b);
      if (e == std::string::npos) e = kv.second.size();
      out += "  " + kv.second.substr(b, e - b) + "\n";
      b = e + 2;
    }
  }
  out += "\n";
  out += flat_text(v) + "\n";
  const std::string derived = derived_text(v);
  if (!derived.empty()) out += derived + "\n";
  out += hot_paths_text(v, 10) + "\n";
  const std::string mpi = mpi_summary_text(p);
  if (!mpi.empty()) out += mpi + "\n";
  const std::string omp = openmp_summary_text(p);
  if (!omp.empty()) out += omp + "\n";
  out += tree_text(v, kSummaryTreePaths);
  return out;
}

}  // namespace hcc::profile
