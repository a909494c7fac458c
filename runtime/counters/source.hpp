// hcc runtime — a source of counters for the HCC_METRICS service.
//
// The service (counter_service.cpp) does the call-path bookkeeping once; a
// source only knows how to name, check, start and read events. Two exist:
// PAPI (papi_source.cpp, loaded with dlopen) and the kernel's perf_event
// interface used directly (perf_source.cpp), which still counts where PAPI
// cannot, e.g. on a CPU that the distribution's libpfm4 does not know yet.
// Every call but read() is on a cold path.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace hcc::rt::counters {

// What the profile says about one accepted event.
struct EventDef {
  std::string name;   // metric name: as the user wrote it, or the source's canonical spelling
  std::string descr;  // long description
  std::string uom;    // unit ("#" when the source has none)
  bool estimate = false;  // scaled estimates (multiplexing): signed, may dip below 0
};

enum class Verdict {
  Counts,       // accepted: the source counts it, alone and with those added before
  Unknown,      // the source has no event of that name
  Unavailable,  // known, but it cannot be counted on this machine (alone)
  NotTogether,  // counts alone, not together with the events added before
};

class Source {
 public:
  virtual ~Source() = default;
  // How the profile names the source ("PAPI 7.0.0.0", "perf_event_open").
  virtual std::string label() const = 0;
  // Start-up, once: "" when the source can count at all, else why not (one
  // clause, naming the cause and what the user can do).
  virtual std::string open() = 0;
  // Tries `event` alone and then with every event accepted so far; keeps it
  // when it counts. `why` gets the source's own reason otherwise.
  virtual Verdict add(const std::string &event, EventDef *def, std::string *why) = 0;
  virtual int size() const = 0;  // events accepted
  // Whether the source knows the name at all: 1 yes, 0 no, -1 cannot tell.
  // Answers even when open() failed, where it can (PAPI's tables still name
  // its presets when its perf_event component is disabled).
  virtual int knows(const std::string &event) = 0;
  // Completes "'X' is …" for a name no source knows.
  virtual std::string unknown_hint() const = 0;
  // Events that really count here (each tried), for error messages.
  virtual std::vector<std::string> working_events() = 0;

  // Per thread: starts the accepted events for the calling thread only;
  // nullptr (and why) when they cannot be started.
  virtual void *thread_start(std::string *why) = 0;
  // Reads all accepted events of the calling thread's handle at once into
  // out[0 .. size()); false keeps the caller's previous reading.
  virtual bool read(void *handle, long long *out) = 0;
  // Stops counting and frees the thread's resources (file descriptors).
  virtual void thread_end(void *handle) = 0;
};

// /proc/sys/kernel/perf_event_paranoid, for messages; -1 when unknown.
int perf_event_paranoid();

// The longest event name any source is shown (PAPI_MAX_STR_LEN - 1): PAPI
// copies names into fixed buffers of PAPI_MAX_STR_LEN and overflows one with
// a long name (issue 28), so longer names are refused before a source sees them.
constexpr std::size_t kMaxEventName = 127;

// The unit of a kernel event that counts time: "ns" for perf::TASK-CLOCK
// and perf::CPU-CLOCK (any spelling perf_source knows, qualifiers such as
// ":u=0" ignored), else "". Both sources give these events this unit, so a
// metric's unit does not depend on which source counted it.
std::string kernel_time_unit(const std::string &event);

Source &papi_source();
void papi_request_multiplex(bool on);  // HCC_METRICS_MULTIPLEX, before open()
Source &perf_source();

}  // namespace hcc::rt::counters
