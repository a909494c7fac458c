// hcc runtime — a thread of the runtime's own, for a service that works off
// the measured threads (snapshots, the default throttling). It never enters a
// region, is not a location, blocks every signal, and sleeps on a
// CLOCK_MONOTONIC condition variable between its turns.
#pragma once

#include <pthread.h>
#include <time.h>

namespace hcc::rt {

class ServiceThread {
 public:
  // Starts body(arg) on a new thread; false (errno says why) when it cannot be started.
  bool start(void *(*body)(void *), void *arg = nullptr);
  // In the thread: sleeps until `deadline` (CLOCK_MONOTONIC) or until stop();
  // true when it is to stop.
  bool sleep_until(const timespec &deadline);
  // From another thread: asks the thread to stop and joins it, waiting at
  // most 5 s for a turn in progress (the final build goes on regardless).
  // Nothing when it never ran, from the thread itself, or after forget().
  void stop();
  // In a fork child: the thread was not copied.
  void forget() { running_ = false; }

 private:
  struct Start {
    void *(*body)(void *);
    void *arg;
  };
  static void *entry(void *start);
  pthread_t thread_{};
  bool running_ = false;
  pthread_mutex_t lock_ = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t wake_{};
  bool stop_ = false;  // under lock_
  Start start_{};
};

// `t` advanced by `seconds` (a CLOCK_MONOTONIC deadline).
timespec after(timespec t, double seconds);

}  // namespace hcc::rt
