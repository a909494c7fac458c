// hcc runtime — registry of extra metrics (see metrics.hpp).
#include "metrics.hpp"

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
std::vector<std::pair<std::string, std::string>> &attrs() {
  static auto *v = new std::vector<std::pair<std::string, std::string>>;  // leaked: read at exit
  return *v;
}
}  // namespace

void set_profile_attr(const std::string &key, const std::string &value) {
  pthread_mutex_lock(&g_lock);
  bool found = false;
  for (auto &kv : attrs())
    if (kv.first == key) kv.second = value, found = true;
  if (!found) attrs().emplace_back(key, value);
  pthread_mutex_unlock(&g_lock);
}

std::vector<std::pair<std::string, std::string>> profile_attrs_snapshot() {
  pthread_mutex_lock(&g_lock);
  auto copy = attrs();
  pthread_mutex_unlock(&g_lock);
  return copy;
}

namespace {
std::vector<std::pair<std::string, std::string>> &own_attrs() {
  static auto *v = new std::vector<std::pair<std::string, std::string>>;  // leaked: read at exit
  return *v;
}
}  // namespace

void set_own_file_attr(const std::string &key, const std::string &value) {
  pthread_mutex_lock(&g_lock);
  auto &v = own_attrs();
  for (auto it = v.begin(); it != v.end(); ++it)
    if (it->first == key) {
      v.erase(it);
      break;
    }
  if (!value.empty()) v.emplace_back(key, value);
  pthread_mutex_unlock(&g_lock);
}

std::vector<std::pair<std::string, std::string>> own_file_attrs_snapshot() {
  pthread_mutex_lock(&g_lock);
  auto copy = own_attrs();
  pthread_mutex_unlock(&g_lock);
  return copy;
}

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
