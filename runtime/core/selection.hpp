// hcc runtime — selective measurement: run-time filters (HCC_FILTER,
// HCC_INCLUDE, HCC_EXCLUDE), subtree selection (HCC_SELECT, HCC_PRUNE),
// throttling (HCC_THROTTLE), hcc_pause/hcc_resume, and the calibrated cost of
// one enter/exit pair (for hcc-report --suggest-filter).
//
// Costs: a region a filter excludes is decided once, when its descriptor is
// registered: the descriptor's id becomes kExcludedId, which hcc_enter's
// first compare and hcc_exit's first test send to a return. Nothing else
// changes on the fast path. Select, prune and throttle need per-event
// decisions; they register as an event service that asks for every event
// (g_fast_events false), so they cost only when asked for.
#pragma once

#include <cstdint>
#include <string>

#include "registry.hpp"

namespace hcc::rt {

struct ThreadState;

// The descriptor value of a region that is not recorded (filtered or
// throttled). Equal to kNoRegion, the root sentinel's region, which no
// descriptor ever holds otherwise; hcc_exit tests for it before anything.
constexpr uint32_t kExcludedId = 0xFFFFFFFFu;
// The region of the marker frame hcc_pause pushes (never a descriptor value).
constexpr uint32_t kPauseRegion = 0xFFFFFFFEu;
// A throttled region's descriptors hold its id with this bit set: negative
// as an int32_t, like kExcludedId, so hcc_enter's one signed compare sends
// both (and unregistered 0) to its rare path, where a throttled enter pushes
// its frame without a clock (hooks.cpp, throttled_enter), and hcc_exit's one
// sign test sends both to exit_rare, which pops it without one. Region ids
// stay below 2^31.
constexpr uint32_t kThrottledBit = 0x80000000u;
// A throttled region whose count stopped (auto_throttle.cpp) holds
// id | kThrottledBit | kStoppedBit: still negative, so the same compares
// send it to the rare paths, which record nothing and rewrite the guard call
// that brought them there into a nop (site_patch.hpp). Only regions with ids
// below kStoppedBit are stopped (kExcludedId has the bit too: tested first).
constexpr uint32_t kStoppedBit = 0x40000000u;
// Whether descriptor value `v` is a stopped region's (not kExcludedId).
inline bool is_stopped_value(uint32_t v) {
  return v != kExcludedId && (v & (kThrottledBit | kStoppedBit)) == (kThrottledBit | kStoppedBit);
}

enum : uint8_t { kFlagSelect = 1, kFlagPrune = 2, kFlagThrottled = 4 };

// True when HCC_SELECT, HCC_PRUNE or HCC_THROTTLE is set (general paths).
extern bool g_selective;
extern bool g_select_active;  // HCC_SELECT given
extern bool g_throttle;       // HCC_THROTTLE given

// Registry side, called with the registry lock held.
bool selection_excludes(const RegionInfo &info);
// A run-time filter's COUNT rule names the region (count mode, registry.hpp).
bool selection_counts(const RegionInfo &info);
void selection_set_flags(uint32_t id, const RegionInfo &info);
uint8_t region_flags(uint32_t id);

// The cost of one enter/exit pair (ns; `inside` the part an empty region
// shows as its own time, -1 when not measured) and of a counted pair,
// measured on a scratch thread state of the calling thread. ok is false
// while a per-event service runs (the pair is not the fast paths' then).
struct PairCost {
  bool ok = false;
  double timed = 0, inside = -1, counted = 0;
  double throttled = 0;  // the enter and exit of a throttled region (its visit counted)
};
PairCost measure_pair_cost() __attribute__((noinline, cold));

// A region was throttled after `timed_calls` visits: "name evidence" joins
// the attribute hcc.throttled (summary.txt lists it) and "timed_calls name"
// hcc.throttled_calls ("; " between regions: hcc-report's plans price their
// visits with it).
void record_throttled(const std::string &name, uint64_t timed_calls, const std::string &evidence);
// A throttled region's count stopped: `line` ("name (count stopped at N
// visits: ...)") joins the attribute hcc.count_stopped (summary.txt lists it).
void record_count_stopped(const std::string &line);

// General-path pieces (hooks.cpp). Only called when g_selective.
void throttle_account(ThreadState *ts, uint32_t region, uint64_t ticks) __attribute__((noinline, cold));
void selection_resync(ThreadState *ts) __attribute__((noinline, cold));
uint32_t *selection_saved_slot(ThreadState *ts, uint32_t depth);

// hcc_pause's marker frame: pops it (an exit reached it) and resumes.
void pause_drop(ThreadState *ts, uint64_t t) __attribute__((noinline, cold));

}  // namespace hcc::rt
