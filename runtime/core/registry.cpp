// hcc runtime — region registry (see registry.hpp).
#include "registry.hpp"

#include <pthread.h>

#include <cstring>
#include <unordered_map>

#include "selection.hpp"

namespace hcc::rt {

namespace {

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

// Leaked on purpose: they are read by the finalizer, which runs after the
// library's own static destructors would have run.
std::vector<RegionInfo> &regions() {
  static auto *v = new std::vector<RegionInfo>;
  return *v;
}
std::unordered_map<std::string, uint32_t> &by_key() {
  static auto *m = new std::unordered_map<std::string, uint32_t>;
  return *m;
}

// Every descriptor of each region (throttling rewrites them); indexed by
// region id.
std::vector<std::vector<hcc_region_desc *>> &descriptors() {
  static auto *v = new std::vector<std::vector<hcc_region_desc *>>;
  return *v;
}

std::string str(const char *s) { return s ? s : ""; }

FunctionRegisteredHook g_function_hook = nullptr;
RegionStoppedHook g_stopped_hook = nullptr;

}  // namespace

std::string normalize_region_name(const std::string &name) {
  const std::string with = " [with ";
  size_t pos = name.find(with);
  if (pos == std::string::npos) return name;
  std::string out = name.substr(0, pos) + " [";
  // GCC separates template arguments with "; ", Clang with ", ".
  int nesting = 0;
  for (size_t i = pos + with.size(); i < name.size(); ++i) {
    char c = name[i];
    if (c == '<' || c == '(' || c == '[') ++nesting;
    if (c == '>' || c == ')' || c == ']') --nesting;
    if (c == ';' && nesting == 0 && i + 1 < name.size() && name[i + 1] == ' ') {
      out += ',';
      continue;
    }
    out += c;
  }
  return out;
}

namespace {

RegionInfo info_of(const hcc_region_desc *d) {
  RegionInfo info;
  info.name = normalize_region_name(d->name && *d->name ? d->name : "<unknown region>");
  info.mangled = str(d->mangled);
  info.file = str(d->file);
  info.begin_line = d->begin_line;
  info.end_line = d->end_line;
  info.kind = d->kind;
  return info;
}

// Same name, linker name, file, first line and kind: the same region.
std::string key_of(const RegionInfo &r) {
  return r.name + '\0' + r.mangled + '\0' + r.file + '\0' + std::to_string(r.begin_line) + '\0' +
         std::to_string(r.kind);
}

// One bit per region id: an OpenMP construct (region_is_openmp).
constexpr uint32_t kOpenMpBits = 1u << 16;
uint64_t g_openmp_regions[kOpenMpBits / 64];

bool is_openmp_kind(int kind) {
  return kind == HCC_KIND_OPENMP || (kind >= HCC_KIND_OMP_PARALLEL && kind <= HCC_KIND_OMP_TASKGROUP);
}

}  // namespace

bool region_is_openmp(uint32_t id) {
  if (id >= kOpenMpBits) return false;
  return (__atomic_load_n(&g_openmp_regions[id / 64], __ATOMIC_RELAXED) >> (id % 64)) & 1;
}

uint32_t register_region(hcc_region_desc *d, bool counted) {
  pthread_mutex_lock(&g_lock);
  uint32_t id = __atomic_load_n(&d->id, __ATOMIC_RELAXED);
  if (id == 0) {  // not registered by another thread meanwhile
    RegionInfo info = info_of(d);
    std::string key = key_of(info);
    auto it = by_key().find(key);
    if (it != by_key().end()) {
      id = it->second;
      // A twin registered through hcc_count_enter makes the region counted.
      if (counted && id - 1 < regions().size()) regions()[id - 1].counted = true;
    } else if (selection_excludes(info)) {
      // Filtered at run time: decided once; from now on the fast path
      // returns at its first compare (selection.hpp).
      __atomic_store_n(&d->id, kExcludedId, __ATOMIC_RELEASE);
      pthread_mutex_unlock(&g_lock);
      return kExcludedId;
    } else {
      selection_set_flags(uint32_t(regions().size() + 1), info);
      info.counted = counted || selection_counts(info);
      regions().push_back(std::move(info));
      id = uint32_t(regions().size());
      if (is_openmp_kind(d->kind) && id < kOpenMpBits)
        __atomic_fetch_or(&g_openmp_regions[id / 64], uint64_t(1) << (id % 64), __ATOMIC_RELAXED);
      by_key().emplace(std::move(key), id);
      descriptors().resize(id);
    }
    if (id - 1 < descriptors().size()) {
      descriptors()[id - 1].push_back(d);
      if (regions()[id - 1].throttled) {  // a twin of a throttled (or stopped) region
        const uint32_t v = id | kThrottledBit | (regions()[id - 1].stopped ? kStoppedBit : 0);
        __atomic_store_n(&d->id, v, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&g_lock);
        return v;
      }
    }
    // Release: a thread that sees the id also sees the registry entry.
    __atomic_store_n(&d->id, id, __ATOMIC_RELEASE);
    if (g_function_hook && d->kind == HCC_KIND_FUNCTION) g_function_hook(d);
  }
  pthread_mutex_unlock(&g_lock);
  return id;
}

uint32_t find_region(hcc_region_desc *d) {
  pthread_mutex_lock(&g_lock);
  uint32_t id = __atomic_load_n(&d->id, __ATOMIC_RELAXED);
  if (id == 0) {
    auto it = by_key().find(key_of(info_of(d)));
    if (it != by_key().end()) {
      id = it->second;
      // A twin of a throttled or stopped region stays one.
      const RegionInfo &r = regions()[id - 1];
      __atomic_store_n(&d->id, id | (r.throttled ? kThrottledBit : 0) | (r.stopped ? kStoppedBit : 0),
                       __ATOMIC_RELEASE);
    }
  }
  pthread_mutex_unlock(&g_lock);
  return id;
}

uint32_t register_depth_limit_region(uint32_t max_depth) {
  std::string name = "[depth limit HCC_MAX_DEPTH=" + std::to_string(max_depth) + " reached]";
  // A runtime-owned descriptor, registered like any other (same name, same
  // region). Leaked, like every descriptor, which live as long as the program.
  auto *d = new hcc_region_desc{strdup(name.c_str()), nullptr, "", -1, -1, HCC_KIND_ARTIFICIAL, 0};
  return register_region(d);
}

std::string throttle_region_descriptors(uint32_t id) {
  pthread_mutex_lock(&g_lock);
  std::string name;
  if (id >= 1 && id < kStoppedBit && id - 1 < descriptors().size() && !regions()[id - 1].throttled) {
    regions()[id - 1].throttled = true;
    for (hcc_region_desc *d : descriptors()[id - 1]) __atomic_store_n(&d->id, id | kThrottledBit, __ATOMIC_RELEASE);
    name = regions()[id - 1].name;
  }
  pthread_mutex_unlock(&g_lock);
  return name;
}

std::string stop_region_descriptors(uint32_t id) {
  pthread_mutex_lock(&g_lock);
  std::string name;
  if (id >= 1 && id < kStoppedBit && id - 1 < descriptors().size() && regions()[id - 1].throttled &&
      !regions()[id - 1].stopped) {
    regions()[id - 1].stopped = true;
    name = regions()[id - 1].name;
  }
  pthread_mutex_unlock(&g_lock);
  if (name.empty()) return name;
  // Sampling first: from the first visit without a frame on, its walks go
  // through the function.
  if (g_stopped_hook) g_stopped_hook(id);
  pthread_mutex_lock(&g_lock);
  for (hcc_region_desc *d : descriptors()[id - 1])
    __atomic_store_n(&d->id, id | kThrottledBit | kStoppedBit, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&g_lock);
  return name;
}

std::string region_name(uint32_t id) {
  pthread_mutex_lock(&g_lock);
  std::string name = id >= 1 && id - 1 < regions().size() ? regions()[id - 1].name : std::string();
  pthread_mutex_unlock(&g_lock);
  return name;
}

bool region_info(uint32_t id, RegionInfo *out) {
  pthread_mutex_lock(&g_lock);
  bool found = id >= 1 && id - 1 < regions().size();
  if (found) *out = regions()[id - 1];
  pthread_mutex_unlock(&g_lock);
  return found;
}

std::vector<RegionInfo> regions_snapshot() {
  pthread_mutex_lock(&g_lock);
  std::vector<RegionInfo> copy = regions();
  pthread_mutex_unlock(&g_lock);
  return copy;
}

void set_function_registered_hook(FunctionRegisteredHook h) { g_function_hook = h; }
void set_region_stopped_hook(RegionStoppedHook h) { g_stopped_hook = h; }

void registry_lock() { pthread_mutex_lock(&g_lock); }
void registry_unlock() { pthread_mutex_unlock(&g_lock); }

}  // namespace hcc::rt
