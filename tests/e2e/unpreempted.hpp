// Running a test's program so that no other process on the machine takes
// its cores while it runs (issue 29), for the tests whose numbers are
// samples of CPU time or shares of wall-clock time.
//
// On a busy machine both go wrong however much work the program does: a
// thread that shares its core is sampled at a fraction of the rate of its
// CPU time (the kernel checks CPU-time timers only at its tick, for the
// thread then running: measured at load 12-14 on the 2-core VM, 33 to 171
// samples per CPU second against 249-251 at HZ 250, varying from run to
// run), and wall-clock times hold other processes' slices, landing on
// whichever function runs. `nice -20` does not help across sessions
// (autogroups).
//
// So the program runs with the real-time policy SCHED_FIFO at its lowest
// priority (`chrt --fifo 1`), which no ordinary process preempts; bounded by
// `timeout`, itself at real-time priority 2 (it sleeps until its limit, and
// then preempts the program to end it even where the kernel's real-time
// throttling is off), and in the tests' programs by their own wall limits.
// Only for runs of a few seconds at most: while they run, the other
// processes on the machine wait.
#pragma once

#include <string>

namespace hcc::e2e {

// "chrt --fifo 2 timeout <seconds> chrt --fifo 1 " to put before a
// command; where this machine does not allow SCHED_FIFO (neither root,
// CAP_SYS_NICE nor an RLIMIT_RTPRIO of 2), "timeout <seconds> ": then the
// numbers depend on the machine being quiet, and unpreempted_note() says so.
std::string unpreempted(int timeout_seconds);

// Empty when unpreempted() uses SCHED_FIFO; else why not, for failure
// messages.
std::string unpreempted_note();

}  // namespace hcc::e2e
