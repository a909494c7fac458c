// hcc runtime — guard calls of stopped regions become nops (site_patch.hpp).
#include "site_patch.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace hcc::rt {

#if defined(__x86_64__) && defined(__ELF__)

namespace {

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
bool g_refused = false;  // mprotect said no once: it will again, do not ask on every call
uint64_t g_patched = 0;
constexpr unsigned kRefusedSites = 8;
uintptr_t g_refused_sites[kRefusedSites];  // call sites found not to be guard calls, the latest
unsigned g_next_refused = 0;

// bind.h's stubs after an optional endbr64: the exit guard loads the
// descriptor first (movq (%rdi), %rdi), then both are
// `cmpl $-1, 36(%rdi); je 1f; jmp rel32; 1: ret`.
constexpr uint8_t kEndbr64[] = {0xf3, 0x0f, 0x1e, 0xfa};
constexpr uint8_t kLoadDesc[] = {0x48, 0x8b, 0x3f};
constexpr uint8_t kTestAndJump[] = {0x83, 0x7f, 0x24, 0xff, 0x74, 0x05, 0xe9};
constexpr size_t kJumpDisp = 4;
constexpr uint8_t kRet = 0xc3;
constexpr uint8_t kNop5[] = {0x0f, 0x1f, 0x44, 0x00, 0x00};  // nopl 0x0(%rax,%rax,1)

bool starts_with(const uint8_t *p, const uint8_t *bytes, size_t n) { return std::memcmp(p, bytes, n) == 0; }

// Whether `p` is the first instruction of a `kind` guard stub. Its bytes are
// readable: the call being judged just ran them.
bool is_guard(const uint8_t *p, GuardKind kind) {
  if (starts_with(p, kEndbr64, sizeof kEndbr64)) p += sizeof kEndbr64;
  if (kind == GuardKind::kExit) {
    if (!starts_with(p, kLoadDesc, sizeof kLoadDesc)) return false;
    p += sizeof kLoadDesc;
  }
  return starts_with(p, kTestAndJump, sizeof kTestAndJump) && p[sizeof kTestAndJump + kJumpDisp] == kRet;
}

uintptr_t page_size() {
  static const uintptr_t size = uintptr_t(sysconf(_SC_PAGESIZE));
  return size;
}

// One 8-byte store: a single instruction, whatever the address's alignment
// (inside one cache line, so other processors see all of it or none).
void store8(uintptr_t at, uint64_t v) { __asm__ volatile("movq %1, (%0)" : : "r"(at), "r"(v) : "memory"); }
void store2(uintptr_t at, uint16_t v) { __asm__ volatile("movw %1, (%0)" : : "r"(at), "r"(v) : "memory"); }

// `jmp .+5` from the call's first byte: eb 03, little-endian.
constexpr uint16_t kJumpOver = 0x03eb;

}  // namespace

bool patch_guard_call(uintptr_t ret, GuardKind kind) {
  const uintptr_t site = ret - 5;
  const auto *code = reinterpret_cast<const uint8_t *>(site);
  // A site refused before is refused again (a call that is not a guard's:
  // a stopped region's exit through an out-of-line guard destructor, at
  // -fno-inline, comes here on every visit).
  for (const uintptr_t &r : g_refused_sites)
    if (__atomic_load_n(&r, __ATOMIC_RELAXED) == site) return false;
  // The store must lie inside one cache line: eight bytes (the nop and the
  // three after it) where they fit, else two (a short jump over the rest of
  // the call, as XRay's sleds do), else none.
  int32_t disp;
  std::memcpy(&disp, code + 1, sizeof disp);
  if (code[0] != 0xe8 || (site & 63) > 64 - 2 ||
      !is_guard(reinterpret_cast<const uint8_t *>(ret + uintptr_t(intptr_t(disp))), kind)) {
    // Racy by design: a lost entry only costs the checks above once more.
    const unsigned slot = __atomic_fetch_add(&g_next_refused, 1u, __ATOMIC_RELAXED) % kRefusedSites;
    __atomic_store_n(&g_refused_sites[slot], site, __ATOMIC_RELAXED);
    return false;
  }
  // Not waited for: the holder may be this thread, interrupted by a signal
  // whose handler called the region. The next call through the site retries.
  if (pthread_mutex_trylock(&g_lock) != 0) return false;
  bool done = false;
  if (!g_refused && code[0] == 0xe8) {  // another thread may have rewritten it meanwhile
    const uintptr_t first = site & ~(page_size() - 1), end = (site + 8 + page_size() - 1) & ~(page_size() - 1);
    void *pages = reinterpret_cast<void *>(first);
    // Executable all along: other threads may be running this page.
    if (mprotect(pages, end - first, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
      g_refused = true;
    } else {
      if ((site & 63) <= 64 - 8) {
        uint64_t word;
        std::memcpy(&word, code, sizeof word);
        std::memcpy(&word, kNop5, sizeof kNop5);  // little-endian: the first five bytes
        store8(site, word);
      } else {
        store2(site, kJumpOver);
      }
      // Text segments are mapped read and execute (the site is in an
      // instrumented object's text, the guard's target checked above).
      mprotect(pages, end - first, PROT_READ | PROT_EXEC);
      ++g_patched;
      done = true;
    }
  }
  pthread_mutex_unlock(&g_lock);
  return done;
}

uint64_t patched_guard_calls() {
  pthread_mutex_lock(&g_lock);
  const uint64_t n = g_patched;
  pthread_mutex_unlock(&g_lock);
  return n;
}

#else

bool patch_guard_call(uintptr_t, GuardKind) { return false; }
uint64_t patched_guard_calls() { return 0; }

#endif

}  // namespace hcc::rt
