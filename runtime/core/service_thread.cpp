// hcc runtime — a thread of the runtime's own (service_thread.hpp).
#include "service_thread.hpp"

#include <signal.h>

#include <cerrno>
#include <cmath>

namespace hcc::rt {

void *ServiceThread::entry(void *start) {
  // Signals are the program's (and sampling's): none is delivered here.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  const Start s = *static_cast<Start *>(start);
  return s.body(s.arg);
}

bool ServiceThread::start(void *(*body)(void *), void *arg) {
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&wake_, &ca);
  pthread_condattr_destroy(&ca);
  start_ = {body, arg};
  const int rc = pthread_create(&thread_, nullptr, entry, &start_);
  if (rc != 0) errno = rc;  // for the caller's message
  running_ = rc == 0;
  return running_;
}

bool ServiceThread::sleep_until(const timespec &deadline) {
  pthread_mutex_lock(&lock_);
  while (!stop_ && pthread_cond_timedwait(&wake_, &lock_, &deadline) != ETIMEDOUT) {
  }
  const bool stop = stop_;
  pthread_mutex_unlock(&lock_);
  return stop;
}

void ServiceThread::stop() {
  if (!running_ || pthread_equal(pthread_self(), thread_)) return;
  pthread_mutex_lock(&lock_);
  stop_ = true;
  pthread_cond_signal(&wake_);
  pthread_mutex_unlock(&lock_);
  timespec limit;
  clock_gettime(CLOCK_REALTIME, &limit);
  limit.tv_sec += 5;
  pthread_timedjoin_np(thread_, nullptr, &limit);
  running_ = false;
}

timespec after(timespec t, double seconds) {
  const double whole = std::floor(seconds);
  t.tv_sec += time_t(whole);
  t.tv_nsec += long((seconds - whole) * 1e9);
  if (t.tv_nsec >= 1000000000L) t.tv_sec += 1, t.tv_nsec -= 1000000000L;
  return t;
}

}  // namespace hcc::rt
