// hcc runtime — throttling by default: a thread of our own that stops timing
// functions whose visits are many and cheap (auto_throttle.cpp).
#pragma once

namespace hcc::rt {

// Starts the deciding thread (selection_init, when HCC_THROTTLE is unset,
// `auto` or `on`); nothing is throttled when it cannot be started.
void auto_throttle_start();
// Stops it before the final profile is built (selection_before_build); a
// no-op when it never ran or in a fork child.
void auto_throttle_stop();

}  // namespace hcc::rt
