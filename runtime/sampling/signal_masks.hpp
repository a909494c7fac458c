// hcc runtime — what signal_masks.cpp (the interposed waits that keep the
// sampling signal out of a program's masks) needs from the sampler.
#pragma once

namespace hcc::rt::sampling {

// The signal samples arrive by, once its handler is installed, and for the
// rest of the run (timers stopped or not: a sample may still be pending);
// 0 while sampling is off or not started. Defined in service.cpp.
int signal_number();

}  // namespace hcc::rt::sampling
