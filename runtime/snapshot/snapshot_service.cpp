// hcc — HCC_SNAPSHOT=SECONDS: the profile so far, written while the program
// runs (snapshot.cubex in the output directory, replaced atomically), for
// hcc-report --watch and any CubeLib reader.
//
// A thread of our own wakes every SECONDS and builds the profile exactly as
// the end of the run does (runtime/core/profile_builder.cpp), but without
// asking the event services to bring their open frames up to date: they may
// only be updated by the threads that own them. The measured threads are
// never stopped, locked or signalled, and the hot path has no extra
// instruction: the snapshot thread only reads.
//
// Consistency. Every counter the builder reads (visits, inclusive ticks of
// closed visits, extra counters) only grows, is written by one thread and
// is an aligned 64-bit word, so each value read is one that counter really
// held during the read; a node is published (release) only after it is
// initialised, and the stack array (acquire) only after it was copied. Open
// frames count up to the snapshot's time, as at the end of the run. What
// is not obtained is one instant for all nodes: values are read over a
// short window (the attribute hcc.snapshot gives its length, typically well
// under a millisecond), so a visit that ends inside the window can be seen
// by its parent but not yet by its child, or the reverse. The file's
// exclusive times are clamped at zero where such a tear would make them
// negative, so inclusive = exclusive + children still holds in the file
// (CUBE readers add exclusive values up); the error is bounded by the
// window. The snapshot thread never enters a region, is not a location and
// never appears in a profile; it blocks every signal.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <string>

#include "core/clock.hpp"
#include "core/env.hpp"
#include "core/event_services.hpp"
#include "core/lifecycle.hpp"
#include "core/output.hpp"
#include "core/profile_builder.hpp"
#include "core/safe_path.hpp"
#include "core/service.hpp"
#include "core/service_thread.hpp"
#include "core/cubex_writer.hpp"
#include "config/config.hpp"

namespace hcc::rt::snapshot {

namespace {

double g_period = 0;                 // seconds; 0 = off
std::atomic<bool> g_hold{false};     // libhcc_mpi: the output directory is not known yet
ServiceThread g_thread;
uint64_t g_start_ns = 0;             // monotonic time of the first event
unsigned g_taken = 0;

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

// A symbolic link at the snapshot's name was not put there by us (we only
// ever rename a regular file onto it): it is left alone and no snapshot is
// written, with one error naming it.
bool refuse_link(int dirfd, const std::string &dir, const std::string &name) {
  struct stat st;
  if (fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode)) return false;
  static bool said = false;
  if (!said)
    std::fprintf(stderr,
                 "hcc: error: HCC_SNAPSHOT: '%s/%s' is a symbolic link: refusing to write snapshots through it or "
                 "replace it (remove it, or set HCC_OUTPUT_DIR to another directory); no snapshots\n",
                 dir.c_str(), name.c_str());
  said = true;
  return true;
}

void take() {
  const uint64_t t0 = monotonic_ns();
  profile::Profile p = build_local_profile(BuildFor::Snapshot);
  const uint64_t t1 = monotonic_ns();
  // The tear (see above) can only make exclusive values negative: clamp.
  for (size_t m = 0; m < p.metrics.size(); ++m)
    for (double &v : p.excl[m])
      if (v < 0) v = 0;
  ++g_taken;
  p.attrs.emplace_back("hcc.snapshot", "taken " + seconds_text(double(t0 - g_start_ns) * 1e-9) +
                                           " s after the first event while the program ran (number " +
                                           std::to_string(g_taken) + ", every " + seconds_text(g_period) +
                                           " s); values read within " + seconds_text(double(t1 - t0) * 1e-3) + " ms");
  std::string error, dir;
  // The run's output directory, as opened when it was chosen (output.hpp).
  FdGuard dirfd(output_dir_handle(dir, &error));
  static bool said = false;
  if (dirfd.fd < 0) {
    if (!said) std::fprintf(stderr, "hcc: error: HCC_SNAPSHOT: %s; no snapshots\n", error.c_str());
    said = true;
    return;
  }
  const std::string tag = current_file_tag();
  const std::string name = "snapshot" + (tag.empty() ? "" : "." + tag) + ".cubex";
  try {
    // Relative to the directory's handle; the file is replaced by rename,
    // which never writes through a link at its name.
    if (refuse_link(dirfd.fd, dir, name)) return;
    cubex_writer::write_at(p, dirfd.fd, dir, name);
  } catch (const std::exception &e) {
    if (!said) std::fprintf(stderr, "hcc: error: HCC_SNAPSHOT: %s\n", e.what());
    said = true;
  }
}

void *loop(void *) {
  timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  next = after(next, g_period);
  while (!g_thread.sleep_until(next)) {
    next = after(next, g_period);  // every SECONDS from the first event, not from the last snapshot's end
    if (g_hold.load()) continue;
    take();
    // A snapshot that took longer than the period: the next one waits a whole period.
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > next.tv_sec || (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec)) next = after(now, g_period);
  }
  return nullptr;
}

void after_fork_child() {
  // The snapshot thread does not exist in the child; it takes none.
  g_thread.forget();
}

bool init() {
  // 0 (or another word for off) means none; the range is the table's.
  const char *v = config::nonempty("HCC_SNAPSHOT");
  if (!v || config::parse_switch(v) == false) return false;
  const std::optional<double> s = config::number("HCC_SNAPSHOT", "no snapshots");
  if (!s) return false;
  g_period = *s;
  g_start_ns = monotonic_ns();
  if (!g_thread.start(loop)) {
    std::fprintf(stderr, "hcc: error: HCC_SNAPSHOT: cannot start the snapshot thread: %s\n", std::strerror(errno));
    return false;
  }
  pthread_atfork(nullptr, nullptr, after_fork_child);
  return false;  // needs no per-event hook
}

// The final profile is being built: no snapshot after this one. A snapshot
// being written finishes first (it may hold a lock the build needs).
void before_build() { g_thread.stop(); }

const EventService kService = {init, nullptr, nullptr, nullptr, nullptr, before_build};

HCC_SERVICE_REGISTRATION void register_service() { register_event_service(&kService); }

}  // namespace

}  // namespace hcc::rt::snapshot

extern "C" __attribute__((visibility("default"))) void hcc_svc_hold_snapshots(int hold) {
  hcc::rt::snapshot::g_hold.store(hold != 0);
}
