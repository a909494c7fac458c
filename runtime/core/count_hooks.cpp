// hcc runtime — hcc_count_enter / hcc_count_exit / hcc_count_visit: count
// mode's lane.
//
// A counted region (COUNT in a filter file, --hcc-functions=count:…) keeps
// its frame on the shadow stack and its node in the call tree, so its
// visits are exact per call path and its callees hang below it, but its
// hooks read no clock: a pair costs the timed pair minus its two rdtsc.
// Its time is its caller's: the profile builder gives a counted node the
// inclusive time of its children and no exclusive time of its own
// (profile_builder.cpp, count_inclusive), whatever its node's `incl` holds,
// so these hooks never write `incl` or the frame's `start`.
//
// The fast paths are hcc_enter's and hcc_exit's without the clock and
// without the time accumulation (hooks.cpp explains each step). Everything
// else — first use of a region (registered as counted here), the thread's
// first event, a successor-slot miss, recursion mode, a per-event service,
// pause, the depth cut, an exit repair — is handed to hcc_enter / hcc_exit
// by a tail call: they handle the frame like any other (reading the clock,
// which the builder then ignores for this node). So nothing here duplicates
// the general paths, and hooks.cpp is unchanged by count mode.
// Compiled like hooks.cpp: -O3, initial-exec TLS, no exceptions, no RTTI.
#include "hcc/region.h"
#include "registry.hpp"
#include "selection.hpp"
#include "event_services.hpp"
#include "hooks.hpp"
#include "thread_state.hpp"

#define HCC_API extern "C" __attribute__((visibility("default")))
#define HCC_UNLIKELY(x) __builtin_expect(!!(x), 0)

namespace hcc::rt {
namespace {

// First use of the descriptor (registered as counted), a region excluded
// or throttled at run time: the timed hooks' paths (hcc_enter counts a
// throttled visit).
__attribute__((noinline)) void count_enter_rare(hcc_region_desc *d, uint32_t region) {
  if (region == kExcludedId) return;
  if (region == 0) {
    if (!t_state) thread_state_create();  // start-up first: the filter decides at registration
    if (register_region(d, /*counted=*/true) == kExcludedId) return;
  }
  hcc_enter(d);
}

// hcc_count_visit's every case but the common one: the pair it stands for,
// through the hooks that handle each case (first use, recursion mode, a
// per-event service, pause, the depth cut, a slot miss).
__attribute__((noinline)) void count_visit_general(hcc_region_desc *d) {
  hcc_count_enter(d);
  hcc_count_exit(d);
}

}  // namespace
}  // namespace hcc::rt

using namespace hcc::rt;

HCC_API void hcc_count_enter(hcc_region_desc *d) {
  uint32_t region = __atomic_load_n(&d->id, __ATOMIC_ACQUIRE);
  if (HCC_UNLIKELY(int32_t(region) <= 0)) return count_enter_rare(d, region);
  ThreadState *ts = t_state;
  if (HCC_UNLIKELY(!ts) || !enter_unclocked(ts, region)) return hcc_enter(d);
}

HCC_API void hcc_count_exit(hcc_region_desc *d) {
  uint32_t region = __atomic_load_n(&d->id, __ATOMIC_RELAXED);
  if (HCC_UNLIKELY(int32_t(region) < 0)) return hcc_exit(d);  // excluded or throttled: hcc_exit sorts them
  ThreadState *ts = t_state;
  if (HCC_UNLIKELY(!ts)) return;
  if (!exit_unclocked(ts, region)) return hcc_exit(d);
}

// A counted function that calls nothing (the instrumentor writes
// HCC_COUNT_VISIT_ for it: no call, no constructor or destructor that could
// run code, so no event can happen between its enter and its exit): the
// enter and the exit as one event, one call instead of two. The same
// counts as hcc_count_enter + hcc_count_exit: the visit, the predecessor
// count in the slot, and the thread's slot moved to the node's after-exit
// slot (cfg.hpp). No frame is pushed: a sample landing in the function
// counts on its caller's node, as its time does.
HCC_API void hcc_count_visit(hcc_region_desc *d) {
  uint32_t region = __atomic_load_n(&d->id, __ATOMIC_ACQUIRE);
  ThreadState *ts = t_state;
  // Unregistered (0) or excluded (~0), the thread's first event: the pair.
  if (HCC_UNLIKELY(int32_t(region) <= 0 || !ts)) return count_visit_general(d);
  uint32_t depth = ts->depth;
  if (HCC_UNLIKELY(depth >= ts->fast_limit)) return count_visit_general(d);
  Succ *s = ts->succ;
  Node *child = s->next;
  if (HCC_UNLIKELY(child->region != region)) return count_visit_general(d);
  if (HCC_UNLIKELY(child->parent != ts->stack[depth].node)) return count_visit_general(d);
  ++s->pending;
  ++child->visits;
  ts->succ = &child->after_exit;
}
