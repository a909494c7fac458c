// hcc — rank 0's streamed assembly (see stream.hpp).
#include "stream.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace hcc::mpimerge {

std::vector<int> column_order(const std::vector<std::string> &hosts) {
  // As cube/cubex.hpp's location_file_order, so packets can be asked for in
  // the order they are written.
  std::map<std::string, std::size_t> host_index;
  std::vector<std::vector<int>> by_host;
  for (std::size_t r = 0; r < hosts.size(); ++r) {
    auto [it, fresh] = host_index.emplace(hosts[r], by_host.size());
    if (fresh) by_host.emplace_back();
    by_host[it->second].push_back(int(r));
  }
  std::vector<int> order;
  order.reserve(hosts.size());
  for (const auto &ranks : by_host) order.insert(order.end(), ranks.begin(), ranks.end());
  return order;
}

StreamAssembler::StreamAssembler(const Defs &global, const std::vector<int> &threads,
                                 const std::vector<std::string> &hosts, LocationMode mode, StreamLimits limits)
    : global_(global), mode_(mode), threads_(threads), stats_(global.metrics.size(), global.cnodes.size()) {
  const std::size_t P = threads.size();
  if (hosts.size() != P) throw std::runtime_error("host names for " + std::to_string(hosts.size()) + " of " +
                                                  std::to_string(P) + " ranks");
  shape_.metrics = global.metrics;
  shape_.regions = global.regions;
  shape_.cnodes = global.cnodes;
  shape_.hosts = hosts;
  first_col_.assign(P, 0);
  order_ = column_order(hosts);
  for (int r : order_) {
    first_col_[std::size_t(r)] = shape_.locations.size();
    for (int t = 0; t < threads[std::size_t(r)]; ++t)
      shape_.locations.push_back({mode == LocationMode::Process ? "all threads" : "thread " + std::to_string(t), r, t});
  }
  const std::size_t nm = global.metrics.size(), nc = global.cnodes.size();
  const std::size_t per_column = std::max<std::size_t>(1, nm * nc * sizeof(double));
  width_ = std::max<std::size_t>(1, std::min(limits.block_bytes / per_column, shape_.locations.size()));
  if (per_column * shape_.locations.size() <= limits.keep_bytes)
    whole_ = std::make_unique<Assembler>(global, threads, mode);
  block_.assign(width_ * nm * nc, 0.0);
  preds_.assign(nc, {});
}

StreamAssembler::~StreamAssembler() = default;

void StreamAssembler::open(int fd, const std::string &shown, const std::string &machine) {
  if (shape_.locations.empty()) throw std::runtime_error("a job without locations");
  shape_.machine = machine;
  out_ = std::make_unique<profile::CubexStream>(shape_, fd, shown);
}

void StreamAssembler::add(int rank, const std::string &packed) {
  if (next_ >= order_.size() || order_[next_] != rank)
    throw std::runtime_error("value packet of rank " + std::to_string(rank) + " out of order");
  ++next_;
  const std::size_t nm = global_.metrics.size(), nc = global_.cnodes.size();
  const Packet pk = parse_packet(packed, nm, nc);
  const std::size_t nt = pk.threads;
  if (nt != std::size_t(threads_[std::size_t(rank)]))
    throw std::runtime_error("thread count of rank " + std::to_string(rank) + " changed");
  if (whole_) whole_->add(rank, pk);
  else stats_.add(rank, pk);  // summary.txt's profile when the whole one is not kept
  if (block_used_ > 0 && block_used_ + nt > width_) flush();
  if (nt > width_) {  // one rank wider than a block: the block grows to it
    width_ = nt;
    block_.assign(width_ * nm * nc, 0.0);
  }
  if (block_used_ == 0) block_first_ = first_col_[std::size_t(rank)];
  const std::size_t k0 = block_used_;
  // Column by column: one rank's values land together (block_ layout in
  // CubexStream::put_columns).
  for (const Packet::Row &row : pk.rows)
    for (std::size_t m = 0; m < nm; ++m)
      for (std::size_t t = 0; t < nt; ++t)
        block_[((k0 + t) * nm + m) * nc + std::size_t(row.cnode)] += Packet::value(row.values, m * nt + t);
  for (const Packet::Pred &pr : pk.preds) {
    auto &list = preds_[std::size_t(pr.cnode)];
    auto it = std::find_if(list.begin(), list.end(), [&](const auto &x) { return x.callpath == pr.pred; });
    if (it == list.end()) it = list.insert(list.end(), {pr.pred, std::vector<double>(width_, 0.0)});
    for (std::size_t t = 0; t < nt; ++t) it->count[k0 + t] += Packet::value(pr.counts, t);
    any_preds_ = true;
  }
  block_used_ += nt;
}

void StreamAssembler::flush() {
  if (block_used_ == 0) return;
  if (out_) {
    out_->put_columns(block_first_, block_used_, block_);
    if (any_preds_) out_->put_predecessors(block_first_, block_used_, preds_);
  }
  std::fill(block_.begin(), block_.begin() + long(block_used_ * global_.metrics.size() * global_.cnodes.size()), 0.0);
  for (auto &list : preds_) list.clear();
  block_used_ = 0;
}

profile::Profile StreamAssembler::finish(const std::vector<std::pair<std::string, std::string>> &attrs) {
  if (next_ != order_.size())
    throw std::runtime_error("the values of " + std::to_string(order_.size() - next_) + " ranks are missing");
  flush();
  std::vector<std::pair<std::string, std::string>> all = attrs;
  all.emplace_back("hcc locations", location_mode_name(mode_));
  if (out_) out_->finish(all);
  profile::Profile text = whole_ ? whole_->take() : stats_.summary_profile(global_, int(threads_.size()));
  text.attrs = all;
  if (!whole_) {
    text.attrs.back().second = "summary";
    text.attrs.emplace_back("hcc summary.txt", std::string("statistics over ranks; profile.cubex keeps ") +
                                                   (mode_ == LocationMode::Process ? "every rank" : "every thread"));
  }
  text.machine = shape_.machine;
  return text;
}

}  // namespace hcc::mpimerge
