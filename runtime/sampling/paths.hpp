// hcc runtime — sampled call paths into a profile build (extra_paths.hpp).
#pragma once

#include <vector>

#include "core/extra_paths.hpp"
#include "sampling/sampling.hpp"

namespace hcc::rt::sampling {

extern const PathSource kSampledPaths;

// Every thread's buffer, in order of creation (service.cpp).
std::vector<Buffer *> all_buffers();

}  // namespace hcc::rt::sampling
