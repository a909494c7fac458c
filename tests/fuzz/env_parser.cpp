// libFuzzer target: the HCC_* value parsers. The input is split at newlines
// into NAME=value strings and handed to parse_environment as an environment;
// every bad value must give a message line naming its variable, never a
// crash, and the settings must stay within their documented ranges.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/env.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  std::vector<std::string> vars;
  std::size_t start = 0;
  while (start <= text.size() && vars.size() < 64) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    vars.push_back(text.substr(start, nl - start).c_str());  // environ strings end at NUL
    start = nl + 1;
  }
  std::vector<const char *> envp;
  for (const auto &v : vars) envp.push_back(v.c_str());
  envp.push_back(nullptr);
  const hcc::rt::EnvResult r = hcc::rt::parse_environment(envp.data());
  if (r.settings.max_depth < 1 || r.settings.max_depth > 16777216u) __builtin_trap();
  if (r.settings.verbose < 0 || r.settings.verbose > 2) __builtin_trap();
  for (const auto &m : r.messages)
    if (m.rfind("hcc: ", 0) != 0) __builtin_trap();  // every line says who speaks
  return 0;
}
