// libFuzzer target: hcc-report's reader on arbitrary bytes. read_cubex takes
// a path, so each input is put in an anonymous memory file and read through
// /proc/self/fd. Any input must either give a valid profile or throw
// std::runtime_error; a crash, hang, leak or sanitizer report is a finding.
// A profile that was accepted then goes through every view hcc-report has
// that reads nothing else (not --trace-json, --watch, nor dot for SVG): the
// attacks on hcc-report's bounds (issue 28) were in the JSON, HTML, gprof,
// call graph, diff and cfg views, not in the reader alone.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <string>

#include "callgraph_dot.hpp"
#include "cfg_view.hpp"
#include "cubex.hpp"
#include "diff.hpp"
#include "folded.hpp"
#include "gprof_view.hpp"
#include "html_view.hpp"
#include "json_view.hpp"
#include "summary.hpp"

namespace {

// Discards what the streamed views write (their text is not checked here).
struct NullBuf : std::streambuf {
  int overflow(int c) override { return c; }
  std::streamsize xsputn(const char *, std::streamsize n) override { return n; }
};

// A view may refuse a profile it has nothing to show for (a metric it
// needs is missing) with an exception; main turns that into one line.
template <typename F>
void view(F f) {
  try {
    f();
  } catch (const std::exception &) {
  }
}

void every_view(const hcc::profile::Profile &p) {
  using namespace hcc::report;
  NullBuf buf;
  std::ostream null(&buf);
  (void)hcc::profile::summary_text(p);
  view([&] { write_profile_json(null, p, -1); });
  view([&] { write_profile_json(null, p, 0); });
  view([&] { write_html_report(null, p, "fuzz\xff.cubex"); });
  view([&] { (void)gprof_text(p, -1); });
  view([&] { (void)callgraph_dot(p, {-1, ""}); });
  view([&] { (void)cfg_text(p, -1); });
  view([&] { (void)cfg_dot(p, ""); });
  view([&] { (void)folded_text(p, "visits", -1); });
  view([&] {
    const Diff d = diff_profiles(p, p);
    write_diff_text(null, d, "a", "b");
    write_diff_json(null, d, "a", "b");
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const int fd = memfd_create("fuzz.cubex", MFD_CLOEXEC);
  if (fd < 0) return 0;
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = write(fd, data + done, size - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  try {
    const hcc::profile::Profile p = hcc::profile::read_cubex("/proc/self/fd/" + std::to_string(fd));
    hcc::profile::validate(p);
    every_view(p);
  } catch (const std::runtime_error &) {
  }
  close(fd);
  return 0;
}
