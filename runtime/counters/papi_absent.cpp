// hcc runtime — stands in for the PAPI source when hcc was built without
// papi.h: HCC_METRICS still counts through perf_event_open, and names that
// only PAPI could count get a clear reason instead of silence.
#include "counters/source.hpp"

namespace hcc::rt::counters {
namespace {

class NoPapi final : public Source {
 public:
  std::string label() const override { return "PAPI"; }
  std::string open() override { return "this hcc was built without PAPI (libpapi-dev)"; }
  int knows(const std::string &) override { return -1; }
  std::string unknown_hint() const override { return "not an event this hcc counts (it was built without PAPI)"; }
  Verdict add(const std::string &, EventDef *, std::string *) override { return Verdict::Unknown; }
  int size() const override { return 0; }
  std::vector<std::string> working_events() override { return {}; }
  void *thread_start(std::string *) override { return nullptr; }
  bool read(void *, long long *) override { return false; }
  void thread_end(void *) override {}
};

}  // namespace

void papi_request_multiplex(bool) {}

Source &papi_source() {
  static auto *s = new NoPapi;
  return *s;
}

}  // namespace hcc::rt::counters
