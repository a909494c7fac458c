// hcc runtime — entry points for services in other libraries (service.hpp).
#include "service.hpp"

#include <cstring>

#include "lifecycle.hpp"
#include "gmon_out.hpp"
#include "metrics.hpp"
#include "output.hpp"
#include "profile_builder.hpp"
#include "thread_state.hpp"

#define HCC_API extern "C" __attribute__((visibility("default")))

using namespace hcc::rt;

HCC_API int hcc_svc_register_counter(const char *uniq_name, const char *disp_name, const char *uom,
                                     const char *descr) {
  ExtraMetric m;
  m.def.uniq_name = uniq_name;
  m.def.disp_name = disp_name;
  m.def.uom = uom;
  m.def.descr = descr;
  m.def.dtype = hcc::profile::DType::UInt64;
  m.def.cube_type = hcc::profile::CubeType::Exclusive;
  m.inclusive_counts = false;  // added where it happens: already exclusive
  return register_extra_metric(m);
}

HCC_API void hcc_svc_count(uint32_t k, uint64_t amount) {
  ThreadState *ts = t_state;
  // depth 0: only the root sentinel, which has no counters.
  if (!ts || ts->depth == 0 || k >= ts->cct.n_extra) return;
  // Only this thread writes its nodes; the builder reads them at the end.
  ts->stack[ts->depth].node->extra()[k] += amount;
}

HCC_API void hcc_svc_init(void) { runtime_init_once(); }

HCC_API int hcc_svc_claim_finalize(void) { return claim_finalize() ? 1 : 0; }

HCC_API void hcc_svc_claimed_finalize_done(void) { finalize_claim_done(); }

HCC_API void hcc_svc_linger_after_sigterm(int milliseconds) { set_sigterm_linger(milliseconds); }

HCC_API void hcc_svc_set_own_file_attr(const char *key, const char *value) {
  if (key) set_own_file_attr(key, value ? value : "");
}

HCC_API void hcc_svc_finalize_local(void) { finalize(); }

HCC_API void hcc_svc_build_local_profile(hcc::profile::Profile *out) {
  *out = build_local_profile();
  write_gmon_if_requested(*out);  // HCC_GPROF=1: each MPI rank its own gmon.out.rank-<r>
}

HCC_API int hcc_svc_write_profile(const hcc::profile::Profile *p) { return write_profile(*p).empty() ? 0 : 1; }

HCC_API int hcc_svc_write_profile_streamed(hcc_svc_stream_body body, void *ctx) {
  return write_profile_streamed([&](int fd, const std::string &shown, hcc::profile::Profile &text) {
           return body(fd, shown.c_str(), ctx, &text) == 0;
         }).empty()
             ? 0
             : 1;
}

HCC_API void hcc_svc_set_file_tag(const char *tag) { set_file_tag(tag ? tag : ""); }

HCC_API size_t hcc_svc_prepare_output_dir(char *buf, size_t size) {
  std::string error;
  std::string dir = prepare_output_dir(&error);
  if (dir.empty() || dir.size() + 1 > size) return 0;
  std::memcpy(buf, dir.c_str(), dir.size() + 1);
  return dir.size();
}

HCC_API void hcc_svc_use_output_dir(const char *dir) { use_output_dir(dir); }
