/* The stand-ins of pair_floor.sh time their own loop with the process's CPU
 * clock (user + system, so a busy machine's waiting is not counted; start-up,
 * a table's page faults and the profile written at exit are left out) and
 * report it on stderr, which pair_floor.sh reads; stdout carries only the
 * result, which must not change under instrumentation. Macros, not
 * functions: an instrumented build would time a function of this header. */
#pragma once
#include <stdio.h>
#include <time.h>

#define PAIR_CPU_NS()                                   \
  __extension__({                                       \
    struct timespec pair_ts_;                           \
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &pair_ts_); \
    (long long)pair_ts_.tv_sec * 1000000000LL + pair_ts_.tv_nsec; \
  })

/* Built with -DPAIR_RDTSC (plain, no hcc), each stand-in's function reads the
 * TSC where an instrumented one enters and exits: two bare rdtsc per call,
 * the floor of a timed pair in that very loop (in a loop that misses the
 * cache, the clock reads cost more than in BM_Rdtsc2: they hold back the
 * overlap of the misses). */
#ifdef PAIR_RDTSC
#define PAIR_RDTSC_READ()                                  \
  do {                                                     \
    unsigned long long pair_t_ = __builtin_ia32_rdtsc();   \
    __asm__ volatile("" : : "r"(pair_t_));                 \
  } while (0)
#else
#define PAIR_RDTSC_READ() \
  do {                    \
  } while (0)
#endif

/* "pair_floor: calls N cpu_ns T", the line pair_floor.sh parses. */
#define PAIR_REPORT(calls, ns) \
  fprintf(stderr, "pair_floor: calls %llu cpu_ns %lld\n", (unsigned long long)(calls), (long long)(ns))
