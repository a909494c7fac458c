// hcc runtime — the user API of include/hcc/hcc.h: named regions
// (hcc_region_begin/end, HCC_REGION_*, HCC_SCOPE, the region pragmas) and
// hcc_pause/hcc_resume.
//
// A named region is an ordinary region with a runtime-made descriptor (kind
// HCC_KIND_USER), one per distinct name, so begin/end run the same
// enter/exit paths as functions and nest with them in the call tree. The
// name → descriptor lookup is a per-thread cache keyed by the name's address
// (checked with strcmp, since a buffer may be reused for another name), then
// a locked map: user regions are coarse, so a few nanoseconds more than a
// function's guard is fine.
#include <pthread.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>

#include "cct.hpp"
#include "clock.hpp"
#include "event_services.hpp"
#include "fold.hpp"
#include "hcc/region.h"
#include "registry.hpp"
#include "selection.hpp"
#include "thread_state.hpp"

#define HCC_API extern "C" __attribute__((visibility("default")))

namespace hcc::rt {

namespace {

struct CacheEntry {
  const char *key;
  hcc_region_desc *d;
};
constexpr unsigned kCache = 32;
__thread CacheEntry t_cache[kCache] __attribute__((tls_model("initial-exec")));

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

hcc_region_desc *user_desc(const char *name) {
  if (!name || !*name) name = "(unnamed region)";
  CacheEntry &e = t_cache[(reinterpret_cast<uintptr_t>(name) >> 3) % kCache];
  if (e.key == name && std::strcmp(e.d->name, name) == 0) return e.d;
  static auto *by_name = new std::unordered_map<std::string, hcc_region_desc *>;  // leaked
  pthread_mutex_lock(&g_lock);
  hcc_region_desc *&d = (*by_name)[name];
  if (!d) d = new hcc_region_desc{strdup(name), nullptr, "", -1, -1, HCC_KIND_USER, 0};
  hcc_region_desc *out = d;
  pthread_mutex_unlock(&g_lock);
  e = {name, out};
  return out;
}

// Mismatched nesting is the user's bug: say so (a few times, not per call).
void complain(const std::string &msg) {
  static int said = 0;
  if (__atomic_fetch_add(&said, 1, __ATOMIC_RELAXED) < 10) std::fprintf(stderr, "hcc: error: %s\n", msg.c_str());
}

}  // namespace

void pause_drop(ThreadState *ts, uint64_t t) {
  if (ts->depth > 0 && ts->stack[ts->depth].node == ts->pause_node) {
    close_frames(ts, ts->depth - 1, t);  // the marker's node is not in the tree
  }
  ts->pause_count = 0;
  ts->pause_skipped = 0;
  compute_fast_limit(ts);
}

}  // namespace hcc::rt

using namespace hcc::rt;

HCC_API void hcc_region_begin(const char *name) { hcc_enter(user_desc(name)); }

HCC_API void hcc_region_end(const char *name) {
  hcc_region_desc *d = user_desc(name);
  uint32_t id = __atomic_load_n(&d->id, __ATOMIC_ACQUIRE);
  ThreadState *ts = t_state;
  // The check needs an exact stack: skipped under select/prune/pause.
  if (ts && int32_t(id) >= 0 && !g_selective && ts->pause_count == 0 && ts->overflow == 0) {
    uint32_t top = frame_region(ts->stack[ts->depth]);
    if (id == 0) {
      complain(std::string("hcc_region_end(\"") + d->name + "\") without a matching hcc_region_begin; ignored");
    } else if (top != id && top != ts->depth_region) {
      bool open = false;
      for (uint32_t k = ts->depth; k > 0 && !open; --k) open = frame_region(ts->stack[k]) == id;
      std::string inner = ts->depth > 0 ? region_name(top) : std::string("(none)");
      complain(std::string("hcc_region_end(\"") + d->name + "\") does not match the innermost open region \"" +
               inner + "\"; " +
               (open ? "closing \"" + inner + "\" and everything opened after \"" + d->name + "\"" :
                       std::string("\"") + d->name + "\" is not open; ignored"));
    }
  }
  hcc_exit(d);
}

HCC_API void hcc_pause(void) {
  ThreadState *ts = t_state;
  if (!ts) ts = thread_state_create();
  if (ts->pause_count++ > 0) return;  // nested pauses: the outermost resume counts
  if (!ts->pause_node) {
    ts->pause_node = static_cast<Node *>(ts->cct.arena.alloc_node(sizeof(Node) + sizeof(uint64_t) * ts->cct.n_extra));
    ts->pause_node->region = kPauseRegion;
    node_init_links(ts->pause_node);
  }
  // A marker frame: every exit while paused meets it and goes to exit_repair,
  // which tells skipped enters from older frames; fast_limit 0 sends every
  // enter to enter_general, which skips it.
  if (ts->depth + 2 > ts->capacity) thread_state_grow(ts);
  Frame *f = ts->stack + ts->depth + 1;
  f->node = ts->pause_node;
  f->start = clock_now();
  ts->depth++;
  services_enter(ts);
  compute_fast_limit(ts);
}

HCC_API void hcc_resume(void) {
  ThreadState *ts = t_state;
  if (!ts || ts->pause_count == 0) return;
  if (--ts->pause_count > 0) return;
  pause_drop(ts, clock_now());
}
