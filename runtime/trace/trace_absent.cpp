// hcc tracer — stand-in when libhcc was built without the OTF2 headers
// (libotf2-trace-dev): HCC_TRACE=1 says so once and the run goes on
// untraced. Every process of a job runs the same libhcc, so in an MPI job
// no process writes and none waits for another.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/event_services.hpp"
#include "core/metrics.hpp"
#include "core/service.hpp"
#include "config/config.hpp"

namespace hcc::rt::trace {
namespace {

bool service_init() {
  // A bad value is not reported here: nothing would trace either way.
  if (config::parse_switch(config::text("HCC_TRACE")).value_or(false)) {
    std::fprintf(stderr, "hcc: error: HCC_TRACE=1: this hcc was built without OTF2 (libotf2-trace-dev); not tracing\n");
    set_profile_attr("hcc.trace", "not written: hcc was built without OTF2");
  }
  return false;
}

const EventService kService = {service_init, nullptr, nullptr, nullptr, nullptr, nullptr};
HCC_SERVICE_REGISTRATION void register_service() { register_event_service(&kService); }

}  // namespace
}  // namespace hcc::rt::trace

extern "C" __attribute__((visibility("default"))) void hcc_svc_write_trace(const hcc_svc_collectives *) {}
