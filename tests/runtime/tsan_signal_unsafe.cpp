// ThreadSanitizer configuration only (HCC_SANITIZE=thread): the one exemption
// in scripts/tsan-suppressions.txt (signal-unsafe calls under the runtime's
// fatal-signal handler, on_fatal_signal) must stay that narrow. This program's
// own SIGSEGV handler allocates, exactly like the runtime's; TSan must still
// report it and end the process with its failure status.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {
char *volatile g_sink;

void program_fault_handler(int) {
  g_sink = static_cast<char *>(std::malloc(64));  // not async-signal-safe: reported
  std::free(g_sink);
  std::fputs("handler ran\n", stderr);
  _exit(3);
}
}  // namespace

int main(int argc, char **) {
  std::thread([] {}).join();  // TSan's thread machinery on, as in a real program
  signal(SIGSEGV, program_fault_handler);
  *static_cast<volatile int *>(argc > 99 ? &argc : nullptr) = 1;  // a real fault (synchronous signal)
  return 0;
}
