/* For the tests' C programs: burn a set amount of the calling thread's CPU
 * time, read on the thread's own clock (CLOCK_THREAD_CPUTIME_ID, the clock
 * hcc's sampling timer runs on), not a number of iterations nor a span of
 * wall time (issue 29). A test that needs N samples, or a share of time
 * sharp to some tolerance, gets the CPU time for it however busy the
 * machine is; and a ratio of CPU times is exact by construction, whatever
 * the core's speed. A thread that has not had that much CPU within
 * HCC_SPIN_WALL_LIMIT seconds of wall time ends the program (status 3),
 * saying how much it got.
 *
 *   HCC_SPIN_CPU("spin_inner", 0.25, for (long i = 0; i < 1L << 18; ++i) x += i);
 *
 * runs the statement (a few hundred microseconds of work: the clock is read
 * after each run of it, by a system call) until the thread has used 0.25 s.
 * A macro, not a function: in a program built with --hcc-functions=all a
 * function would be one more region in the call graph the test checks, and
 * in a sampled one a frame between the spinning function and its samples.
 * Included by path from the programs' folders ("../../support/cpu_spin.h"):
 * the tests compile them with no include options. */
#ifndef HCC_TESTS_CPU_SPIN_H
#define HCC_TESTS_CPU_SPIN_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define HCC_SPIN_WALL_LIMIT 60.0

/* Seconds on clock `id` into `var` (a double). */
#define HCC_SPIN_READ_(id, var)                         \
  do {                                                  \
    struct timespec hcc_t_;                             \
    clock_gettime((id), &hcc_t_);                       \
    (var) = (double)hcc_t_.tv_sec + hcc_t_.tv_nsec * 1e-9; \
  } while (0)

#define HCC_SPIN_CPU(who, cpu, statement)                                                             \
  do {                                                                                                \
    double hcc_cpu0_, hcc_wall0_, hcc_now_;                                                           \
    HCC_SPIN_READ_(CLOCK_THREAD_CPUTIME_ID, hcc_cpu0_);                                               \
    HCC_SPIN_READ_(CLOCK_MONOTONIC, hcc_wall0_);                                                      \
    for (;;) {                                                                                        \
      statement;                                                                                      \
      HCC_SPIN_READ_(CLOCK_THREAD_CPUTIME_ID, hcc_now_);                                              \
      if (hcc_now_ - hcc_cpu0_ >= (cpu)) break;                                                       \
      double hcc_used_ = hcc_now_ - hcc_cpu0_;                                                        \
      HCC_SPIN_READ_(CLOCK_MONOTONIC, hcc_now_);                                                      \
      if (hcc_now_ - hcc_wall0_ > HCC_SPIN_WALL_LIMIT) {                                              \
        fprintf(stderr, "%s: this thread got %.3f s of CPU in %.1f s of wall time; it needed %.3f s\n", \
                (who), hcc_used_, hcc_now_ - hcc_wall0_, (double)(cpu));                               \
        exit(3);                                                                                      \
      }                                                                                               \
    }                                                                                                 \
  } while (0)

#endif
