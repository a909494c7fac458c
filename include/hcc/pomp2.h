/* hcc — the POMP2 measurement interface (as OPARI2 2.0 defines it), as
 * libhcc implements it (pomp/). The instrumentor writes calls of these
 * around OpenMP constructs; a handle is a `void*` the runtime fills on first
 * use from the construct's context string (CTC), so no init file is needed.
 *
 * hcc extension: hcc_pomp_parallel_begin(h, team) takes the team token that
 * POMP2_Parallel_fork stored into its `old_task` argument (the instrumentor
 * passes it into the region with firstprivate), so nested and concurrent
 * forks of one construct still find their own master. */
#ifndef HCC_POMP2_H
#define HCC_POMP2_H

#include "detail/int_types.h"

/* Empty unless hcc's prelude binds the calls itself (detail/bind.h). */
#ifndef HCC_BIND_
#define HCC_BIND_(name)
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef void *POMP2_Region_handle;
typedef HCC_I64_ POMP2_Task_handle;

void POMP2_Parallel_fork(POMP2_Region_handle *h, int if_clause, int num_threads,
                         POMP2_Task_handle *old_task, const char ctc[])
    HCC_BIND_(POMP2_Parallel_fork);
void POMP2_Parallel_begin(POMP2_Region_handle *h) HCC_BIND_(POMP2_Parallel_begin);
void hcc_pomp_parallel_begin(POMP2_Region_handle *h, POMP2_Task_handle team)
    HCC_BIND_(hcc_pomp_parallel_begin);
void POMP2_Parallel_end(POMP2_Region_handle *h) HCC_BIND_(POMP2_Parallel_end);
void POMP2_Parallel_join(POMP2_Region_handle *h, POMP2_Task_handle old_task)
    HCC_BIND_(POMP2_Parallel_join);

void POMP2_For_enter(POMP2_Region_handle *h, const char ctc[]) HCC_BIND_(POMP2_For_enter);
void POMP2_For_exit(POMP2_Region_handle *h) HCC_BIND_(POMP2_For_exit);
void POMP2_Workshare_enter(POMP2_Region_handle *h, const char ctc[])
    HCC_BIND_(POMP2_Workshare_enter);
void POMP2_Workshare_exit(POMP2_Region_handle *h) HCC_BIND_(POMP2_Workshare_exit);
void POMP2_Sections_enter(POMP2_Region_handle *h, const char ctc[]) HCC_BIND_(POMP2_Sections_enter);
void POMP2_Sections_exit(POMP2_Region_handle *h) HCC_BIND_(POMP2_Sections_exit);
void POMP2_Section_begin(POMP2_Region_handle *h, const char ctc[]) HCC_BIND_(POMP2_Section_begin);
void POMP2_Section_end(POMP2_Region_handle *h) HCC_BIND_(POMP2_Section_end);
void POMP2_Single_enter(POMP2_Region_handle *h, const char ctc[]) HCC_BIND_(POMP2_Single_enter);
void POMP2_Single_exit(POMP2_Region_handle *h) HCC_BIND_(POMP2_Single_exit);
void POMP2_Single_begin(POMP2_Region_handle *h) HCC_BIND_(POMP2_Single_begin);
void POMP2_Single_end(POMP2_Region_handle *h) HCC_BIND_(POMP2_Single_end);
void POMP2_Master_begin(POMP2_Region_handle *h, const char ctc[]) HCC_BIND_(POMP2_Master_begin);
void POMP2_Master_end(POMP2_Region_handle *h) HCC_BIND_(POMP2_Master_end);
void POMP2_Critical_enter(POMP2_Region_handle *h, const char ctc[]) HCC_BIND_(POMP2_Critical_enter);
void POMP2_Critical_exit(POMP2_Region_handle *h) HCC_BIND_(POMP2_Critical_exit);
void POMP2_Critical_begin(POMP2_Region_handle *h) HCC_BIND_(POMP2_Critical_begin);
void POMP2_Critical_end(POMP2_Region_handle *h) HCC_BIND_(POMP2_Critical_end);
void POMP2_Ordered_enter(POMP2_Region_handle *h, const char ctc[]) HCC_BIND_(POMP2_Ordered_enter);
void POMP2_Ordered_exit(POMP2_Region_handle *h) HCC_BIND_(POMP2_Ordered_exit);
void POMP2_Ordered_begin(POMP2_Region_handle *h) HCC_BIND_(POMP2_Ordered_begin);
void POMP2_Ordered_end(POMP2_Region_handle *h) HCC_BIND_(POMP2_Ordered_end);
void POMP2_Atomic_enter(POMP2_Region_handle *h, const char ctc[]) HCC_BIND_(POMP2_Atomic_enter);
void POMP2_Atomic_exit(POMP2_Region_handle *h) HCC_BIND_(POMP2_Atomic_exit);
void POMP2_Flush_enter(POMP2_Region_handle *h, const char ctc[]) HCC_BIND_(POMP2_Flush_enter);
void POMP2_Flush_exit(POMP2_Region_handle *h) HCC_BIND_(POMP2_Flush_exit);
void POMP2_Barrier_enter(POMP2_Region_handle *h, POMP2_Task_handle *old_task, const char ctc[])
    HCC_BIND_(POMP2_Barrier_enter);
void POMP2_Barrier_exit(POMP2_Region_handle *h, POMP2_Task_handle old_task)
    HCC_BIND_(POMP2_Barrier_exit);
void POMP2_Implicit_barrier_enter(POMP2_Region_handle *h, POMP2_Task_handle *old_task)
    HCC_BIND_(POMP2_Implicit_barrier_enter);
void POMP2_Implicit_barrier_exit(POMP2_Region_handle *h, POMP2_Task_handle old_task)
    HCC_BIND_(POMP2_Implicit_barrier_exit);
void POMP2_Taskwait_begin(POMP2_Region_handle *h, POMP2_Task_handle *old_task, const char ctc[])
    HCC_BIND_(POMP2_Taskwait_begin);
void POMP2_Taskwait_end(POMP2_Region_handle *h, POMP2_Task_handle old_task)
    HCC_BIND_(POMP2_Taskwait_end);
void POMP2_Task_create_begin(POMP2_Region_handle *h, POMP2_Task_handle *new_task,
                             POMP2_Task_handle *old_task, int if_clause, const char ctc[])
    HCC_BIND_(POMP2_Task_create_begin);
void POMP2_Task_create_end(POMP2_Region_handle *h, POMP2_Task_handle old_task)
    HCC_BIND_(POMP2_Task_create_end);
void POMP2_Task_begin(POMP2_Region_handle *h, POMP2_Task_handle task) HCC_BIND_(POMP2_Task_begin);
void POMP2_Task_end(POMP2_Region_handle *h) HCC_BIND_(POMP2_Task_end);
/* taskgroup, and taskloop (ctc regionType=taskloop; POMP2 has no taskloop
 * event): begin before the construct, end after it, waits included. */
void POMP2_Taskgroup_begin(POMP2_Region_handle *h, const char ctc[])
    HCC_BIND_(POMP2_Taskgroup_begin);
void POMP2_Taskgroup_end(POMP2_Region_handle *h) HCC_BIND_(POMP2_Taskgroup_end);
/* hcc extension for OpenMP 5.x constructs POMP2 has no events for (scope,
 * unroll, tile, error, nothing …): one region on the encountering thread
 * around the construct; its kind comes from the ctc's regionType. */
void hcc_pomp_construct_enter(POMP2_Region_handle *h, const char ctc[]) HCC_BIND_(hcc_pomp_construct_enter);
void hcc_pomp_construct_exit(POMP2_Region_handle *h) HCC_BIND_(hcc_pomp_construct_exit);
void POMP2_Untied_task_create_begin(POMP2_Region_handle *h, POMP2_Task_handle *new_task,
                                    POMP2_Task_handle *old_task, int if_clause, const char ctc[])
    HCC_BIND_(POMP2_Untied_task_create_begin);
void POMP2_Untied_task_create_end(POMP2_Region_handle *h, POMP2_Task_handle old_task)
    HCC_BIND_(POMP2_Untied_task_create_end);
void POMP2_Untied_task_begin(POMP2_Region_handle *h, POMP2_Task_handle task)
    HCC_BIND_(POMP2_Untied_task_begin);
void POMP2_Untied_task_end(POMP2_Region_handle *h) HCC_BIND_(POMP2_Untied_task_end);

/* Lock wrappers: `lock` is an omp_lock_t* / omp_nest_lock_t*; the real
 * omp_* function is looked up in the program's OpenMP runtime. */
void POMP2_Init_lock(void *lock) HCC_BIND_(POMP2_Init_lock);
void POMP2_Destroy_lock(void *lock) HCC_BIND_(POMP2_Destroy_lock);
void POMP2_Set_lock(void *lock) HCC_BIND_(POMP2_Set_lock);
void POMP2_Unset_lock(void *lock) HCC_BIND_(POMP2_Unset_lock);
int POMP2_Test_lock(void *lock) HCC_BIND_(POMP2_Test_lock);
void POMP2_Init_nest_lock(void *lock) HCC_BIND_(POMP2_Init_nest_lock);
void POMP2_Destroy_nest_lock(void *lock) HCC_BIND_(POMP2_Destroy_nest_lock);
void POMP2_Set_nest_lock(void *lock) HCC_BIND_(POMP2_Set_nest_lock);
void POMP2_Unset_nest_lock(void *lock) HCC_BIND_(POMP2_Unset_nest_lock);
int POMP2_Test_nest_lock(void *lock) HCC_BIND_(POMP2_Test_nest_lock);

#ifdef __cplusplus
}
#endif

/* Under hcc's prelude, this object's trampolines for the calls above. */
#include "detail/bind_openmp.h"

#endif /* HCC_POMP2_H */
