// pomp — handle registration (see regions.hpp). Cold: once per construct.
#include "regions.hpp"

#include <pthread.h>

#include <cstring>
#include <string>

#include "ctc.hpp"

namespace hcc::pomp {

namespace {

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

// Names as Score-P writes them ("!$omp parallel @app.c:12"): users of
// CubeGUI know them, and the reports group by role, not by name.
const char *keep(const std::string &s) { return strdup(s.c_str()); }  // lives for the run

void fill(hcc_region_desc &d, const std::string &name, const Ctc &c, int line, int end, int kind) {
  d.name = keep(name);
  d.mangled = nullptr;
  d.file = keep(c.file);
  d.begin_line = line;
  d.end_line = end;
  d.kind = kind;
  d.id = 0;
}

struct TypeInfo {
  const char *type;
  int kind;
  int sblock_kind;  // 0: none
  bool ibarrier;
};

const TypeInfo kTypes[] = {
    {"parallel", HCC_KIND_OMP_PARALLEL, 0, true},
    {"for", HCC_KIND_OMP_LOOP, 0, true},
    {"do", HCC_KIND_OMP_LOOP, 0, true},
    {"sections", HCC_KIND_OMP_SECTIONS, HCC_KIND_OMP_SECTION, true},
    {"single", HCC_KIND_OMP_SINGLE, HCC_KIND_OMP_SINGLE_SBLOCK, true},
    {"master", HCC_KIND_OMP_MASTER, 0, false},
    {"critical", HCC_KIND_OMP_CRITICAL, HCC_KIND_OMP_CRITICAL_SBLOCK, false},
    {"atomic", HCC_KIND_OMP_ATOMIC, 0, false},
    {"barrier", HCC_KIND_OMP_BARRIER, 0, false},
    {"flush", HCC_KIND_OMP_FLUSH, 0, false},
    {"ordered", HCC_KIND_OMP_ORDERED, HCC_KIND_OMP_ORDERED_SBLOCK, false},
    {"task", HCC_KIND_OMP_TASK, 0, false},
    {"untied_task", HCC_KIND_OMP_TASK, 0, false},
    {"taskwait", HCC_KIND_OMP_TASKWAIT, 0, false},
    {"taskgroup", HCC_KIND_OMP_TASKGROUP, 0, false},
    // No kind of its own: a taskloop is tasks plus an implicit taskgroup
    // (its name, "!$omp taskloop @…", tells them apart).
    {"taskloop", HCC_KIND_OMP_TASKGROUP, 0, false},
    {"workshare", HCC_KIND_OMP_WORKSHARE, 0, true},
    // OpenMP 5.x: the `loop` construct is a loop (role loop); `scope` is a
    // worksharing construct with an implicit barrier and no role of its
    // own in CUBE, so it is filed as a workshare. Other 5.x constructs
    // (unroll, tile, error, nothing) get the default below: role function,
    // paradigm openmp, named "!$omp unroll @file:line".
    {"loop", HCC_KIND_OMP_LOOP, 0, true},
    {"scope", HCC_KIND_OMP_WORKSHARE, 0, true},
};

PompRegion *make(const char *ctc_text) {
  Ctc c = parse_ctc(ctc_text);
  TypeInfo t = {"user", HCC_KIND_OPENMP, 0, false};
  for (const TypeInfo &k : kTypes)
    if (c.type == k.type) t = k;
  // The name carries the file's base name, as lambdas' names do ("lambda at
  // app.cpp:12"): one spelling in every view. The region's file field keeps
  // the path as the compiler was given it.
  const std::size_t slash = c.file.rfind('/');
  const std::string base = slash == std::string::npos ? c.file : c.file.substr(slash + 1);
  std::string where = " @" + base + ":" + std::to_string(c.begin_line);
  std::string what = c.type;
  if (t.kind == HCC_KIND_OMP_CRITICAL && !c.critical_name.empty())
    what += " (" + c.critical_name + ")";
  auto *r = new PompRegion();
  std::memset(static_cast<void *>(r), 0, sizeof *r);
  fill(r->main, "!$omp " + what + where, c, c.begin_line, c.end_line, t.kind);
  const char *sb = t.kind == HCC_KIND_OMP_SECTIONS ? " section" : " sblock";
  fill(r->sblock, "!$omp " + what + sb + where, c, c.begin_line, c.end_line,
       t.sblock_kind ? t.sblock_kind : t.kind);
  fill(r->ibarrier, "!$omp implicit barrier" + where, c, c.end_line, c.end_line,
       HCC_KIND_OMP_IMPLICIT_BARRIER);
  fill(r->create, "!$omp create task" + where, c, c.begin_line, c.end_line,
       HCC_KIND_OMP_TASK_CREATE);
  return r;
}

}  // namespace

PompRegion *region_of(void **h, const char *ctc) {
  if (!h) return nullptr;
  PompRegion *r = registered(h);
  if (r) return r;
  pthread_mutex_lock(&g_lock);
  r = static_cast<PompRegion *>(*h);
  if (!r) {
    r = make(ctc);
    __atomic_store_n(h, static_cast<void *>(r), __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&g_lock);
  return r;
}

}  // namespace hcc::pomp
