// Counters are per thread: two threads fault in different amounts at the
// same time (they start together), so a counter that counted the whole
// process would show the big thread's faults in the small one's profile.
#include <sys/mman.h>

#include <atomic>
#include <cstdio>
#include <thread>

static std::atomic<int> g_ready{0};

static unsigned long touch(unsigned long mib) {
  const unsigned long bytes = mib << 20;
  auto *p = static_cast<unsigned char *>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (p == MAP_FAILED) return 0;
  madvise(p, bytes, MADV_NOHUGEPAGE);
  unsigned long pages = 0;
  for (unsigned long off = 0; off < bytes; off += 4096, ++pages) p[off] = 1;
  munmap(p, bytes);
  return pages;
}

static void worker(unsigned long mib, unsigned long *pages) {
  g_ready.fetch_add(1);
  while (g_ready.load() < 2) {
  }
  unsigned long n = 0;
  for (int i = 0; i < 4; ++i) n += touch(mib);
  *pages = n;
}

int main() {
  unsigned long big = 0, small = 0;
  std::thread a(worker, 48, &big), b(worker, 4, &small);
  a.join();
  b.join();
  std::printf("big %lu small %lu\n", big, small);
  return 0;
}
