// pomp — every POMP2 event but fork/join/begin/end of parallel regions and
// locks. Each is an enter or exit of one of the construct's hcc regions
// (regions.hpp); the CCT then holds what ompP's tables need: a construct's
// time and visits, its body's (sblock) and its implicit barrier's time.
#include "hcc/pomp2.h"
#include "hcc/region.h"
#include "regions.hpp"

#define POMP_API extern "C" __attribute__((visibility("default")))

using hcc::pomp::PompRegion;
using hcc::pomp::region_of;
using hcc::pomp::registered;

namespace {

inline void enter_main(POMP2_Region_handle *h, const char *ctc) {
  if (PompRegion *r = region_of(h, ctc)) hcc_enter(&r->main);
}
inline void exit_main(POMP2_Region_handle *h) {
  if (PompRegion *r = registered(h)) hcc_exit(&r->main);
}
inline void enter_sblock(POMP2_Region_handle *h) {
  if (PompRegion *r = registered(h)) hcc_enter(&r->sblock);
}
inline void exit_sblock(POMP2_Region_handle *h) {
  if (PompRegion *r = registered(h)) hcc_exit(&r->sblock);
}

}  // namespace

POMP_API void POMP2_For_enter(POMP2_Region_handle *h, const char ctc[]) { enter_main(h, ctc); }
POMP_API void POMP2_For_exit(POMP2_Region_handle *h) { exit_main(h); }
// OpenMP 5.x constructs without a POMP2 event (hcc extension, pomp2.h).
POMP_API void hcc_pomp_construct_enter(POMP2_Region_handle *h, const char ctc[]) { enter_main(h, ctc); }
POMP_API void hcc_pomp_construct_exit(POMP2_Region_handle *h) { exit_main(h); }
POMP_API void POMP2_Workshare_enter(POMP2_Region_handle *h, const char ctc[]) { enter_main(h, ctc); }
POMP_API void POMP2_Workshare_exit(POMP2_Region_handle *h) { exit_main(h); }
POMP_API void POMP2_Sections_enter(POMP2_Region_handle *h, const char ctc[]) { enter_main(h, ctc); }
POMP_API void POMP2_Sections_exit(POMP2_Region_handle *h) { exit_main(h); }
// A section's handle is its `sections` construct's: the body is its sblock.
POMP_API void POMP2_Section_begin(POMP2_Region_handle *h, const char *) { enter_sblock(h); }
POMP_API void POMP2_Section_end(POMP2_Region_handle *h) { exit_sblock(h); }
POMP_API void POMP2_Single_enter(POMP2_Region_handle *h, const char ctc[]) { enter_main(h, ctc); }
POMP_API void POMP2_Single_exit(POMP2_Region_handle *h) { exit_main(h); }
POMP_API void POMP2_Single_begin(POMP2_Region_handle *h) { enter_sblock(h); }
POMP_API void POMP2_Single_end(POMP2_Region_handle *h) { exit_sblock(h); }
POMP_API void POMP2_Master_begin(POMP2_Region_handle *h, const char ctc[]) { enter_main(h, ctc); }
POMP_API void POMP2_Master_end(POMP2_Region_handle *h) { exit_main(h); }
// enter … begin: waiting for the lock; begin … end: the body.
POMP_API void POMP2_Critical_enter(POMP2_Region_handle *h, const char ctc[]) { enter_main(h, ctc); }
POMP_API void POMP2_Critical_exit(POMP2_Region_handle *h) { exit_main(h); }
POMP_API void POMP2_Critical_begin(POMP2_Region_handle *h) { enter_sblock(h); }
POMP_API void POMP2_Critical_end(POMP2_Region_handle *h) { exit_sblock(h); }
POMP_API void POMP2_Ordered_enter(POMP2_Region_handle *h, const char ctc[]) { enter_main(h, ctc); }
POMP_API void POMP2_Ordered_exit(POMP2_Region_handle *h) { exit_main(h); }
POMP_API void POMP2_Ordered_begin(POMP2_Region_handle *h) { enter_sblock(h); }
POMP_API void POMP2_Ordered_end(POMP2_Region_handle *h) { exit_sblock(h); }
POMP_API void POMP2_Atomic_enter(POMP2_Region_handle *h, const char ctc[]) { enter_main(h, ctc); }
POMP_API void POMP2_Atomic_exit(POMP2_Region_handle *h) { exit_main(h); }
POMP_API void POMP2_Flush_enter(POMP2_Region_handle *h, const char ctc[]) { enter_main(h, ctc); }
POMP_API void POMP2_Flush_exit(POMP2_Region_handle *h) { exit_main(h); }

POMP_API void POMP2_Barrier_enter(POMP2_Region_handle *h, POMP2_Task_handle *old_task,
                                  const char ctc[]) {
  if (old_task) *old_task = 0;
  enter_main(h, ctc);
}
POMP_API void POMP2_Barrier_exit(POMP2_Region_handle *h, POMP2_Task_handle) { exit_main(h); }
// The barrier the instrumentor makes explicit at the end of a worksharing
// construct or parallel region: waiting time there is load imbalance.
POMP_API void POMP2_Implicit_barrier_enter(POMP2_Region_handle *h, POMP2_Task_handle *old_task) {
  if (old_task) *old_task = 0;
  if (PompRegion *r = registered(h)) hcc_enter(&r->ibarrier);
}
POMP_API void POMP2_Implicit_barrier_exit(POMP2_Region_handle *h, POMP2_Task_handle) {
  if (PompRegion *r = registered(h)) hcc_exit(&r->ibarrier);
}
POMP_API void POMP2_Taskwait_begin(POMP2_Region_handle *h, POMP2_Task_handle *old_task,
                                   const char ctc[]) {
  if (old_task) *old_task = 0;
  enter_main(h, ctc);
}
POMP_API void POMP2_Taskwait_end(POMP2_Region_handle *h, POMP2_Task_handle) { exit_main(h); }
// taskgroup and taskloop: one region on the encountering thread, from before
// the construct to after its end (where it waits for its tasks).
POMP_API void POMP2_Taskgroup_begin(POMP2_Region_handle *h, const char ctc[]) { enter_main(h, ctc); }
POMP_API void POMP2_Taskgroup_end(POMP2_Region_handle *h) { exit_main(h); }

// Tasks: creation is timed on the creating thread ("task create"), the body
// on the executing thread ("task"), each once: a task run at once inside its
// creation shows under "task create" with its own time, not added twice.
POMP_API void POMP2_Task_create_begin(POMP2_Region_handle *h, POMP2_Task_handle *new_task,
                                      POMP2_Task_handle *old_task, int, const char ctc[]) {
  if (new_task) *new_task = 0;
  if (old_task) *old_task = 0;
  if (PompRegion *r = region_of(h, ctc)) hcc_enter(&r->create);
}
POMP_API void POMP2_Task_create_end(POMP2_Region_handle *h, POMP2_Task_handle) {
  if (PompRegion *r = registered(h)) hcc_exit(&r->create);
}
POMP_API void POMP2_Task_begin(POMP2_Region_handle *h, POMP2_Task_handle) {
  if (PompRegion *r = registered(h)) hcc_enter(&r->main);
}
POMP_API void POMP2_Task_end(POMP2_Region_handle *h) { exit_main(h); }
POMP_API void POMP2_Untied_task_create_begin(POMP2_Region_handle *h, POMP2_Task_handle *n,
                                             POMP2_Task_handle *o, int i, const char ctc[]) {
  POMP2_Task_create_begin(h, n, o, i, ctc);
}
POMP_API void POMP2_Untied_task_create_end(POMP2_Region_handle *h, POMP2_Task_handle o) {
  POMP2_Task_create_end(h, o);
}
POMP_API void POMP2_Untied_task_begin(POMP2_Region_handle *h, POMP2_Task_handle t) {
  POMP2_Task_begin(h, t);
}
POMP_API void POMP2_Untied_task_end(POMP2_Region_handle *h) { POMP2_Task_end(h); }
