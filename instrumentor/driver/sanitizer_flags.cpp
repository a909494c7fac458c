// hcc driver — sanitizer flags of a sanitized build (see sanitizer_flags.hpp).
#include "sanitizer_flags.hpp"

namespace hcc::driver {

std::string runtime_sanitizers() {
#ifdef HCC_RUNTIME_SANITIZE
  return HCC_RUNTIME_SANITIZE;
#else
  return "";
#endif
}

std::vector<std::string> runtime_sanitizer_flags() {
  const std::string list = runtime_sanitizers();
  if (list.empty()) return {};
  return {"-fsanitize=" + list, "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"};
}

}  // namespace hcc::driver
