// hcc driver — the sanitizers a sanitized runtime asks of every program.
#pragma once

#include <string>
#include <vector>

namespace hcc::driver {

// An hcc built with HCC_SANITIZE=<list> (scripts/test-sanitized.sh) has a
// libhcc.so built with -fsanitize=<list>, which only a program built with the
// same sanitizers can load (ASan's runtime must come first). Such an hcc puts
// -fsanitize=<list> -fno-sanitize-recover=all -fno-omit-frame-pointer on
// every command it runs (compile and link alike), so the programs it builds
// match their runtime and any report ends them. Empty in a normal build.
std::vector<std::string> runtime_sanitizer_flags();

// "address,undefined", or "" when the runtime is not sanitized.
std::string runtime_sanitizers();

}  // namespace hcc::driver
