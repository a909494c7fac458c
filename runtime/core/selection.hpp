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

#include "registry.hpp"

namespace hcc::rt {

struct ThreadState;

// The descriptor value of a region that is not recorded (filtered or
// throttled). Equal to kNoRegion, the root sentinel's region, which no
// descriptor ever holds otherwise; hcc_exit tests for it before anything.
constexpr uint32_t kExcludedId = 0xFFFFFFFFu;
// The region of the marker frame hcc_pause pushes (never a descriptor value).
constexpr uint32_t kPauseRegion = 0xFFFFFFFEu;

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

// General-path pieces (hooks.cpp). Only called when g_selective.
void throttle_account(ThreadState *ts, uint32_t region, uint64_t ticks) __attribute__((noinline, cold));
void selection_resync(ThreadState *ts) __attribute__((noinline, cold));
uint32_t *selection_saved_slot(ThreadState *ts, uint32_t depth);

// hcc_pause's marker frame: pops it (an exit reached it) and resumes.
void pause_drop(ThreadState *ts, uint64_t t) __attribute__((noinline, cold));

}  // namespace hcc::rt
