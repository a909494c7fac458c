// libFuzzer target: hcc-report's reader on arbitrary bytes. read_cubex takes
// a path, so each input is put in an anonymous memory file and read through
// /proc/self/fd. Any input must either give a valid profile or throw
// std::runtime_error; a crash, hang, leak or sanitizer report is a finding.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cubex.hpp"
#include "summary.hpp"

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
    (void)hcc::profile::summary_text(p);  // every view of a profile that was accepted
  } catch (const std::runtime_error &) {
  }
  close(fd);
  return 0;
}
