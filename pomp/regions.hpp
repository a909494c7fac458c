// pomp — one construct's regions, made from its POMP2 handle and CTC.
//
// A handle (`void*`, zero at first) points, once registered, at a
// PompRegion that lives for the whole run. It holds the descriptors the
// construct's events enter: the construct itself, its body (critical,
// single, ordered, section: "sblock") and its implicit barrier, each an
// ordinary hcc region of an OpenMP kind, so the CCT, merge, CUBE writer and
// reports need nothing new to carry them.
#pragma once

#include "hcc/region.h"

namespace hcc::pomp {

struct PompRegion {
  hcc_region_desc main;      // the construct (role parallel, loop, critical ...)
  hcc_region_desc sblock;    // its body, where it has one
  hcc_region_desc ibarrier;  // its implicit barrier, where it has one
  hcc_region_desc create;    // task creation (tasks only)
  void *last_team;           // POMP2_Parallel_begin without a team token
};

// The region behind `*h`, registered from `ctc` on first use (thread-safe).
// nullptr for a null handle.
PompRegion *region_of(void **h, const char *ctc);

// The region behind `*h` if registered (events without a CTC).
inline PompRegion *registered(void **h) {
  return h ? static_cast<PompRegion *>(__atomic_load_n(h, __ATOMIC_ACQUIRE)) : nullptr;
}

}  // namespace hcc::pomp
