// libFuzzer target: the filter-file parser (TAU select files, Score-P filter
// files and hcc's own lines, recognised from the content), then matching a
// few names against whatever rules it accepted. Bad input must be refused
// with "FILE:LINE: message", never crash or hang.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "filter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  hcc::filter::Filter f;
  std::string error;
  if (!f.add_text(text, "fuzz.filter", error)) {
    if (error.rfind("fuzz.filter:", 0) != 0) __builtin_trap();  // the message names the file
    return 0;
  }
  const hcc::filter::Region regions[] = {
      {"main", "main", "app.c"},
      {"geo::Matrix<double>::mul(double) const", "_ZNK3geo6MatrixIdE3mulEd", "src/matrix.cpp"},
      {"T A<T>::f(T) [T = double]", "", "a.hpp", false, "double A<double>::f(double)"},
  };
  for (const auto &r : regions) (void)f.excludes(r);
  (void)f.excludes_file("src/matrix.cpp");
  (void)hcc::filter::name_forms(text.substr(0, 256));
  return 0;
}
