// The runtime's unit tests check the clock's own accounting: what a region's
// frames measured, to the tick. Sampling (on by default) moves a spin's CPU
// time from the region that spins to a sampled frame of the spin function,
// which is right for a profile and wrong for these assertions. So these
// processes, and the probe programs they start, run with HCC_SAMPLING=off
// unless a test (or the caller's environment) sets it; set before main, so
// before the runtime reads it at the first event.
#include <cstdlib>

namespace {
[[maybe_unused]] const bool unsampled = [] { return ::setenv("HCC_SAMPLING", "off", /*overwrite=*/0) == 0; }();
}  // namespace
