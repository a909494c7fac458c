// libFuzzer target: the filter-file parser (TAU select files, Score-P filter
// files and hcc's own lines, recognised from the content), then matching a
// few names against whatever rules it accepted. Bad input must be refused
// with "FILE:LINE: message", never crash or hang. Text with a control byte
// (the matcher's wildcards are 0x01-0x04) must never be accepted: only a
// tab, a line's '\n' and a CR right before it may be below 0x20.
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
  for (std::size_t i = 0; i < size; ++i) {
    const unsigned char c = data[i];
    const bool line_end = c == '\n' || (c == '\r' && (i + 1 == size || data[i + 1] == '\n'));
    if ((c < 0x20 && c != '\t' && !line_end) || c == 0x7f) __builtin_trap();  // a control byte got through
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
