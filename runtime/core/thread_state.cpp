// hcc runtime — thread state creation and the thread list (see thread_state.hpp).
#include "thread_state.hpp"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "clock.hpp"
#include "env.hpp"
#include "lifecycle.hpp"
#include "metrics.hpp"
#include "event_services.hpp"
#include "fold.hpp"

namespace hcc::rt {

__thread ThreadState *t_state __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
uint32_t g_created = 0;  // thread states ever created (thread_states_created)
pthread_key_t g_exit_key;
pthread_once_t g_key_once = PTHREAD_ONCE_INIT;

std::vector<ThreadState *> &threads() {
  static auto *v = new std::vector<ThreadState *>;  // leaked: read at exit
  return *v;
}

// Zeroed, on a cache line: the thread state's hot line and the frames
// (a frame is 16 bytes, so four share a line and none straddles two).
void *xalloc_lines(size_t bytes) {
  bytes = (bytes + 63) & ~size_t(63);
  void *p = std::aligned_alloc(64, bytes);
  if (!p) {
    std::fputs("hcc: error: out of memory for the shadow stack\n", stderr);
    std::abort();
  }
  return std::memset(p, 0, bytes);
}

}  // namespace

ThreadState *thread_state_alloc() { return static_cast<ThreadState *>(xalloc_lines(sizeof(ThreadState))); }

void compute_fast_limit(ThreadState *ts) {
  // The fast path pushes stack[depth + 1]: it needs depth + 1 < capacity and
  // depth < max_depth (the enter AT the limit pushes the artificial node).
  // Without the TSC, or with a per-event service (PAPI counters), every
  // enter takes the general path (hooks.cpp, event_services.hpp).
  uint32_t by_capacity = ts->capacity - 1;
  uint32_t limit = by_capacity < ts->max_depth ? by_capacity : ts->max_depth;
  if (!g_fast_events) limit = 0;
  if (ts->pause_count) limit = 0;  // hcc_pause: every enter is skipped
  // Recursion mode (fold.hpp) charges every event: the fast path is off,
  // its lane in the general path on, under the same conditions.
  ts->fast_limit = ts->fold_base ? 0 : limit;
  ts->fold_limit = ts->fold_base ? limit : 0;
}

namespace {

// A thread that ends with frames open (pthread_exit from C code without
// unwinding) has them closed at its end, not at the process's end.
void on_thread_exit(void *p) {
  auto *ts = static_cast<ThreadState *>(p);
  close_frames(ts, 0, clock_now());
  services_thread_end(ts);
  ts->ended = true;
}

void make_exit_key() { pthread_key_create(&g_exit_key, on_thread_exit); }

}  // namespace

ThreadState *thread_state_create() {
  runtime_init_once();
  pthread_once(&g_key_once, make_exit_key);

  auto *ts = thread_state_alloc();
  cct_init(ts->cct, extra_metric_count());
  ts->max_depth = max_depth_for_new_threads();
  ts->depth_region = kNoRegion;
  ts->capacity = 256;
  ts->stack = static_cast<Frame *>(xalloc_lines(sizeof(Frame) * ts->capacity));
  ts->stack[0].node = &ts->cct.root;
  ts->succ = &ts->cct.root.after_enter;  // the root sentinel: never a predecessor in the profile (cfg.hpp)
  ts->depth = 0;
  compute_fast_limit(ts);
  ts->tid = pid_t(syscall(SYS_gettid));
  ts->team_thread = -1;

  pthread_mutex_lock(&g_lock);
  ts->location = uint32_t(threads().size());
  threads().push_back(ts);
  __atomic_fetch_add(&g_created, 1, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&g_lock);

  pthread_setspecific(g_exit_key, ts);
  t_state = ts;
  services_thread_start(ts);
  return ts;
}

void thread_state_grow(ThreadState *ts) {
  if (ts->depth + 2 > ts->capacity) {
    uint32_t cap = ts->capacity * 2;
    while (ts->depth + 2 > cap) cap *= 2;
    auto *s = static_cast<Frame *>(xalloc_lines(sizeof(Frame) * cap));
    std::memcpy(s, ts->stack, sizeof(Frame) * (ts->depth + 1));
    // The old array is not freed: the finalizer of another thread may be
    // reading it. The waste is bounded by the final size.
    __atomic_store_n(&ts->stack, s, __ATOMIC_RELEASE);
    ts->capacity = cap;
  }
  compute_fast_limit(ts);
}

void close_frames(ThreadState *ts, uint32_t target, uint64_t t) {
  if (ts->depth > target) {
    services_exit(ts, target, t);
    // Control flow (cfg.hpp): as if each frame had exited, the lowest last.
    Node *last = ts->stack[target + 1].node;
    if (last != ts->pause_node) ts->succ = &attributed(last)->after_exit;
  }
  if (ts->fold_base) {
    fold_close_frames(ts, target, t);
    ts->overflow = 0;
    return;
  }
  for (uint32_t d = ts->depth; d > target; --d) {
    Frame &f = ts->stack[d];
    f.node->incl += t - f.start;
  }
  if (ts->depth > target) ts->depth = target;
  ts->overflow = 0;
}

uint32_t thread_states_created() { return __atomic_load_n(&g_created, __ATOMIC_ACQUIRE); }

std::vector<ThreadState *> threads_snapshot() {
  pthread_mutex_lock(&g_lock);
  std::vector<ThreadState *> copy = threads();
  pthread_mutex_unlock(&g_lock);
  // Team threads by OpenMP thread number (unique, see claim_team_thread),
  // then the rest in start order: the list is in start order already and
  // the sort is stable. Keys are read once: a snapshot build runs while
  // other threads may still claim.
  std::vector<std::pair<uint64_t, ThreadState *>> keyed;
  for (ThreadState *t : copy) {
    int32_t k = __atomic_load_n(&t->team_thread, __ATOMIC_ACQUIRE);
    keyed.emplace_back(k >= 0 ? uint64_t(uint32_t(k)) : uint64_t(1) << 32, t);
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  for (size_t i = 0; i < copy.size(); ++i) copy[i] = keyed[i].second;
  return copy;
}

void claim_team_thread(ThreadState *ts, int thread_num) {
  pthread_mutex_lock(&g_lock);
  if (!ts->team_asked) {
    ts->team_asked = true;
    bool taken = thread_num < 0;
    for (const ThreadState *t : threads()) taken = taken || (t != ts && t->team_thread == thread_num);
    if (!taken) __atomic_store_n(&ts->team_thread, int32_t(thread_num), __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&g_lock);
}

bool any_thread() {
  pthread_mutex_lock(&g_lock);
  bool any = !threads().empty();
  pthread_mutex_unlock(&g_lock);
  return any;
}

void threads_lock() { pthread_mutex_lock(&g_lock); }
void threads_unlock() { pthread_mutex_unlock(&g_lock); }

void threads_keep_only(ThreadState *self) {
  threads().clear();
  if (self) {
    self->location = 0;
    self->tid = pid_t(syscall(SYS_gettid));
    threads().push_back(self);
  }
}

}  // namespace hcc::rt
