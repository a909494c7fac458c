// hcc — statistics over ranks (see rank_stats.hpp).
#include "rank_stats.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace hcc::mpimerge {

namespace {

template <class T>
void put(std::string &out, const std::vector<T> &v) {
  out.append(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(T));
}

template <class T>
void get(const std::string &in, std::size_t &pos, std::vector<T> &v) {
  const std::size_t n = v.size() * sizeof(T);
  if (in.size() - pos < n) throw std::runtime_error("truncated statistics message");
  std::memcpy(v.data(), in.data() + pos, n);
  pos += n;
}

template <class T>
T pod(const std::string &in, std::size_t &pos) {
  std::vector<T> v(1);
  get(in, pos, v);
  return v[0];
}

}  // namespace

RankStats::RankStats(std::size_t n_metrics, std::size_t n_cnodes)
    : nm_(n_metrics),
      nc_(n_cnodes),
      sum_(nm_ * nc_, 0.0),
      min_(nm_ * nc_, std::numeric_limits<double>::infinity()),
      max_(nm_ * nc_, -std::numeric_limits<double>::infinity()),
      max_at_(nm_ * nc_, -1),
      seen_(nm_ * nc_, 0),
      preds_(nc_) {}

void RankStats::add(int rank, const Packet &pk) {
  ++ranks_;
  for (const Packet::Row &row : pk.rows)
    for (std::size_t m = 0; m < nm_; ++m) {
      double v = 0;  // the rank's threads summed
      for (std::size_t t = 0; t < pk.threads; ++t) v += Packet::value(row.values, m * pk.threads + t);
      const std::size_t i = m * nc_ + std::size_t(row.cnode);
      sum_[i] += v;
      min_[i] = std::min(min_[i], v);
      if (v > max_[i] || (v == max_[i] && rank < max_at_[i])) max_[i] = v, max_at_[i] = rank;
      ++seen_[i];
    }
  for (const Packet::Pred &pr : pk.preds) {
    double v = 0;
    for (std::size_t t = 0; t < pk.threads; ++t) v += Packet::value(pr.counts, t);
    auto &list = preds_[std::size_t(pr.cnode)];
    auto it = std::find_if(list.begin(), list.end(), [&](const auto &x) { return x.first == pr.pred; });
    if (it == list.end()) list.emplace_back(pr.pred, v);
    else it->second += v;
  }
}

void RankStats::merge(const RankStats &o) {
  if (o.nm_ != nm_ || o.nc_ != nc_) throw std::runtime_error("statistics of different definitions");
  ranks_ += o.ranks_;
  for (std::size_t i = 0; i < sum_.size(); ++i) {
    sum_[i] += o.sum_[i];
    min_[i] = std::min(min_[i], o.min_[i]);
    if (o.max_[i] > max_[i] || (o.max_[i] == max_[i] && o.max_at_[i] >= 0 && o.max_at_[i] < max_at_[i]))
      max_[i] = o.max_[i], max_at_[i] = o.max_at_[i];
    seen_[i] += o.seen_[i];
  }
  for (std::size_t c = 0; c < nc_; ++c)
    for (const auto &[pred, v] : o.preds_[c]) {
      auto &list = preds_[c];
      auto it = std::find_if(list.begin(), list.end(), [&](const auto &x) { return x.first == pred; });
      if (it == list.end()) list.emplace_back(pred, v);
      else it->second += v;
    }
}

std::string RankStats::serialize() const {
  std::string out;
  put(out, std::vector<std::uint64_t>{0x68636333, nm_, nc_, ranks_});
  put(out, sum_), put(out, min_), put(out, max_), put(out, max_at_), put(out, seen_);
  std::vector<std::uint64_t> sizes;
  for (const auto &list : preds_) sizes.push_back(list.size());
  put(out, sizes);
  for (const auto &list : preds_)
    for (const auto &[pred, v] : list) put(out, std::vector<std::int64_t>{pred}), put(out, std::vector<double>{v});
  return out;
}

RankStats RankStats::deserialize(const std::string &bytes, std::size_t nm, std::size_t nc) {
  std::size_t pos = 0;
  std::vector<std::uint64_t> head(4);
  get(bytes, pos, head);
  if (head[0] != 0x68636333 || head[1] != nm || head[2] != nc) throw std::runtime_error("not an hcc statistics message");
  RankStats s(nm, nc);
  s.ranks_ = head[3];
  get(bytes, pos, s.sum_), get(bytes, pos, s.min_), get(bytes, pos, s.max_), get(bytes, pos, s.max_at_);
  get(bytes, pos, s.seen_);
  std::vector<std::uint64_t> sizes(nc);
  get(bytes, pos, sizes);
  for (std::size_t c = 0; c < nc; ++c) {
    if (sizes[c] > bytes.size()) throw std::runtime_error("bad control-flow count in statistics message");
    for (std::uint64_t k = 0; k < sizes[c]; ++k) {
      const auto pred = pod<std::int64_t>(bytes, pos);
      const double v = pod<double>(bytes, pos);
      if (pred < 0 || std::size_t(pred) >= nc) throw std::runtime_error("bad call path in statistics message");
      s.preds_[c].emplace_back(int(pred), v);
    }
  }
  return s;
}

profile::Profile RankStats::summary_profile(const Defs &global, int nranks) const {
  using profile::DType;
  using profile::Metric;
  profile::Profile p;
  p.metrics = global.metrics;
  p.regions = global.regions;
  p.cnodes = global.cnodes;
  p.hosts = {"all hosts"};
  p.locations = {profile::Location{"all " + std::to_string(nranks) + " ranks", 0, 0}};
  const double n = nranks > 0 ? double(nranks) : 1.0;
  for (std::size_t m = 0; m < nm_; ++m) {
    const Metric &base = global.metrics[m];
    auto stat = [&](const char *suffix, const char *what, DType t, const std::string &uom) {
      Metric s;
      s.uniq_name = base.uniq_name + suffix;
      s.disp_name = base.disp_name + " (" + what + " over ranks)";
      s.uom = uom;
      s.dtype = t;
      s.descr = std::string(profile::kRankStatDescrPrefix) + what + " over the job's " + std::to_string(nranks) +
                " ranks of this call path's exclusive " + base.uniq_name +
                " (a rank's threads summed, a rank without the path counts 0)";
      return s;
    };
    const DType vt = base.dtype == DType::UInt64 ? DType::UInt64 : DType::Double;
    p.metrics.push_back(stat("_rank_min", "min", vt, base.uom));
    p.metrics.push_back(stat("_rank_mean", "mean", DType::Double, base.uom));
    p.metrics.push_back(stat("_rank_max", "max", vt, base.uom));
    p.metrics.push_back(stat("_rank_max_at", "rank of the max", DType::UInt64, "rank"));
  }
  p.excl.assign(p.metrics.size(), std::vector<double>(nc_, 0.0));
  for (std::size_t m = 0; m < nm_; ++m)
    for (std::size_t c = 0; c < nc_; ++c) {
      const std::size_t i = m * nc_ + c;
      const bool some = seen_[i] > 0;
      // Absent ranks count 0: they lower the min (values are never negative).
      const double mn = !some ? 0.0 : seen_[i] < std::size_t(nranks) ? std::min(min_[i], 0.0) : min_[i];
      const double mx = some ? max_[i] : 0.0;
      const DType t = global.metrics[m].dtype;
      p.excl[m][c] = t == DType::MaxDouble ? mx : t == DType::MinDouble ? mn : sum_[i];
      const std::size_t k = nm_ + 4 * m;
      p.excl[k][c] = mn;
      p.excl[k + 1][c] = sum_[i] / n;
      p.excl[k + 2][c] = mx;
      p.excl[k + 3][c] = some ? double(max_at_[i]) : 0.0;
    }
  bool any_preds = false;
  for (const auto &list : preds_) any_preds |= !list.empty();
  if (any_preds) {
    p.preds.assign(nc_, {});
    for (std::size_t c = 0; c < nc_; ++c) {
      for (const auto &[pred, v] : preds_[c]) p.preds[c].push_back({pred, {v}});
      auto &list = p.preds[c];
      auto it = std::find_if(list.begin(), list.end(), [&](const auto &x) { return x.callpath == p.cnodes[c].parent; });
      if (it != list.end()) std::rotate(list.begin(), it, it + 1);  // the parent first
    }
  }
  p.attrs.emplace_back("hcc locations", "summary");
  return p;
}

}  // namespace hcc::mpimerge
