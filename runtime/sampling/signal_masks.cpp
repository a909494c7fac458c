// hcc runtime — the sampling signal kept out of the signal masks and sets a
// program waits with (docs/sampling.md, "Blocking calls and EINTR").
//
// A thread that blocks signals while it works keeps a sample pending; a wait
// whose mask lets signals through (ppoll, pselect, epoll_pwait, epoll_pwait2,
// sigsuspend) would receive it at once and fail with EINTR (or, for
// sigsuspend, return without the program's own signal). So these functions,
// interposed here (libhcc precedes libc when hcc links the program, as for
// the longjmp family, core/longjmp_interpose.c), pass the real one a copy of
// the mask with hcc's signal added: a sample pending before the wait stays
// pending through it, and one due while the thread is in the kernel part of
// the call waits too. The kernel restores the caller's mask when the call
// returns, so where that mask lets the signal through, the sample is
// delivered right after the call; where it does not, it is delivered before
// the wait (deliver_pending, at most once per half sampling period): that
// is where the program's own mask would have let it in.
//
// A wait for signals by set (sigwait, sigwaitinfo, sigtimedwait, a
// signalfd's mask) on a set that holds every signal hcc could have chosen
// would *consume* a sample as a signal of the program's: hcc's is taken out
// of such a set. A set that names some real-time signals and not others is
// left alone: the program may use that very number itself (a sigwait user
// installs no handler, so start-up's choice cannot see it), and taking it
// out could make the wait last forever.
//
// Cost, with sampling on: a sigismember per call; when the mask lets hcc's
// signal through, a 128-byte copy, a sigaddset and a coarse clock read
// (vDSO), and two rt_sigprocmask calls per half sampling period in a thread
// that keeps calling such waits (about 30 ns more for a ppoll that does not
// wait, 340 ns; docs/sampling.md). Nothing on enter/exit. With sampling
// off, a call and a branch. A program that does not bind these names to
// libhcc (one linked without hcc's link step: libhcc then comes after libc,
// or is dlopened) calls libc's directly and is unaffected.
//
// Defined to match the glibc headers' declarations exactly, which fortified
// headers would replace by inline wrappers of the same names.
#undef _FORTIFY_SOURCE

#include <dlfcn.h>
#include <gnu/lib-names.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <time.h>

#include <cerrno>
#include <cstdint>

#include "sampling/sampling.hpp"
#include "sampling/signal_masks.hpp"

// What ppoll becomes under _FORTIFY_SOURCE when the array's size is known
// (bits/poll2.h, not included here).
extern "C" int __ppoll_chk(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const __sigset_t *ss,
                           __SIZE_TYPE__ fdslen);

#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 35)
#define HCC_HAVE_EPOLL_PWAIT2 1
#endif

namespace hcc::rt::sampling {
namespace {

enum Fn { kPpoll, kPpollChk, kPselect, kEpollPwait, kEpollPwait2, kSigsuspend, kSigwait, kSigwaitinfo, kSigtimedwait, kSignalfd, kFnCount };
const char *const kNames[kFnCount] = {"ppoll",    "__ppoll_chk", "pselect",      "epoll_pwait", "epoll_pwait2",
                                      "sigsuspend", "sigwait",   "sigwaitinfo", "sigtimedwait", "signalfd"};
void *g_real[kFnCount];

// The next definition in the search order: libc's when libhcc precedes it.
// A libhcc loaded after libc (dlopened) has nothing after it; libc's is
// then taken by name (only a call by name reaches ours in that case).
void *lookup(int f) {
  void *p = dlsym(RTLD_NEXT, kNames[f]);
  if (!p)
    if (void *libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD)) p = dlsym(libc, kNames[f]);
  return p;
}

// Resolved in the constructor, because these functions are async-signal-
// safe and may be called from a signal handler, where dlsym is not; only a
// call made before the constructor ran (another library's constructor)
// resolves here.
__attribute__((noinline, cold)) void *resolve(int f) {
  void *p = lookup(f);
  __atomic_store_n(&g_real[f], p, __ATOMIC_RELAXED);
  return p;
}

template <class F>
F real(int f) {
  void *p = __atomic_load_n(&g_real[f], __ATOMIC_RELAXED);
  return reinterpret_cast<F>(p ? p : resolve(f));
}

__attribute__((constructor)) void resolve_all() {
  for (int f = 0; f < kFnCount; ++f) __atomic_store_n(&g_real[f], lookup(f), __ATOMIC_RELAXED);
}

// The earliest CLOCK_MONOTONIC_COARSE time at which this thread lets a
// withheld sample in again (deliver_pending).
thread_local uint64_t t_next_delivery_ns = 0;

// A sample kept pending by the thread's own mask is delivered now, just
// before a wait whose mask would have let it in, so that a thread that
// blocks the signal everywhere but in its waits is still sampled: a pending
// timer signal is not queued again, and without this its first pending
// sample would be its last (measured: 1 sample instead of 35 in 300 calls).
// Unblocking the signal alone and blocking it again costs two system calls,
// so at most once per half sampling period in a thread (the coarse clock
// advances at the kernel's tick, where CPU-time timers expire; with a full
// period, a sample that waited for the next delivery often made the one
// after it an overrun: 20 samples instead of 31 at 200 Hz). The handler
// saves errno; the calls here only return error numbers.
void deliver_pending(int sig) {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
  const uint64_t ns = uint64_t(now.tv_sec) * 1000000000u + uint64_t(now.tv_nsec);
  if (ns < t_next_delivery_ns) return;
  t_next_delivery_ns = ns + interval_ns() / 2;
  sigset_t only, old;
  sigemptyset(&only);
  sigaddset(&only, sig);
  if (pthread_sigmask(SIG_UNBLOCK, &only, &old) != 0) return;
  if (sigismember(&old, sig) == 1) pthread_sigmask(SIG_BLOCK, &only, nullptr);
}

// `mask`, or `copy` = `mask` with hcc's signal added when `mask` would let
// it through. NULL (no mask: the thread's own applies) is kept.
const sigset_t *withheld(const sigset_t *mask, sigset_t *copy) {
  const int sig = signal_number();
  if (!sig || !mask || sigismember(mask, sig) == 1) return mask;
  *copy = *mask;
  sigaddset(copy, sig);
  deliver_pending(sig);
  return copy;
}

// Whether `set` holds every signal start-up could have chosen
// (service.cpp's pick_signal: SIGRTMIN+4 … SIGRTMAX-4): it does not tell
// hcc's from any other, so it cannot be waiting for hcc's in particular.
bool holds_every_candidate(const sigset_t *set) {
  for (int s = SIGRTMIN + 4; s <= SIGRTMAX - 4; ++s)
    if (sigismember(set, s) != 1) return false;
  return true;
}

// `set`, or `copy` = `set` without hcc's signal when `set` waits for every
// candidate (above). `deliver`: the call waits now (not signalfd's set-up).
const sigset_t *without_ours(const sigset_t *set, sigset_t *copy, bool deliver) {
  const int sig = signal_number();
  if (!sig || !set || sigismember(set, sig) != 1 || !holds_every_candidate(set)) return set;
  *copy = *set;
  sigdelset(copy, sig);
  if (deliver) deliver_pending(sig);
  return copy;
}

// A function libc lacks (an older glibc than the one libhcc was built with).
int missing() {
  errno = ENOSYS;
  return -1;
}

}  // namespace
}  // namespace hcc::rt::sampling

using hcc::rt::sampling::kEpollPwait;
using hcc::rt::sampling::kEpollPwait2;
using hcc::rt::sampling::kPpoll;
using hcc::rt::sampling::kPpollChk;
using hcc::rt::sampling::kPselect;
using hcc::rt::sampling::kSigsuspend;
using hcc::rt::sampling::kSignalfd;
using hcc::rt::sampling::kSigtimedwait;
using hcc::rt::sampling::kSigwait;
using hcc::rt::sampling::kSigwaitinfo;
using hcc::rt::sampling::missing;
using hcc::rt::sampling::real;
using hcc::rt::sampling::withheld;
using hcc::rt::sampling::without_ours;

#define HCC_INTERPOSE extern "C" __attribute__((visibility("default")))

HCC_INTERPOSE int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const __sigset_t *ss) {
  auto *f = real<decltype(&ppoll)>(kPpoll);
  if (!f) return missing();
  sigset_t copy;
  return f(fds, nfds, timeout, withheld(ss, &copy));
}

HCC_INTERPOSE int __ppoll_chk(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const __sigset_t *ss,
                              __SIZE_TYPE__ fdslen) {
  auto *f = real<decltype(&__ppoll_chk)>(kPpollChk);
  if (!f) return missing();
  sigset_t copy;
  return f(fds, nfds, timeout, withheld(ss, &copy), fdslen);
}

HCC_INTERPOSE int pselect(int nfds, fd_set *__restrict readfds, fd_set *__restrict writefds,
                          fd_set *__restrict exceptfds, const struct timespec *__restrict timeout,
                          const __sigset_t *__restrict sigmask) {
  auto *f = real<decltype(&pselect)>(kPselect);
  if (!f) return missing();
  sigset_t copy;
  return f(nfds, readfds, writefds, exceptfds, timeout, withheld(sigmask, &copy));
}

HCC_INTERPOSE int epoll_pwait(int epfd, struct epoll_event *events, int maxevents, int timeout,
                              const __sigset_t *ss) {
  auto *f = real<decltype(&epoll_pwait)>(kEpollPwait);
  if (!f) return missing();
  sigset_t copy;
  return f(epfd, events, maxevents, timeout, withheld(ss, &copy));
}

#ifdef HCC_HAVE_EPOLL_PWAIT2
HCC_INTERPOSE int epoll_pwait2(int epfd, struct epoll_event *events, int maxevents, const struct timespec *timeout,
                               const __sigset_t *ss) {
  auto *f = real<decltype(&epoll_pwait2)>(kEpollPwait2);
  if (!f) return missing();
  sigset_t copy;
  return f(epfd, events, maxevents, timeout, withheld(ss, &copy));
}
#endif

// With hcc's signal added, sigsuspend waits for the program's signals only:
// it could wait forever only for a program that waits for hcc's signal by
// its number, which it does not know.
HCC_INTERPOSE int sigsuspend(const sigset_t *set) {
  auto *f = real<decltype(&sigsuspend)>(kSigsuspend);
  if (!f) return missing();
  sigset_t copy;
  return f(withheld(set, &copy));
}

HCC_INTERPOSE int sigwait(const sigset_t *__restrict set, int *__restrict sig) {
  auto *f = real<decltype(&sigwait)>(kSigwait);
  if (!f) return ENOSYS;  // sigwait returns its error
  sigset_t copy;
  return f(without_ours(set, &copy, true), sig);
}

HCC_INTERPOSE int sigwaitinfo(const sigset_t *__restrict set, siginfo_t *__restrict info) {
  auto *f = real<decltype(&sigwaitinfo)>(kSigwaitinfo);
  if (!f) return missing();
  sigset_t copy;
  return f(without_ours(set, &copy, true), info);
}

HCC_INTERPOSE int sigtimedwait(const sigset_t *__restrict set, siginfo_t *__restrict info,
                               const struct timespec *__restrict timeout) {
  auto *f = real<decltype(&sigtimedwait)>(kSigtimedwait);
  if (!f) return missing();
  sigset_t copy;
  return f(without_ours(set, &copy, true), info, timeout);
}

// The set is read once, here: the descriptor then never reports hcc's
// signal. A thread that keeps every signal blocked and reads them from the
// descriptor is not sampled after its first pending sample (no wait of its
// passes through here to let it in).
HCC_INTERPOSE int signalfd(int fd, const sigset_t *mask, int flags) noexcept {
  auto *f = real<decltype(&signalfd)>(kSignalfd);
  if (!f) return missing();
  sigset_t copy;
  return f(fd, without_ours(mask, &copy, false), flags);
}
