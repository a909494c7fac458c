// hcc runtime — the sample handler: async-signal-safe, no allocation, no
// lock. Everything it touches was made before the timer started: the
// thread's Buffer (tables mapped at thread start), the global set of
// instrumented function starts and the code ranges (both filled outside any
// handler and only read here). libunwind's local unwinding is documented as
// signal-safe; its per-thread cache policy (set at start-up) keeps it free
// of locks.
#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <ucontext.h>

#include <cerrno>
#include <cstring>

#include "core/cct.hpp"
#include "core/registry.hpp"
#include "core/selection.hpp"
#include "core/thread_state.hpp"
#include "sampling/sampling.hpp"

namespace hcc::rt::sampling {

namespace {

__thread Buffer *t_buffer __attribute__((tls_model("initial-exec"))) = nullptr;

bool g_caches = true;
uintptr_t g_main_start = 0;  // set_main_start

// --- code ranges ---------------------------------------------------------
// kSystem: a library under /lib or /usr/lib, named from its symbol table
// only (symbols.cpp), so its frames are keyed by function start, not site.
enum RangeKind : uint8_t { kHcc = 1, kOpenMpRuntime = 2, kPlt = 3, kSystem = 4 };
struct Range {
  uintptr_t lo, hi;
  uint8_t kind;
  uint8_t entry_size;  // kPlt: the size of one stub
};
constexpr int kMaxRanges = 128;
Range g_ranges[kMaxRanges];
int g_nranges = 0;

// The start of the PLT stub holding `ip` (in a kPlt range).
uintptr_t plt_stub(uintptr_t ip) {
  for (int i = 0; i < g_nranges; ++i)
    if (ip >= g_ranges[i].lo && ip < g_ranges[i].hi && g_ranges[i].kind == kPlt)
      return g_ranges[i].lo + (ip - g_ranges[i].lo) / g_ranges[i].entry_size * g_ranges[i].entry_size;
  return ip;
}

int range_kind(uintptr_t ip) {
  for (int i = 0; i < g_nranges; ++i)
    if (ip >= g_ranges[i].lo && ip < g_ranges[i].hi) return g_ranges[i].kind;
  return 0;
}

// `system` (bool*): the pass for system libraries (kSystem), after hcc's
// and the PLTs' ranges, which take precedence (the first range found wins).
int add_ranges(struct dl_phdr_info *info, size_t, void *system) {
  const char *path = info->dlpi_name ? info->dlpi_name : "";
  const char *base = std::strrchr(path, '/');
  base = base ? base + 1 : path;
  uint8_t kind = 0;
  if (std::strncmp(base, "libhcc", 6) == 0) kind = kHcc;
  else if (std::strncmp(base, "libgomp", 7) == 0 || std::strncmp(base, "libomp", 6) == 0 ||
           std::strncmp(base, "libiomp", 7) == 0)
    kind = kOpenMpRuntime;
  else if (system_path(path))
    kind = kSystem;
  if (!kind || (kind == kSystem) != *static_cast<bool *>(system)) return 0;
  for (int i = 0; i < info->dlpi_phnum && g_nranges < kMaxRanges; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
    g_ranges[g_nranges++] = {lo, lo + ph.p_memsz, kind, 0};
  }
  return 0;
}

inline uint32_t hash_addr(uintptr_t a) {
  uint64_t x = uint64_t(a) * 0x9E3779B97F4A7C15ull;
  return uint32_t(x >> 32);
}

// --- sets of function starts (instrumented ones, stopped ones) --------------
// Open addressing, filled under one lock outside any handler, read lock-free
// by the handler; beyond 3/4 full, new starts are not noted.
pthread_mutex_t g_instr_lock = PTHREAD_MUTEX_INITIALIZER;

template <uint32_t Cap>
struct StartSet {
  uintptr_t slot[Cap];
  uint32_t used;
  void add(uintptr_t start) {
    if (!start) return;
    pthread_mutex_lock(&g_instr_lock);
    for (uint32_t s = hash_addr(start) & (Cap - 1);; s = (s + 1) & (Cap - 1)) {
      const uintptr_t v = __atomic_load_n(&slot[s], __ATOMIC_RELAXED);
      if (v == start) break;
      if (v == 0) {
        if (used < Cap / 4 * 3) {
          __atomic_store_n(&slot[s], start, __ATOMIC_RELEASE);
          ++used;
        }
        break;
      }
    }
    pthread_mutex_unlock(&g_instr_lock);
  }
  bool contains(uintptr_t start) const {
    for (uint32_t s = hash_addr(start) & (Cap - 1);; s = (s + 1) & (Cap - 1)) {
      const uintptr_t v = __atomic_load_n(&slot[s], __ATOMIC_ACQUIRE);
      if (v == start) return true;
      if (v == 0) return false;
    }
  }
};
StartSet<1u << 15> g_instrumented;  // functions that call hcc_enter
StartSet<1u << 10> g_stopped;       // of those, the ones whose count stopped

// --- per-thread caches and the path table -----------------------------------

// libunwind answers an address without unwind information with a made-up
// procedure [ip, ip + 1) rather than an error (x86_64 Gget_proc_info.c: "be
// forgiving" for signal trampolines), then unwinds it by the frame pointer,
// which may or may not hold a frame pointer: such a frame is not trusted.
inline bool has_unwind_info(const unw_proc_info_t &pi, uintptr_t ip) {
  return pi.start_ip != 0 && !(pi.start_ip == ip && pi.end_ip == ip + 1);
}

// Function start of the cursor's frame (ip = its IP): the cache first, then
// libunwind's procedure info. 0 when no unwind information covers it.
uintptr_t frame_start(Buffer *b, unw_cursor_t *c, uintptr_t ip) {
  const uint32_t mask = b->ip_cap - 1;
  uint32_t h = hash_addr(ip) & mask;
  if (g_caches) {
    for (uint32_t p = 0; p < 8; ++p) {
      uint32_t s = (h + p) & mask;
      if (b->ip_key[s] == ip) {
        ++b->ip_hits;
        return b->ip_start[s];
      }
      if (b->ip_key[s] == 0) break;
    }
  }
  ++b->ip_misses;
  unw_proc_info_t pi;
  if (unw_get_proc_info(c, &pi) < 0 || !has_unwind_info(pi, ip)) return 0;
  if (g_caches) {
    uint32_t s = h;  // the first free slot of the probe run, else the home slot
    for (uint32_t p = 0; p < 8; ++p)
      if (b->ip_key[(h + p) & mask] == 0) {
        s = (h + p) & mask;
        break;
      }
    b->ip_key[s] = ip;
    b->ip_start[s] = uintptr_t(pi.start_ip);
  }
  return uintptr_t(pi.start_ip);
}

// The slot of (parent, func), made if new; kFull when the table is full.
constexpr uint32_t kFull = 0xFFFFFFFFu;
uint32_t path_slot(Buffer *b, uintptr_t parent, uintptr_t func) {
  const uint32_t mask = b->cap - 1;
  uint32_t s = hash_addr(parent * 31 + func) & mask;
  for (uint32_t p = 0; p < b->cap; ++p, s = (s + 1) & mask) {
    Entry &e = b->table[s];
    uintptr_t f = e.func;
    if (f == 0) {
      if (b->used >= b->cap / 4 * 3) return kFull;
      e.parent = parent;
      e.count = 0;
      e.cpu_ns = 0;
      e.order = b->used;
      b->by_order[b->used] = s;
      __atomic_store_n(&e.func, func, __ATOMIC_RELEASE);
      __atomic_store_n(&b->used, b->used + 1, __ATOMIC_RELEASE);
      return s;
    }
    if (f == func && e.parent == parent) return s;
  }
  return kFull;
}

// Counts `n` samples standing for `ns` of CPU on the path anchor →
// frames[count-1] → … → frames[0].
void count_path(Buffer *b, uintptr_t anchor, const uintptr_t *frames, int count, uint64_t n, uint64_t ns) {
  uintptr_t parent = anchor;
  uint32_t s = kFull;
  for (int i = count - 1; i >= 0; --i) {
    s = path_slot(b, parent, frames[i]);
    if (s == kFull) {
      b->lost += n;
      return;
    }
    parent = (uintptr_t(s) << 1) | 1;
  }
  if (s != kFull) {
    b->table[s].count += n;
    b->table[s].cpu_ns += ns;
  }
}

// The CCT node of the innermost open frame (the sample's anchor), or null
// when no frame is open. Read only when the interrupted code is not hcc's:
// then the thread is not between the stores of a push or pop.
Node *anchor_node(ThreadState *ts) {
  const Frame *stack = __atomic_load_n(&ts->stack, __ATOMIC_RELAXED);
  uint32_t d = __atomic_load_n(&ts->depth, __ATOMIC_RELAXED);
  for (; d > 0; --d) {
    Node *n = stack[d].node;
    // Inside hcc's code a push may be between its two stores: the slot can
    // hold an earlier frame's node (the old arrays are never freed, nodes
    // never move), or nothing yet.
    if (!n) continue;
    if (n->kind == kProxy) n = n->link;  // recursion mode (fold.hpp)
    if (n && n->region != kPauseRegion) return n;
  }
  return nullptr;
}

// Adds `n` samples standing for `ns` of CPU to `anchor`: its `samples` and
// the CPU metric `cpu_m` (sampled_cpu; measurement_cpu for samples taken
// inside hcc's code); with no frame open, to <unknown: no call path> below
// the thread.
void count_on(Buffer *b, Node *anchor, uintptr_t root_key, uint64_t n, uint64_t ns, int cpu_m) {
  if (!n) return;
  if (anchor) {
    anchor->extra()[samples_metric()] += n;
    anchor->extra()[cpu_m] += ns;
  } else {
    const uintptr_t unknown = kUnknownFrame;
    b->root_self += n;
    count_path(b, root_key, &unknown, 1, n, ns);
  }
}
void count_self(Buffer *b, Node *anchor, uintptr_t root_key, uint64_t n, uint64_t ns) {
  count_on(b, anchor, root_key, n, ns, cpu_metric());
}
void count_measurement(Buffer *b, Node *anchor, uintptr_t root_key, uint64_t n, uint64_t ns) {
  count_on(b, anchor, root_key, n, ns, measurement_metric());
}

constexpr int kMaxFrames = 256;

enum Walk { kOk, kFailed, kInsideHcc };

// Unwinds from the cursor: function starts of the frames above the
// innermost instrumented function (innermost first) into frames[0..*n).
// Stops at an instrumented function, at the thread's base, at the end of
// the stack (kOk); at a frame of hcc's (kInsideHcc), unless `skip_hcc_top`
// and no frame was taken yet (the MPI wrapper calling us); kFailed when a
// frame has no unwind information or there are more than `max`.
// `record_stop`: an instrumented function it stops at, other than the
// anchor's, is kept as the outermost frame (a sample's walk).
// `slots` (optional): for each step, where the caller's return address was
// found and its value (x86-64: the caller's stack pointer − 8), to validate
// a cached walk later (unwind_here). `anchor` (optional): the node the
// sample hangs below. Below an OpenMP construct, whose body the OpenMP
// runtime called (a worker's thread loop, the master's GOMP_parallel), the
// walk ends at the runtime's first frame, so the body's frames hang right
// below the construct on every thread, and a sample in the runtime itself
// (a barrier's wait) counts on the construct; elsewhere the OpenMP
// runtime's frames are skipped (a library's parallel region called from
// the program's code). Below a frame unwound and pushed before (an OpenMP
// fork's, an MPI call's) the walk ends at that frame's function.
struct Slots {
  static constexpr int kMax = 96;
  uintptr_t addr[kMax], value[kMax];
  int n = 0;
};
Walk walk(Buffer *b, unw_cursor_t *c, uintptr_t *frames, int *n, int max, bool skip_hcc_top,
          Slots *slots = nullptr, const Node *anchor = nullptr, bool sites = false, bool record_stop = false) {
  const bool openmp_anchor = anchor && region_is_openmp(anchor->region);
  const uintptr_t anchor_function = anchor ? region_start(anchor->region) : 0;
  // Frames keyed by site (sampling.hpp) while the table has room: a full
  // one would lose samples, keyed by function start it loses detail only.
  sites = sites && b->used < b->cap / 2;
  bool top = true, exact = true;  // the first frame's IP is the interrupted instruction's
  for (;;) {
    unw_word_t pc = 0;
    unw_get_reg(c, UNW_REG_IP, &pc);
    const int kind = range_kind(uintptr_t(pc));
    // A frame of hcc's own (an MPI wrapper, a POMP2 call, the runtime):
    // the sample is inside a call hcc measures; its frame is the anchor.
    if (kind == kHcc && !(skip_hcc_top && top)) return kInsideHcc;
    if (kind != kHcc) top = false;
    if (kind == kOpenMpRuntime && openmp_anchor) return kOk;
    uintptr_t start = 0, key = 0;
    if (kind == 0 || kind == kPlt || kind == kSystem) {  // the OpenMP runtime's frames are skipped
      start = frame_start(b, c, uintptr_t(pc));
      if (!start) return kFailed;  // no unwind information: the rest cannot be trusted
      // One unwind entry covers a whole PLT section: the stub itself is
      // the frame's function, so each target gets a name (symbols.cpp).
      if (kind == kPlt) start = plt_stub(uintptr_t(pc));
      // A return address is the instruction after the call: the call's
      // inlined context is that of the byte before.
      key = sites && kind == 0 ? (uintptr_t(pc) - (exact ? 0 : 1)) | kSiteBit : start;
      // The shadow stack has the rest: an instrumented function, or the
      // anchor itself when it is a frame unwound and pushed before (an
      // OpenMP fork's, an MPI call's). The calls inlined into the anchor's
      // function at this site go below the anchor.
      if (start == anchor_function && (key & kSiteBit)) {
        if (*n == max) return kFailed;
        frames[(*n)++] = key | kInlinedOnlyBit;
        return kOk;
      }
      if (start == anchor_function) return kOk;
      // A stopped function has no frame by design: the walk goes on to the
      // innermost open frame, keeping its frame as any uninstrumented one.
      if (is_instrumented_function(start) && !is_stopped_function(start)) {
        // An instrumented function that is not the innermost open frame: a
        // counted leaf (no frame), a region excluded at run time, or its own
        // code outside its enter and exit. A sample's walk (`record_stop`)
        // keeps the frame, so the build gives the sample to that function's
        // node (or shows it as sampled) instead of to the anchor; an MPI
        // wrapper's walk pushes only uninstrumented frames.
        if (record_stop) {
          if (*n == max) return kFailed;
          frames[(*n)++] = key;
        }
        return kOk;
      }
      if (start == g_main_start) {  // a thread with no base: main is the outermost frame shown
        if (*n == max) return kFailed;
        frames[(*n)++] = key;
        // main's CFA becomes the thread's base: after main returns, a
        // sample in exit's handlers ends at `exit`, not at libc's start-up.
        unw_word_t sp = 0;
        if (b->base_sp == ~uintptr_t(0) && unw_step(c) > 0 && unw_get_reg(c, UNW_REG_SP, &sp) == 0)
          b->base_sp = uintptr_t(sp);
        return kOk;
      }
    }
    const int r = unw_step(c);
    exact = false;
    if (r < 0) return kFailed;
    if (r > 0) {
      // This frame's CFA is the caller's stack pointer: above the thread's
      // base, it belongs to whatever started the thread.
      unw_word_t sp = 0;
      unw_get_reg(c, UNW_REG_SP, &sp);
      if (slots) {
        if (slots->n == Slots::kMax) return kFailed;
        unw_word_t ip = 0;
        unw_get_reg(c, UNW_REG_IP, &ip);
        slots->addr[slots->n] = uintptr_t(sp) - sizeof(uintptr_t);
        slots->value[slots->n++] = uintptr_t(ip);
      }
      if (uintptr_t(sp) > b->base_sp) return kOk;
    }
    if (start) {
      if (*n == max) return kFailed;
      frames[(*n)++] = key;
    }
    if (r == 0) return kOk;  // the outermost frame
  }
}

}  // namespace

Buffer *current_buffer() { return t_buffer; }
void set_main_start(uintptr_t start) { g_main_start = start; }
void set_current_buffer(Buffer *b) { t_buffer = b; }
void set_caches_enabled(bool on) { g_caches = on; }

void add_hcc_range(uintptr_t lo, uintptr_t hi) {
  if (g_nranges < kMaxRanges) g_ranges[g_nranges++] = {lo, hi, kHcc, 0};
}

void add_plt_range(uintptr_t lo, uintptr_t hi, unsigned entry_size) {
  if (g_nranges < kMaxRanges && entry_size > 0 && entry_size <= 255)
    g_ranges[g_nranges++] = {lo, hi, kPlt, uint8_t(entry_size)};
}

bool in_plt(uintptr_t addr) { return range_kind(addr) == kPlt; }

void scan_code_ranges() {
  g_nranges = 0;
  bool system = false;
  dl_iterate_phdr(add_ranges, &system);
  // hcc's trampolines (include/hcc/detail/bind.h) live in each instrumented
  // module, outside libhcc: a sample in one is a sample in the runtime.
  for_each_trampoline_block(add_hcc_range);
  // After hcc's ranges: libhcc's own PLT stays hcc's.
  for_each_plt_section(add_plt_range);
  system = true;
  dl_iterate_phdr(add_ranges, &system);
}

void flush_pending(Buffer *b) {
  ThreadState *ts = b->ts;
  // Samples still pending were taken inside hcc's code after the thread's
  // last sample outside it: they go where that one went (the frames open
  // now, at the thread's end, are usually none).
  Node *anchor = b->has_last ? b->last_anchor : anchor_node(ts);
  count_measurement(b, anchor, anchor ? uintptr_t(anchor) : uintptr_t(&ts->cct.root), b->pending, b->pending_ns);
  b->pending = 0;
  b->pending_ns = 0;
}

bool in_hcc_code(uintptr_t ip) { return range_kind(ip) == kHcc; }

void note_instrumented_function(uintptr_t start) { g_instrumented.add(start); }

namespace {
constexpr uint32_t kRegionStartCap = 1u << 14;  // region ids
uintptr_t g_region_start[kRegionStartCap];
}  // namespace

void note_region_start(uint32_t region, uintptr_t start) {
  if (region < kRegionStartCap) __atomic_store_n(&g_region_start[region], start, __ATOMIC_RELEASE);
}

uintptr_t region_start(uint32_t region) {
  return region < kRegionStartCap ? __atomic_load_n(&g_region_start[region], __ATOMIC_ACQUIRE) : 0;
}

void note_stopped_function(uintptr_t start) { g_stopped.add(start); }

bool is_stopped_function(uintptr_t start) { return g_stopped.contains(start); }

bool is_instrumented_function(uintptr_t start) { return g_instrumented.contains(start); }

uintptr_t function_start_slow(uintptr_t ip) {
  unw_proc_info_t pi;
  if (unw_get_proc_info_by_ip(unw_local_addr_space, unw_word_t(ip), &pi, nullptr) < 0) return 0;
  return has_unwind_info(pi, ip) ? uintptr_t(pi.start_ip) : 0;
}

void take_sample(Buffer *b, void *ucv) {
  ++b->taken;
  auto *uc = static_cast<ucontext_t *>(ucv);
  const uintptr_t ip = uintptr_t(uc->uc_mcontext.gregs[REG_RIP]);
  // The CPU time this sample stands for: the thread's since its last one.
  const uint64_t cpu = thread_cpu_ns();
  const uint64_t ns = cpu > b->last_cpu_ns ? cpu - b->last_cpu_ns : 0;
  b->last_cpu_ns = cpu;
  ThreadState *ts = b->ts;
  // Inside hcc's own code: what measuring costs. Charged to the innermost
  // open frame as the shadow stack holds it now (at worst the frame before
  // or after the event being handled: the stack's stores are plain word
  // stores, its arrays never freed), in its own metric; nothing is unwound.
  // With no frame open, counted at the next call path as before.
  if (range_kind(ip) == kHcc) {
    ++b->in_runtime;
    if (Node *at = anchor_node(ts)) {
      count_measurement(b, at, uintptr_t(at), 1, ns);
    } else {
      ++b->pending;
      b->pending_ns += ns;
    }
    return;
  }
  Node *anchor = anchor_node(ts);
  const uintptr_t key = anchor ? uintptr_t(anchor) : uintptr_t(&ts->cct.root);
  b->last_anchor = anchor;
  b->has_last = true;
  count_measurement(b, anchor, key, b->pending, b->pending_ns);
  b->pending = 0;
  b->pending_ns = 0;

  uintptr_t frames[kMaxFrames];
  int n = 0;
  Walk how = kFailed;
  unw_cursor_t c;
  if (unw_init_local2(&c, reinterpret_cast<unw_context_t *>(uc), UNW_INIT_SIGNAL_FRAME) == 0)
    how = walk(b, &c, frames, &n, kMaxFrames, false, nullptr, anchor, true, true);
  if (how == kFailed) {
    ++b->failed;
    const uintptr_t failed = kFailedFrame;
    count_path(b, key, &failed, 1, 1, ns);
  } else if (how == kInsideHcc || n == 0) {
    count_self(b, anchor, key, 1, ns);
  } else {
    count_path(b, key, frames, n, 1, ns);
  }
}

namespace {
// A walk from unwind_here remembered: the stack pointer it started at, the
// return-address slots it read, and the frames it found. The same start and
// the same return address in every slot (checked innermost first: each
// match proves the next frame is the same function at the same place, so
// the next slot lies in a live frame) mean the same call chain.
struct CachedWalk {
  uintptr_t sp0 = 0;
  Slots slots;
  int nframes = -1;
  uintptr_t frames[Buffer::kMpiFrames];
};
constexpr int kCachedWalks = 16;
}  // namespace

int unwind_here(Buffer *b, uintptr_t *frames, int max) {
  unw_context_t ctx;
  unw_cursor_t c;
  if (unw_getcontext(&ctx) != 0) return -1;
  const uintptr_t sp0 = uintptr_t(ctx.uc_mcontext.gregs[REG_RSP]);
  if (!b->mpi_walks) b->mpi_walks = new CachedWalk[kCachedWalks];
  CachedWalk &w = static_cast<CachedWalk *>(b->mpi_walks)[hash_addr(sp0) % kCachedWalks];
  if (g_caches && w.sp0 == sp0 && w.nframes >= 0 && w.nframes <= max) {
    int k = 0;
    while (k < w.slots.n && *reinterpret_cast<const uintptr_t *>(w.slots.addr[k]) == w.slots.value[k]) ++k;
    if (k == w.slots.n) {
      ++b->ip_hits;
      std::memcpy(frames, w.frames, sizeof(uintptr_t) * size_t(w.nframes));
      return w.nframes;
    }
  }
  if (unw_init_local(&c, &ctx) != 0) return -1;
  int n = 0;
  w.nframes = -1;
  w.slots.n = 0;
  if (walk(b, &c, frames, &n, max, true, &w.slots) != kOk) return -1;
  w.sp0 = sp0;
  w.nframes = n <= Buffer::kMpiFrames ? n : -1;
  if (w.nframes >= 0) std::memcpy(w.frames, frames, sizeof(uintptr_t) * size_t(n));
  return n;
}

void on_signal(int, siginfo_t *, void *uc) {
  const int saved = errno;
  Buffer *b = t_buffer;
  if (b && !b->stopped && !b->busy && active()) {
    b->busy = 1;
    take_sample(b, uc);
    b->busy = 0;
  }
  errno = saved;
}

}  // namespace hcc::rt::sampling
