// hcc tracer — what the event service (trace_service.cpp) records and what
// the writer (otf2_writer.cpp) reads back.
//
// Each thread appends 16-byte records to its own buffer (HCC_TRACE_BUFFER
// bytes). A full buffer is written to the thread's spill file (one per
// thread, in a private directory under $TMPDIR) and reused; a buffer that
// cannot be written is counted as lost, never dropped silently. At the end
// the writer reads every thread's spill file and then its buffer, converts
// the records to OTF2 events and removes the spill files.
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace hcc::rt {
struct Node;
struct ThreadState;
}

namespace hcc::rt::trace {

enum Kind : uint32_t {
  kEnter = 0,       // region entered at t (the frame's start time in the profile)
  kLeave = 1,       // region left at t (the time the profile closes the frame at)
  kFlushBegin = 2,  // the buffer was written to the spill file from t ...
  kFlushEnd = 3,    // ... to t (after a kFlushBegin or a kLostBegin)
  kLostBegin = 4,   // records from t on (`region` of them) could not be written
};

struct Record {
  uint64_t t;       // clock ticks (runtime/core/clock.hpp)
  uint32_t region;  // descriptor value (region id + 1); for kLostBegin: records lost
  uint32_t kind;
};
static_assert(sizeof(Record) == 16, "a record is 16 bytes");

struct TraceThread {
  ThreadState *ts = nullptr;
  // --- written by the owning thread only, on every traced event ---
  Record *buf = nullptr;
  uint32_t n = 0;                      // records in buf
  std::atomic<uint32_t> published{0};  // = n after each record (release): what a reader may take
  // Per depth of the shadow stack: the node whose ENTER was traced there
  // (nullptr: none), so exits write a LEAVE exactly for traced enters.
  Node **traced = nullptr;
  uint8_t *selected = nullptr;         // that frame was an HCC_TRACE_SELECT region
  uint32_t traced_cap = 0;
  uint32_t inside = 0;                 // open traced HCC_TRACE_SELECT frames
  // --- flushing (rare), under `lock`; the writer takes it too ---
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  int spill_fd = -1;
  std::string spill_name;              // in the spill directory (trace_service.cpp)
  std::string spill_path;              // the same, for messages
  uint64_t spilled = 0;                // records in the spill file
  uint64_t flushes = 0;
  uint64_t flush_ticks = 0;            // time spent writing the spill file
  uint64_t lost = 0;                   // ENTER/LEAVE records that could not be written
};

// Records per buffer (HCC_TRACE_BUFFER / 16).
uint32_t buffer_records();

// Every thread that traced, in the order they started (a copy, under the lock).
std::vector<TraceThread *> trace_threads();

// Calls `f` with the thread's records in order: the spill file's (in chunks),
// then the buffer's published ones. Holds the thread's lock meanwhile, so the
// thread cannot flush. Returns false with `error` when the spill file cannot
// be read back (the records it holds are then counted as lost by the caller).
bool read_records(TraceThread *tt, const std::function<void(const Record *, size_t)> &f, std::string *error);

// Removes the spill files and their directory (after writing).
void remove_spill_files();

// Stops recording on every thread (the writer calls it before it reads).
void stop_recording();

}  // namespace hcc::rt::trace
