// hcc — the MPI part of the summary (mpiP-style), keyed on regions whose
// paradigm is "mpi", so it applies to any CUBE file with MPI regions
// (ours, Score-P's) and is empty otherwise.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "summary.hpp"

namespace hcc::profile {

namespace {

double to_seconds(const Metric &m) {
  if (m.uom == "ms" || m.uom == "msec") return 1e-3;
  if (m.uom == "us" || m.uom == "usec") return 1e-6;
  if (m.uom == "ns" || m.uom == "nsec") return 1e-9;
  return 1.0;
}

std::string path_text(const Profile &p, int c) {
  std::vector<int> chain;
  for (int n = c; n >= 0; n = p.cnodes[size_t(n)].parent) chain.push_back(n);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    out += (out.empty() ? "" : " \u2192 ") + p.regions[size_t(p.cnodes[size_t(*it)].region)].name;
  return out;
}

}  // namespace

std::string mpi_summary_text(const Profile &p, std::size_t top) {
  const int time = p.metric_index("time"), visits = p.metric_index("visits");
  const int sent = p.metric_index("bytes_sent"), recvd = p.metric_index("bytes_received");
  if (time < 0 || p.cnodes.empty()) return "";
  const size_t nl = p.nloc(), nc = p.cnodes.size();
  auto is_mpi = [&](size_t c) { return p.regions[size_t(p.cnodes[c].region)].paradigm == "mpi"; };
  // Outermost MPI call paths: an MPI call inside another (MPI_Finalize's own
  // communication) is already in its caller's inclusive time.
  std::vector<char> outer(nc, 0);
  bool any = false;
  for (size_t c = 0; c < nc; ++c) {
    int par = p.cnodes[c].parent;
    outer[c] = is_mpi(c) && !(par >= 0 && is_mpi(size_t(par)));
    any = any || outer[c];
  }
  if (!any) return "";
  const double sec = to_seconds(p.metrics[size_t(time)]);
  const std::vector<double> t_incl = inclusive(p, size_t(time));
  std::vector<double> s_incl, r_incl;
  if (sent >= 0) s_incl = inclusive(p, size_t(sent));
  if (recvd >= 0) r_incl = inclusive(p, size_t(recvd));

  // Ranks that have a location, in order; tables index them densely, so a
  // file naming one rank 100000000 costs one column, not 10^8.
  std::vector<int> rank_of;  // dense index -> rank
  for (const auto &l : p.locations) rank_of.push_back(l.rank);
  std::sort(rank_of.begin(), rank_of.end());
  rank_of.erase(std::unique(rank_of.begin(), rank_of.end()), rank_of.end());
  std::vector<size_t> loc_rank(nl);  // location -> dense rank index
  for (size_t l = 0; l < nl; ++l)
    loc_rank[l] = size_t(std::lower_bound(rank_of.begin(), rank_of.end(), p.locations[l].rank) - rank_of.begin());
  const int nranks = int(rank_of.size());
  // AppTime per rank: the longest-running thread's root time (wall time of
  // the process, as mpiP's AppTime); MPITime: every thread's MPI time.
  std::vector<double> app(size_t(nranks), 0.0), mpi(size_t(nranks), 0.0);
  std::vector<double> root_time(nl, 0.0);
  for (size_t c = 0; c < nc; ++c)
    for (size_t l = 0; l < nl; ++l) {
      if (p.cnodes[c].parent < 0) root_time[l] += t_incl[c * nl + l] * sec;
      if (outer[c]) mpi[loc_rank[l]] += t_incl[c * nl + l] * sec;
    }
  for (size_t l = 0; l < nl; ++l) {
    double &a = app[loc_rank[l]];
    a = std::max(a, root_time[l]);
  }

  std::string out = "MPI (regions of paradigm mpi)\n";
  // HCC_LOCATIONS=summary (or a job too large to keep): one location holding
  // the sums, and statistics over ranks per call path instead of rows per rank.
  const int t_min = p.metric_index("time_rank_min"), t_mean = p.metric_index("time_rank_mean"),
            t_max = p.metric_index("time_rank_max"), t_at = p.metric_index("time_rank_max_at");
  const bool over_ranks = t_min >= 0 && t_mean >= 0 && t_max >= 0 && t_at >= 0 && nl == 1;
  double app_sum = 0, mpi_sum = 0;
  if (over_ranks) {
    for (int r = 0; r < nranks; ++r) app_sum += app[size_t(r)], mpi_sum += mpi[size_t(r)];
    std::string ranks = "all";
    for (const auto &[k, v] : p.attrs)
      if (k == "mpi ranks") ranks = v;
    out += fmt::format("MPI TIME OVER {} RANKS (summed; statistics over ranks below, no rows per rank)\n", ranks);
    out += fmt::format("{:>12}  {:>12}  {:>7}\n\n", "AppTime s", "MPITime s", "MPI%");
    out.insert(out.size() - 1, fmt::format("{:>12.6f}  {:>12.6f}  {:>7.2f}\n", app_sum, mpi_sum,
                                           app_sum > 0 ? 100.0 * mpi_sum / app_sum : 0.0));
  } else {
  out += fmt::format("MPI TIME PER RANK (AppTime: longest thread; MPITime: all threads)\n");
  out += fmt::format("{:>6}  {:>12}  {:>12}  {:>7}\n", "Task", "AppTime s", "MPITime s", "MPI%");
  for (int r = 0; r < nranks; ++r) app_sum += app[size_t(r)], mpi_sum += mpi[size_t(r)];
  // Up to 32 ranks all rows; beyond, the 10 with most and the 10 with least
  // MPI time (the ends are where imbalance shows), in rank order.
  std::vector<int> shown(static_cast<size_t>(nranks));
  std::iota(shown.begin(), shown.end(), 0);
  if (nranks > 32) {
    std::stable_sort(shown.begin(), shown.end(), [&](int a, int b) { return mpi[size_t(a)] > mpi[size_t(b)]; });
    shown.erase(shown.begin() + 10, shown.end() - 10);
    std::sort(shown.begin(), shown.end());
    out += fmt::format("({} ranks: the 10 with most and the 10 with least MPI time)\n", nranks);
  }
  for (int r : shown)
    out += fmt::format("{:>6}  {:>12.6f}  {:>12.6f}  {:>7.2f}\n", rank_of[size_t(r)], app[size_t(r)], mpi[size_t(r)],
                       app[size_t(r)] > 0 ? 100.0 * mpi[size_t(r)] / app[size_t(r)] : 0.0);
  out += fmt::format("{:>6}  {:>12.6f}  {:>12.6f}  {:>7.2f}\n\n", "*", app_sum, mpi_sum,
                     app_sum > 0 ? 100.0 * mpi_sum / app_sum : 0.0);
  }

  // Per call path, summed over locations.
  struct Row {
    size_t c;
    double t, visits, sent, recvd;
  };
  std::vector<Row> rows;
  for (size_t c = 0; c < nc; ++c) {
    if (!outer[c]) continue;
    Row row{c, 0, 0, 0, 0};
    for (size_t l = 0; l < nl; ++l) {
      row.t += t_incl[c * nl + l] * sec;
      if (visits >= 0) row.visits += p.excl[size_t(visits)][c * nl + l];
      if (sent >= 0) row.sent += s_incl[c * nl + l];
      if (recvd >= 0) row.recvd += r_incl[c * nl + l];
    }
    rows.push_back(row);
  }
  auto table = [&](const char *title, auto key) {
    std::vector<Row> sorted = rows;
    std::stable_sort(sorted.begin(), sorted.end(), [&](const Row &a, const Row &b) { return key(a) > key(b); });
    std::string t = fmt::format("{}\n{:>12}  {:>6}  {:>10}  {:>14}  {:>14}  {}\n", title, "Time msec", "%MPI",
                                "Visits", "Bytes sent", "Bytes recv", "Call path");
    size_t n = 0;
    for (const Row &r : sorted) {
      if (n++ == top || key(r) <= 0) break;
      t += fmt::format("{:>12.3f}  {:>6.2f}  {:>10.0f}  {:>14.0f}  {:>14.0f}  {}\n", r.t * 1e3,
                       mpi_sum > 0 ? 100.0 * r.t / mpi_sum : 0.0, r.visits, r.sent, r.recvd, path_text(p, int(r.c)));
    }
    return t + "\n";
  };
  out += table(fmt::format("TOP {} MPI CALL PATHS BY TIME (summed over locations)", top).c_str(),
               [](const Row &r) { return r.t; });
  if (sent >= 0)
    out += table(fmt::format("TOP {} MPI CALL PATHS BY BYTES SENT", top).c_str(), [](const Row &r) { return r.sent; });

  if (over_ranks) {
    std::vector<Row> sorted = rows;
    std::stable_sort(sorted.begin(), sorted.end(), [](const Row &a, const Row &b) { return a.t > b.t; });
    out += "MPI CALL PATHS OVER RANKS (own time per rank: min, mean, max; max/mean shows imbalance)\n";
    out += fmt::format("{:>12}  {:>12}  {:>12}  {:>6}  {:>8}  {}\n", "Min msec", "Mean msec", "Max msec", "rank",
                       "Max/mean", "Call path");
    size_t n = 0;
    for (const Row &r : sorted) {
      if (n++ == top || r.t <= 0) break;
      const double mn = p.excl[size_t(t_min)][r.c] * sec, mean = p.excl[size_t(t_mean)][r.c] * sec,
                   mx = p.excl[size_t(t_max)][r.c] * sec;
      out += fmt::format("{:>12.3f}  {:>12.3f}  {:>12.3f}  {:>6.0f}  {:>8.2f}  {}\n", mn * 1e3, mean * 1e3, mx * 1e3,
                         p.excl[size_t(t_at)][r.c], mean > 0 ? mx / mean : 0.0, path_text(p, int(r.c)));
    }
    return out;
  }
  // Per MPI function: its time on each rank, then min/mean/max over ranks.
  std::map<std::string, std::vector<double>> per_rank;
  std::map<std::string, double> calls;
  for (size_t c = 0; c < nc; ++c) {
    if (!outer[c]) continue;
    const std::string &name = p.regions[size_t(p.cnodes[c].region)].name;
    auto &v = per_rank[name];
    v.resize(size_t(nranks), 0.0);
    for (size_t l = 0; l < nl; ++l) {
      v[loc_rank[l]] += t_incl[c * nl + l] * sec;
      if (visits >= 0) calls[name] += p.excl[size_t(visits)][c * nl + l];
    }
  }
  std::vector<std::pair<std::string, std::vector<double>>> funcs(per_rank.begin(), per_rank.end());
  std::stable_sort(funcs.begin(), funcs.end(), [](const auto &a, const auto &b) {
    return std::accumulate(a.second.begin(), a.second.end(), 0.0) > std::accumulate(b.second.begin(), b.second.end(), 0.0);
  });
  out += "MPI CALLS OVER RANKS (time per rank: min, mean, max; max/mean shows imbalance)\n";
  out += fmt::format("{:<24}  {:>10}  {:>12}  {:>5}  {:>12}  {:>12}  {:>5}  {:>8}\n", "Call", "Calls", "Min msec",
                     "rank", "Mean msec", "Max msec", "rank", "Max/mean");
  for (const auto &[name, v] : funcs) {
    auto mn = std::min_element(v.begin(), v.end()), mx = std::max_element(v.begin(), v.end());
    double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    out += fmt::format("{:<24}  {:>10.0f}  {:>12.3f}  {:>5}  {:>12.3f}  {:>12.3f}  {:>5}  {:>8.2f}\n", name, calls[name],
                       *mn * 1e3, rank_of[size_t(mn - v.begin())], mean * 1e3, *mx * 1e3, rank_of[size_t(mx - v.begin())], mean > 0 ? *mx / mean : 0.0);
  }
  return out;
}

}  // namespace hcc::profile
