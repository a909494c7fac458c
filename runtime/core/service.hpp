// hcc runtime — the C entry points for measurement services that live in
// their own shared library (libhcc_mpi.so: the PMPI wrappers).
//
// libhcc exports only `hcc_*` (exports.map), and its thread state is
// initial-exec TLS that no other library can reach, so a service cannot call
// the C++ internals directly: these few functions are its whole interface.
// Profiles cross the boundary as hcc::profile::Profile (plain data; both
// sides compile the same header with the same compiler).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cube/profile.hpp"
#include "hcc/region.h"

extern "C" {

// Registers an exclusive UInt64 counter metric (amounts are added where they
// happen). Returns its counter index, or -1 once a region was entered (too
// late: existing call-path nodes have no room for it).
int hcc_svc_register_counter(const char *uniq_name, const char *disp_name, const char *uom,
                             const char *descr);

// Adds `amount` to counter `k` of the calling thread's current call path
// (the top frame; nothing when the thread never entered a region).
void hcc_svc_count(uint32_t k, uint64_t amount);

// Starts the runtime now (reads HCC_*, calibrates the clock) if no region
// did yet, so run information and the output directory can be used.
void hcc_svc_init(void);

// Takes over the one finalize: returns 1 for the first caller. Until the
// caller says hcc_svc_claimed_finalize_done(), the runtime's own finalize (a
// fatal signal, std::terminate, the library destructor) still writes this
// process's own profile, under the file tag set at the claim: an MPI rank
// killed by the launcher while the merge waits for a rank that died keeps
// its data. After it, the runtime writes nothing.
int hcc_svc_claim_finalize(void);
void hcc_svc_claimed_finalize_done(void);

// After a SIGTERM has written this process's profile, wait up to
// `milliseconds` (0: not at all, the default) for a SIGKILL before dying of
// the SIGTERM: Open MPI's mpirun sends every rank SIGTERM and then SIGKILL
// as soon as any one of them exits, cutting short the others' writing.
void hcc_svc_linger_after_sigterm(int milliseconds);

// An attribute only this process's own profile carries (the runtime's
// finalize, hcc_svc_finalize_local), not hcc_svc_build_local_profile's;
// "" or NULL removes it. libhcc_mpi: "mpi rank", "mpi ranks".
void hcc_svc_set_own_file_attr(const char *key, const char *value);

// The runtime's normal finalize: this process's profile, written now (once).
void hcc_svc_finalize_local(void);

// This process's threads merged into one profile (see profile_builder.hpp);
// with HCC_GPROF=1 also writes this process's gmon.out.<tag> (gmon_out.hpp).
void hcc_svc_build_local_profile(hcc::profile::Profile *out);

// Writes `p` like the runtime does at exit; returns 1 when written.
int hcc_svc_write_profile(const hcc::profile::Profile *p);

// The same for a .cubex too large to build in memory (HCC_LOCATIONS, the MPI
// merge at many ranks): `body` writes it into the new empty file `fd`
// (`shown` names it in messages) and fills `text` with the profile
// summary.txt is made of; it returns 0 on success, else an error it printed.
// `body` is called exactly once, with fd -1 when no directory could be
// opened (it must still take in what other processes send it). Returns 1
// when written.
typedef int (*hcc_svc_stream_body)(int fd, const char *shown, void *ctx, hcc::profile::Profile *text);
int hcc_svc_write_profile_streamed(hcc_svc_stream_body body, void *ctx);

// File names become profile.<tag>.cubex / summary.<tag>.txt ("" = none).
void hcc_svc_set_file_tag(const char *tag);

// Chooses and creates the output directory (once per process) and copies
// its absolute path into buf (NUL-terminated); returns the path's length,
// 0 when it could not be created.
size_t hcc_svc_prepare_output_dir(char *buf, size_t size);

// Later writes go to `dir`; it is created only when something is written.
void hcc_svc_use_output_dir(const char *dir);

// Collective operations over the processes of a job, for writing one OTF2
// archive from all of them (libhcc_mpi implements them with PMPI on its own
// communicator; a single process uses trivial ones). Sizes are in bytes;
// arrays of sizes and the receive buffers matter at `root` only (gather)
// or the send buffers and sizes at `root` only (scatter). Each returns 0 on
// success. A collective must be entered by every process, in the same order.
struct hcc_svc_collectives {
  void *ctx;
  int rank, size;
  int (*barrier)(void *ctx);
  int (*bcast)(void *ctx, void *data, uint64_t bytes, int root);
  int (*gather)(void *ctx, const void *in, void *out, uint64_t bytes_each, int root);
  int (*gatherv)(void *ctx, const void *in, uint64_t in_bytes, void *out, const uint64_t *out_bytes, int root);
  int (*scatter)(void *ctx, const void *in, void *out, uint64_t bytes_each, int root);
  int (*scatterv)(void *ctx, const void *in, const uint64_t *in_bytes, void *out, uint64_t out_bytes, int root);
};

// HCC_TRACE: writes this process's part of the one OTF2 archive of the job
// now (collective over `c`: every process must call it, tracing or not) and
// stops tracing; the later profile build writes no trace then. Rank 0 writes
// the unified global definitions. Without HCC_TRACE every process still
// takes part in the first step, which finds that nobody traces.
void hcc_svc_write_trace(const struct hcc_svc_collectives *c);

// An MPI wrapper's enter/exit of its region (runtime/sampling/mpi_callpath.cpp):
// hcc_enter/hcc_exit, and with HCC_SAMPLING on and HCC_MPI_UNWIND not off,
// the frames between the innermost instrumented function and the wrapper
// unwound and pushed as sampled regions first (popped after the exit), so
// the call finds its call path without function instrumentation.
void hcc_svc_mpi_enter(hcc_region_desc *d);
void hcc_svc_mpi_exit(hcc_region_desc *d);

// With HCC_SAMPLING on: the frames between the innermost instrumented
// function and the caller's caller (hcc's own frames skipped) unwound and
// pushed as sampled regions with no visits, outermost first; their
// descriptors into out[0..max). Returns how many (0 with sampling off). The
// caller pops them with hcc_exit, innermost first. An OpenMP fork uses it
// (pomp/team.cpp), so a construct in code nothing instrumented finds its
// call path as an MPI call does.
uint32_t hcc_svc_push_caller_frames(hcc_region_desc **out, uint32_t max);

// HCC_SNAPSHOT: 1 holds snapshots back (libhcc_mpi, when it loads: the
// job's output directory is only known after MPI_Init), 0 lets them go.
void hcc_svc_hold_snapshots(int hold);

}  // extern "C"
