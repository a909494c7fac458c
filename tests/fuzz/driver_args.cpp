// libFuzzer target: the hcc driver's response-file splitter and argument
// classifier. The input is response-file text; its arguments are classified
// as a compile command (one role per argument, inputs at valid positions),
// and quoting every argument back must split to the same list (what hcc
// writes into the response files it passes on).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"
#include "response_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace hcc::driver;
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  std::vector<std::string> args = split_response_text(text);
  std::string again;
  for (const auto &a : args) again += quote_for_response_file(a) + "\n";
  if (split_response_text(again) != args) __builtin_trap();  // quoting round-trips

  args.insert(args.begin(), "gcc");
  const CommandLine cl = classify(args);
  if (cl.roles.size() != args.size()) __builtin_trap();
  for (const auto &in : cl.inputs)
    if (in.index >= args.size() || cl.roles[in.index] != Role::Input) __builtin_trap();
  (void)pass_through_reason(cl);
  (void)links_program(cl);
  (void)configure_probe_reason(cl);
  return 0;
}
