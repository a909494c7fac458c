// hcc runtime — hcc_enter / hcc_exit, the hot path.
//
// The fast path of each hook is a leaf function: one TLS load, one descriptor
// load, one compare against a limit, the cached child (enter) or one region
// compare (exit), and an rdtsc. It touches, besides the descriptor, the
// thread's hot line (thread_state.hpp), the top frame's line and one node
// line (two for a first child: the parent's slot), and no global: see
// README.md, "The hot path". Every unusual case — first event of a thread,
// first use of a region, a child-cache miss, a full stack array, the depth
// cut, unbalanced exits, the CLOCK_MONOTONIC fallback — leaves through a tail
// call to an out-of-line function, so the fast path saves no registers and
// sets up no frame. When the TSC is not used, fast_limit is 0 for every
// thread, which sends every enter down the general path without an extra
// test on the fast path. The same holds when a per-event service (PAPI
// counters, event_services.hpp) is active: g_fast_events is false then, and the
// general paths call the service after pushing / before popping a frame.
// hcc_exit tests fast_limit too, in the thread's line, not the global, and
// before its clock read, which recursion mode may skip (exit_in_mode).
// This file is compiled with -O3, initial-exec TLS, no exceptions, no RTTI.
#include "hooks.hpp"

#include "hcc/region.h"
#include "registry.hpp"
#include "event_services.hpp"
#include "selection.hpp"
#include "site_patch.hpp"
#include "thread_state.hpp"

#define HCC_API extern "C" __attribute__((visibility("default")))
#define HCC_UNLIKELY(x) __builtin_expect(!!(x), 0)

namespace hcc::rt {

namespace {

// The fast path's clock: only reached when g_clock_is_tsc (see above).
__attribute__((always_inline)) inline uint64_t fast_clock() {
#if defined(__x86_64__)
  return __builtin_ia32_rdtsc();
#else
  return monotonic_ns();
#endif
}

// The enter of a throttled region (`region` has kThrottledBit) as count
// mode's lane makes it (count_hooks.cpp): its frame is pushed, so its visits
// are exact per call path and what it calls stays below it, but no clock is
// read. Its time comes from the samples that land in it (the builder treats
// a throttled node as untimed: untimed_time.hpp). Every other case (the
// thread's first event, a slot miss, recursion mode, a per-event service,
// pause, the depth cut) takes the general path with the plain id, which
// reads the clock the builder then ignores for this node.
__attribute__((noinline)) void enter_slow(hcc_region_desc *d, uint32_t region);
__attribute__((noinline)) void throttled_enter(hcc_region_desc *d, uint32_t region) {
  const uint32_t id = region & ~kThrottledBit;
  ThreadState *ts = t_state;
  if (HCC_UNLIKELY(!ts) || !enter_unclocked(ts, id)) return enter_slow(d, id);
}

// Recursion mode's common enter (fold.hpp): folded frames are open, nothing
// is paused, no per-event service runs (so the TSC is the clock), there is
// room below the depth cut, and the entry below the running frame's node
// was seen before (the running proxy caches it, fold links included).
// kLaneDone: the frame is pushed. kLaneMiss: only the successor slot missed
// (kRefill false); the caller tail-calls enter_folded_refill, which refills
// it and pushes. kLaneNo: everything else, for the general path.
enum LaneResult { kLaneDone, kLaneMiss, kLaneNo };
template <bool kRefill>
__attribute__((always_inline)) inline LaneResult enter_folded_lane(ThreadState *ts, uint32_t region, uint32_t depth) {
  // One compare: off outside recursion mode, with per-event services, while
  // paused, at the depth cut and when the stack array is full.
  if (depth >= ts->fold_limit) return kLaneNo;
  Frame *top = ts->stack + depth;
  Node *caller = top->node;  // in recursion mode and not paused, always a proxy
  Node *entry = caller->cache;
  if (caller->kind != kProxy || entry->region != region) return kLaneNo;
  Node *n = entry->kind == kForward ? entry->link : entry;
  Node *px = n->link;
  if (!px) return kLaneNo;
  // Control flow (cfg.hpp) as cfg_enter counts it. A slot to refill is the
  // refilling twin's: a call to cfg_miss here would make this function save
  // registers and build a frame on every event of a recursion. (A recursion
  // alternates successors often: radiance's enter is followed by radiance's
  // or by a callee's.)
  Succ *s = ts->succ;
  if (s->next != n) {
    if (!kRefill) return kLaneMiss;
    cfg_miss(ts, s, n);
  }
  ++s->pending;
  ts->succ = &n->after_enter;
  ++n->visits;
  entry->visits += entry != n;  // a fold link counts the calls made through it
  if (++n->open > n->max_open) n->max_open = n->open;
  top[1].node = px;
  ts->depth = depth + 1;
  // A frame counted on the running frame's own node (a function calling
  // itself, directly or through stopped or uninstrumented code): the time
  // since the last event goes to that proxy whichever of the two frames is
  // said to have run it, so no clock is read; the next event that changes
  // the running proxy charges the whole interval (fold.hpp). The frame's
  // start, which only identifies it (longjmp.cpp), is that last event's.
  if (px == caller) {
    top[1].start = ts->fold_last;
    return kLaneDone;
  }
  const uint64_t t = fast_clock();  // last, so the work above is the caller's
  caller->incl += t - ts->fold_last;
  ts->fold_last = t;
  top[1].start = t;
  return kLaneDone;
}

// The lane after a successor-slot miss: the slot refilled, the frame pushed.
__attribute__((noinline)) void enter_folded_refill(ThreadState *ts, uint32_t region, uint32_t depth) {
  enter_folded_lane<true>(ts, region, depth);  // the checks the lane made hold still
}

// Everything hcc_enter's fast path and recursion mode's lane do not handle.
__attribute__((noinline)) void enter_slow(hcc_region_desc *d, uint32_t region) {
  ThreadState *ts = t_state;
  if (!ts) ts = thread_state_create();
  ++ts->general_enters;  // testing::general_enters
  if (region == 0) region = register_region(d);
  if (HCC_UNLIKELY(region == kExcludedId)) return;
  // A twin of a stopped region, registered just now (registry.cpp): nothing
  // to record; its next call comes through enter_rare, which rewrites it.
  if (HCC_UNLIKELY(is_stopped_value(region))) return;
  region &= ~kThrottledBit;  // throttled: its frame as any other's, its clock ignored
  // hcc_pause: skipped, counted so their exits are recognised (exit_repair).
  if (HCC_UNLIKELY(ts->pause_count)) {
    ++ts->pause_skipped;
    return;
  }
  uint32_t depth = ts->depth;
  uint8_t flags = 0;
  if (HCC_UNLIKELY(g_selective)) {
    // HCC_SELECT: outside every selected subtree nothing is recorded;
    // HCC_PRUNE: nothing below a pruned region. Skipped enters are counted
    // per frame so their exits are told apart from the frame's own.
    flags = region_flags(region);
    if (ts->prune_depth || (g_select_active && ts->sel_inside == 0 && !(flags & kFlagSelect))) {
      ++ts->sel_skipped;
      return;
    }
    if (depth <= ts->max_depth) {
      *selection_saved_slot(ts, depth + 1) = ts->sel_skipped;
      ts->sel_skipped = 0;
    }
  }
  if (depth < ts->max_depth) {
    if (depth + 2 > ts->capacity) thread_state_grow(ts);
    push_region(ts, region);
    services_enter(ts);
    if (flags & kFlagSelect) ++ts->sel_inside;
    if ((flags & kFlagPrune) && !ts->prune_depth) ts->prune_depth = ts->depth;
  } else if (depth == ts->max_depth) {
    // One visible artificial node holds everything below the cut.
    if (ts->depth_region == kNoRegion) ts->depth_region = register_depth_limit_region(ts->max_depth);
    if (depth + 2 > ts->capacity) thread_state_grow(ts);
    push_region(ts, ts->depth_region);
    services_enter(ts);
  } else {
    ++ts->overflow;  // below the cut: counted, not recorded
    ++ts->dropped;
  }
}

// hcc_enter's fast path is closed to this thread (depth >= fast_limit: in
// recursion mode among others): recursion mode's lane with the state and
// region hcc_enter has read already, else the general path. A leaf too.
__attribute__((noinline)) void enter_beyond_limit(ThreadState *ts, hcc_region_desc *d, uint32_t region,
                                                  uint32_t depth) {
  const LaneResult r = enter_folded_lane<false>(ts, region, depth);
  if (r == kLaneDone) return;
  if (r == kLaneMiss) return enter_folded_refill(ts, region, depth);
  return enter_slow(d, region);
}

// hcc_enter's slow path: recursion mode's lane first, without a stack frame
// of its own (a leaf like the fast path), then everything else.
__attribute__((noinline)) void enter_general(hcc_region_desc *d) {
  ThreadState *ts = t_state;
  uint32_t region = __atomic_load_n(&d->id, __ATOMIC_ACQUIRE);
  if (ts && int32_t(region) > 0) return enter_beyond_limit(ts, d, region, ts->depth);
  return enter_slow(d, region);
}

// The top frame is not `region`'s: we are below the depth cut, exits were
// skipped (longjmp, a C cleanup that did not run), the descriptor was never
// entered, or the exit is spurious.
__attribute__((noinline)) void exit_repair(ThreadState *ts, hcc_region_desc *d, uint32_t region, uint64_t t) {
  uint32_t depth = ts->depth;
  Node *top_node = ts->stack[depth].node;
  if (depth > 0 && top_node->region == kPauseRegion) {
    if (ts->pause_skipped > 0) {  // the exit of an enter skipped while paused
      --ts->pause_skipped;
      return;
    }
    // The exit of a region entered before hcc_pause (its function returned
    // while paused): recording resumes here.
    pause_drop(ts, t);
    depth = ts->depth;
    if (depth > 0 && frame_region(ts->stack[depth]) == region) {
      close_frames(ts, depth - 1, t);
      return;
    }
  }
  if (depth > 0 && frame_region(ts->stack[depth]) == ts->depth_region) {
    if (ts->overflow > 0) {
      --ts->overflow;
      return;
    }
    close_frames(ts, depth - 1, t);  // the exit of the enter that hit the cut
    return;
  }
  // Exit through a descriptor never entered: it may be a twin of one that was
  // (the same inline function compiled into two files).
  if (region == 0 && (region = find_region(d)) == 0) return;
  // Skipped exits: close every frame above the region's frame, and the
  // region's frame itself, at `t`. An exit with no open frame is ignored.
  for (uint32_t d2 = depth; d2 > 0; --d2) {
    if (frame_region(ts->stack[d2]) == region) {
      close_frames(ts, d2 - 1, t);
      return;
    }
  }
}

// The exit of a filtered region (nothing to do) or of a throttled one:
// count mode's exit lane (count_hooks.cpp), no clock, no time added; a frame
// opened before the region was throttled closes the same way (the builder
// takes a throttled node's time from its samples, not from its frames).
// Everything unusual goes to the general path with the plain id.
__attribute__((noinline)) void exit_general(hcc_region_desc *d, uint32_t region);
__attribute__((noinline)) void stopped_exit(hcc_region_desc *d, uint32_t region, uintptr_t ret);
__attribute__((noinline)) void exit_rare(hcc_region_desc *d, uint32_t region, uintptr_t ret) {
  if (region == kExcludedId) return;
  if (HCC_UNLIKELY(is_stopped_value(region))) return stopped_exit(d, region & ~(kThrottledBit | kStoppedBit), ret);
  const uint32_t id = region & ~kThrottledBit;
  ThreadState *ts = t_state;
  if (HCC_UNLIKELY(!ts)) return;
  if (!exit_unclocked(ts, id)) return exit_general(d, id);
}

// hcc_exit with the thread's fast path closed (fast_limit 0): recursion
// mode, or lanes off (no TSC, a per-event service, paused: the general path,
// which reads its own clock). In recursion mode a frame on a proxy is popped
// here, without a stack frame (a leaf like the fast path); the exit of one whose
// proxy the frame below stands on too (the enter lane's `px == caller`)
// reads no clock: the same proxy runs on (fold.hpp). Two frames on one node
// can only be proxies' (a real node is never open twice: recursion folds).
__attribute__((noinline)) void exit_in_mode(ThreadState *ts, hcc_region_desc *d, uint32_t region) {
  if (HCC_UNLIKELY(lanes_off(ts))) return exit_general(d, region);
  const uint32_t depth = ts->depth;
  Node *n = ts->stack[depth].node;
  if (depth > 0 && ts->stack[depth - 1].node == n && n->kind == kProxy && n->link->region == region)
    return pop_proxy_frame(ts, n, depth);  // above the frame that began the mode: the mode goes on
  const uint64_t t = fast_clock();
  if (n->kind == kProxy && n->link->region == region) return pop_folded(ts, t, n, depth);
  return exit_repair(ts, d, region, t);
}

// `region`: the descriptor's id as hcc_exit read it, the throttled bit
// cleared (exit_rare); throttled since then: that region all the same.
__attribute__((noinline)) void exit_general(hcc_region_desc *d, uint32_t region) {
  uint64_t t = clock_now();
  ThreadState *ts = t_state;
  if (!ts) return;
  if (HCC_UNLIKELY(region == kExcludedId)) return;
  region &= ~kThrottledBit;
  if (HCC_UNLIKELY(g_selective)) {
    if (ts->sel_skipped > 0 && ts->pause_count == 0) {  // the exit of a skipped enter
      --ts->sel_skipped;
      return;
    }
  }
  Frame *top = ts->stack + ts->depth;
  if (frame_region(*top) != region) {
    exit_repair(ts, d, region, t);
    if (g_selective) selection_resync(ts);
    return;
  }
  uint64_t ticks = t - top->start;
  uint32_t popped = ts->depth;
  if (top->node->kind == kProxy) {
    close_frames(ts, popped - 1, t);  // recursion mode charges it (fold.hpp)
  } else {
    top->node->incl += ticks;
    ts->succ = &top->node->after_exit;  // control flow (cfg.hpp): the next sibling sees it
    services_exit(ts, popped - 1, t);
    ts->depth = popped - 1;
  }
  if (HCC_UNLIKELY(g_selective)) {
    if (g_throttle) throttle_account(ts, region, ticks);
    if (region_flags(region) & kFlagSelect) --ts->sel_inside;
    if (ts->prune_depth >= popped) ts->prune_depth = 0;
    ts->sel_skipped = *selection_saved_slot(ts, popped);
  }
}

// The exit of a region whose count stopped (auto_throttle.cpp). When the
// top frame is the region's, the visit began before the stop: closed as any
// throttled frame. A frame of it further down belongs to an older visit (a
// recursion's: this one, begun after the stop, has none), so nothing closes;
// the exits of frames above it that were lost (a longjmp) are repaired by the
// next exit below, as anywhere. With no frame of it open, this visit
// recorded nothing, and when this is the only thread hcc ever saw, no visit
// anywhere has a frame for this exit to close: the guard call that got here
// becomes a nop (site_patch.hpp). With other threads it stays (one of them
// may be inside a visit that began before the stop); those exits return here.
__attribute__((noinline)) void stopped_exit(hcc_region_desc *d, uint32_t region, uintptr_t ret) {
  ThreadState *ts = t_state;
  if (!ts) return;
  if (ts->depth > 0 && frame_region(ts->stack[ts->depth]) == region) {
    if (!exit_unclocked(ts, region)) exit_general(d, region);
    return;
  }
  if (ts->stopped_clear != region) {
    for (uint32_t depth = ts->depth; depth > 0; --depth)
      if (frame_region(ts->stack[depth]) == region) return;
    ts->stopped_clear = region;  // a stopped region opens no frame again
  }
  if (thread_states_created() == 1) patch_guard_call(ret, GuardKind::kExit);
}

// Unregistered (0), excluded (kExcludedId), throttled (kThrottledBit) or
// stopped (kStoppedBit too) descriptors: hcc_enter's one signed compare
// catches all four. A stopped region's enter records nothing and rewrites
// the guard call that brought it here into a nop (site_patch.hpp).
__attribute__((noinline)) void enter_rare(hcc_region_desc *d, uint32_t region, uintptr_t ret) {
  if (region == kExcludedId) return;
  if (HCC_UNLIKELY(is_stopped_value(region))) {
    patch_guard_call(ret, GuardKind::kEnter);
    return;
  }
  if (region != 0) return throttled_enter(d, region);
  enter_general(d);
}

}  // namespace
}  // namespace hcc::rt

using namespace hcc::rt;

HCC_API void hcc_enter(hcc_region_desc *d) {
  uint32_t region = __atomic_load_n(&d->id, __ATOMIC_ACQUIRE);
  // 0: first use; kExcludedId (~0): filtered; kThrottledBit set: throttled.
  // One compare: all three are <= 0 as an int32_t.
  // The return address: the guards and trampolines only tail-jump, so it is
  // the instrumented function's, whose call a stopped region rewrites.
  if (HCC_UNLIKELY(int32_t(region) <= 0)) return enter_rare(d, region, uintptr_t(__builtin_return_address(0)));
  ThreadState *ts = t_state;
  if (HCC_UNLIKELY(!ts)) return enter_general(d);
  uint32_t depth = ts->depth;
  // depth >= fast_limit: array full, depth cut, no TSC, per-event services, paused.
  if (HCC_UNLIKELY(depth >= ts->fast_limit)) return enter_beyond_limit(ts, d, region, depth);
  // The node entered right after the previous event last time (cfg.hpp): the
  // child when it has this region and the current node as parent.
  Succ *s = ts->succ;
  Node *child = s->next;
  Frame *top = ts->stack + depth;
  if (HCC_UNLIKELY(child->region != region)) return enter_general(d);
  if (HCC_UNLIKELY(child->parent != top->node)) return enter_general(d);
  ++s->pending;  // control flow: the predecessor count of (previous node -> child), in the slot (cfg.hpp)
  ts->succ = &child->after_enter;
  ++child->visits;
  top[1].node = child;
  ts->depth = depth + 1;
  // Read last, so the work above is not charged to the callee.
  top[1].start = fast_clock();
}

HCC_API void hcc_exit(hcc_region_desc *d) {
  // Filtered or throttled (both negative as an int32_t): one load, one
  // branch, no clock read here.
  uint32_t region = __atomic_load_n(&d->id, __ATOMIC_RELAXED);
  if (HCC_UNLIKELY(int32_t(region) < 0)) return exit_rare(d, region, uintptr_t(__builtin_return_address(0)));
  ThreadState *ts = t_state;
  if (HCC_UNLIKELY(!ts)) return;
  // Recursion mode, no TSC, a per-event service (event_services.hpp), paused:
  // all close the enter's fast path (fast_limit 0), and the exit's too,
  // before the clock is read, so that recursion mode may leave it unread.
  if (HCC_UNLIKELY(ts->fast_limit == 0)) return exit_in_mode(ts, d, region);
  const uint64_t t = fast_clock();  // before the stack is read: that work is the caller's
  const uint32_t depth = ts->depth;
  Frame *top = ts->stack + depth;
  Node *n = top->node;
  // The root sentinel (depth 0), the depth-cut node and an unregistered
  // descriptor (0) never match, so this one compare also catches those cases
  // (a proxy is never on top here: recursion mode keeps fast_limit 0).
  if (HCC_UNLIKELY(n->region != region)) return exit_repair(ts, d, region, t);
  n->incl += t - top->start;
  ts->succ = &n->after_exit;  // control flow (cfg.hpp): the next sibling is looked up here
  ts->depth = depth - 1;
}
