// pomp — parallel regions: fork/begin/end/join and the team record that
// carries the master's call path to the workers (runtime/core/adopt.hpp).
//
// Fork (master, before the team exists) captures the master's path into a
// team record and hands its address out as the `old_task` token; the
// instrumentor passes the token into the region (firstprivate), and begin
// on every other thread pushes that path as adopted base frames before
// entering the parallel region, so a worker's events sit under
// main → … → the parallel region exactly like the master's. Team records
// are per master thread, one per nesting level, reused: no allocation and
// no lock after the first fork at a level; freed when the thread ends.
#include <dlfcn.h>
#include <pthread.h>

#include <cstdint>

#include "core/adopt.hpp"
#include "core/registry.hpp"
#include "core/service.hpp"
#include "core/thread_state.hpp"
#include "hcc/pomp2.h"
#include "hcc/region.h"
#include "regions.hpp"

namespace hcc::pomp {

namespace {

using rt::CallPath;
using rt::ThreadState;

struct Team {
  CallPath path;
  ThreadState *master;
  bool outermost;  // forked by a thread that was in no parallel region
  // With sampling on, the frames between the innermost instrumented
  // function and the fork, pushed by the fork (sampled regions) and popped
  // by the join: in code nothing instrumented, the construct still hangs
  // below main → … (and the team adopts that path).
  static constexpr uint32_t kMaxPushed = 32;
  hcc_region_desc *pushed[kMaxPushed];
  uint32_t npushed;
};

// Location order (thread_state.hpp, claim_team_thread): the first thread to
// fork an outermost team is the primary master; the members of its outermost
// teams give their OpenMP thread numbers to their locations, each in the
// first such region it joins. Teams of other masters (std::threads that fork
// teams of their own) and nested teams claim nothing.
ThreadState *g_primary_master = nullptr;

// omp_get_thread_num of whichever OpenMP runtime the program uses (libgomp,
// libomp): the runtime itself is built without OpenMP. Null: no numbers.
int omp_thread_num() {
  using Fn = int (*)();
  static Fn fn = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, "omp_get_thread_num"));
  return fn ? fn() : -1;
}

constexpr int kLevels = 16;  // nested forks by one thread deeper than this are not adopted

struct Levels {
  Team *teams[kLevels];
  int forks;             // open forks of this thread (its teams)
  struct Open {
    uint32_t base;       // depth before begin
    bool adopted;        // base frames were pushed by begin
  } open[kLevels];
  int begins;            // open parallel regions this thread is a member of
};

__thread Levels *t_levels __attribute__((tls_model("initial-exec"))) = nullptr;

// A thread that ends gives its record and its teams back: libgomp ends the
// threads of nested teams, and each would otherwise leave ~270 bytes behind
// (found by LeakSanitizer, issue 18). Its teams are done with by then: a
// team is only read by its members' begin, inside the master's fork/join.
pthread_key_t g_levels_key;
pthread_once_t g_levels_once = PTHREAD_ONCE_INIT;

void free_levels(void *p) {
  Levels *l = static_cast<Levels *>(p);
  if (t_levels == l) t_levels = nullptr;
  for (Team *t : l->teams) delete t;
  delete l;
}

void make_levels_key() { pthread_key_create(&g_levels_key, free_levels); }

Levels &levels() {
  if (!t_levels) {  // once per thread
    t_levels = new Levels();
    pthread_once(&g_levels_once, make_levels_key);
    pthread_setspecific(g_levels_key, t_levels);
  }
  return *t_levels;
}

// The thread's innermost open frame is an OpenMP construct's.
bool in_construct(const ThreadState *ts) {
  if (ts->depth == 0) return false;
  const rt::Node *n = ts->stack[ts->depth].node;
  if (n->kind == rt::kProxy) n = n->link;  // recursion mode (fold.hpp)
  return rt::region_is_openmp(n->region);
}

void begin(PompRegion *r, Team *team) {
  ThreadState *ts = rt::current_thread_state();
  Levels &l = levels();
  Levels::Open o{ts->depth, false};
  // Once per thread, not per region: team_asked is set by the first claim.
  if (team && team->outermost && !ts->team_asked &&
      team->master == __atomic_load_n(&g_primary_master, __ATOMIC_ACQUIRE))
    rt::claim_team_thread(ts, omp_thread_num());
  if (team && team->master != ts) {
    o.base = rt::adopt_path(ts, team->path);
    o.adopted = true;
  }
  if (l.begins < kLevels) l.open[l.begins] = o;
  ++l.begins;
  hcc_enter(&r->main);
}

}  // namespace

}  // namespace hcc::pomp

using namespace hcc::pomp;

extern "C" __attribute__((visibility("default"))) void POMP2_Parallel_fork(
    POMP2_Region_handle *h, int, int, POMP2_Task_handle *old_task, const char ctc[]) {
  PompRegion *r = region_of(h, ctc);
  ThreadState *ts = hcc::rt::current_thread_state();
  Levels &l = levels();
  Team *team = nullptr;
  if (l.forks < kLevels) {
    if (!l.teams[l.forks]) l.teams[l.forks] = new Team();
    team = l.teams[l.forks];
    // Not below another construct (a nested fork): its path is the outer
    // team's, as without sampling.
    team->npushed = in_construct(ts) ? 0 : hcc_svc_push_caller_frames(team->pushed, Team::kMaxPushed);
    hcc::rt::capture_path(ts, team->path);
    team->master = ts;
    team->outermost = l.begins == 0;
    if (team->outermost) {
      ThreadState *none = nullptr;
      __atomic_compare_exchange_n(&g_primary_master, &none, ts, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
  }
  ++l.forks;
  if (r) __atomic_store_n(&r->last_team, static_cast<void *>(team), __ATOMIC_RELEASE);
  if (old_task) *old_task = static_cast<POMP2_Task_handle>(reinterpret_cast<intptr_t>(team));
}

extern "C" __attribute__((visibility("default"))) void hcc_pomp_parallel_begin(
    POMP2_Region_handle *h, POMP2_Task_handle team) {
  PompRegion *r = registered(h);
  if (!r) return;
  begin(r, reinterpret_cast<Team *>(static_cast<intptr_t>(team)));
}

// Plain POMP2: the team of the construct's latest fork (right unless two
// threads fork the same construct at once, e.g. a nested region).
extern "C" __attribute__((visibility("default"))) void POMP2_Parallel_begin(POMP2_Region_handle *h) {
  PompRegion *r = registered(h);
  if (!r) return;
  begin(r, static_cast<Team *>(__atomic_load_n(&r->last_team, __ATOMIC_ACQUIRE)));
}

extern "C" __attribute__((visibility("default"))) void POMP2_Parallel_end(POMP2_Region_handle *h) {
  PompRegion *r = registered(h);
  if (!r) return;
  hcc_exit(&r->main);
  Levels &l = levels();
  if (l.begins == 0) return;
  --l.begins;
  if (l.begins < kLevels && l.open[l.begins].adopted)
    hcc::rt::leave_adopted(hcc::rt::t_state, l.open[l.begins].base);
}

extern "C" __attribute__((visibility("default"))) void POMP2_Parallel_join(POMP2_Region_handle *,
                                                                          POMP2_Task_handle) {
  Levels &l = levels();
  if (l.forks == 0) return;
  --l.forks;
  if (l.forks < kLevels && l.teams[l.forks]) {
    Team *team = l.teams[l.forks];
    for (uint32_t i = team->npushed; i-- > 0;) hcc_exit(team->pushed[i]);
    team->npushed = 0;
  }
}
