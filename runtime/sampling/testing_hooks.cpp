// hcc runtime — the sampler's part of the test interface (core/testing.hpp).
#include "core/testing.hpp"
#include "sampling/sampling.hpp"

namespace hcc::rt::testing {

bool take_sample_from(void *ucontext, bool caches) {
  sampling::Buffer *b = sampling::current_buffer();
  if (!b || !sampling::active()) return false;
  sampling::set_caches_enabled(caches);
  b->busy = 1;  // a timer signal meanwhile is skipped, as in the handler
  sampling::take_sample(b, ucontext);
  b->busy = 0;
  sampling::set_caches_enabled(true);
  return true;
}

}  // namespace hcc::rt::testing
