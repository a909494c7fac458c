// hcc runtime — registry of extra metrics (see metrics.hpp).
#include "metrics.hpp"

#include <algorithm>

#include <pthread.h>

#include "thread_state.hpp"

namespace hcc::rt {

namespace {
pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
std::vector<ExtraMetric> &metrics() {
  static auto *v = new std::vector<ExtraMetric>;  // leaked: read at exit
  return *v;
}
}  // namespace

int register_extra_metric(const ExtraMetric &m) {
  if (any_thread()) return -1;
  pthread_mutex_lock(&g_lock);
  metrics().push_back(m);
  int k = int(metrics().size()) - 1;
  pthread_mutex_unlock(&g_lock);
  return k;
}

uint32_t extra_metric_count() {
  pthread_mutex_lock(&g_lock);
  auto n = uint32_t(metrics().size());
  pthread_mutex_unlock(&g_lock);
  return n;
}

std::vector<ExtraMetric> extra_metrics_snapshot() {
  pthread_mutex_lock(&g_lock);
  auto copy = metrics();
  pthread_mutex_unlock(&g_lock);
  return copy;
}

namespace {
using Attrs = std::vector<std::pair<std::string, std::string>>;
// Leaked: read at exit. attrs(): every profile's; own_attrs(): only this
// process's own file's (set_own_file_attr).
Attrs &attrs() {
  static auto *v = new Attrs;
  return *v;
}
Attrs &own_attrs() {
  static auto *v = new Attrs;
  return *v;
}

// Sets `key` in `list` (appended when new; "" removes it when empty_removes).
void put_attr(Attrs &list, const std::string &key, const std::string &value, bool empty_removes) {
  pthread_mutex_lock(&g_lock);
  auto it = std::find_if(list.begin(), list.end(), [&](const auto &kv) { return kv.first == key; });
  if (empty_removes && value.empty()) {
    if (it != list.end()) list.erase(it);
  } else if (it != list.end()) {
    it->second = value;
  } else {
    list.emplace_back(key, value);
  }
  pthread_mutex_unlock(&g_lock);
}

Attrs snapshot(const Attrs &list) {
  pthread_mutex_lock(&g_lock);
  Attrs copy = list;
  pthread_mutex_unlock(&g_lock);
  return copy;
}
}  // namespace

void set_profile_attr(const std::string &key, const std::string &value) { put_attr(attrs(), key, value, false); }
std::vector<std::pair<std::string, std::string>> profile_attrs_snapshot() { return snapshot(attrs()); }

void set_own_file_attr(const std::string &key, const std::string &value) { put_attr(own_attrs(), key, value, true); }
std::vector<std::pair<std::string, std::string>> own_file_attrs_snapshot() { return snapshot(own_attrs()); }

}  // namespace hcc::rt

// --- extra_paths.hpp: the one source of added call paths -----------------
#include "extra_paths.hpp"

namespace hcc::rt {
namespace {
const PathSource *g_path_source = nullptr;
}
void set_path_source(const PathSource *s) { __atomic_store_n(&g_path_source, s, __ATOMIC_RELEASE); }
const PathSource *path_source() { return __atomic_load_n(&g_path_source, __ATOMIC_ACQUIRE); }
}  // namespace hcc::rt
