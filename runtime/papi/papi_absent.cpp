// hcc runtime — stands in for the PAPI service when hcc was built without
// papi.h: HCC_METRICS then gets a clear message instead of silence.
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "core/event_services.hpp"

namespace hcc::rt::papi {
namespace {

bool service_init() {
  const char *spec = std::getenv("HCC_METRICS");
  if (!spec || !*spec) return false;
  const char *strict = std::getenv("HCC_METRICS_STRICT");
  bool stop = strict && strict[0] == '1' && strict[1] == '\0';
  std::fprintf(stderr, "hcc: error: HCC_METRICS: '%s' cannot be counted: this hcc was built without PAPI (libpapi-dev); %s\n",
               spec, stop ? "stopping (HCC_METRICS_STRICT=1)" : "measuring time only");
  if (stop) {
    std::fflush(stdout);
    _exit(1);
  }
  return false;
}

const hcc::rt::EventService kService = {service_init, nullptr, nullptr, nullptr, nullptr, nullptr};
__attribute__((constructor)) void register_service() { hcc::rt::register_event_service(&kService); }

}  // namespace
}  // namespace hcc::rt::papi
