// hcc runtime — PAPI as a counter source for the HCC_METRICS service.
//
// libpapi is loaded with dlopen, only when HCC_METRICS asks for counters:
// programs that do not never load it, and libhcc works where PAPI is not
// installed. Each event is checked alone (PAPI's tables say "available" for
// events perf_event_open refuses in a VM, so a set is really started) and
// with the events accepted before it. One event set per thread, read with
// ONE PAPI_read.
#include <dlfcn.h>
#include <papi.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "io/regular_file.hpp"

#include "counters/source.hpp"

namespace hcc::rt::counters {
static_assert(kMaxEventName < PAPI_MAX_STR_LEN, "event names are checked against PAPI's buffers");
namespace {

// --- libpapi, loaded on demand -------------------------------------------

#define HCC_PAPI_FUNCTIONS(X)                                                          \
  X(PAPI_library_init) X(PAPI_thread_init) X(PAPI_multiplex_init) X(PAPI_register_thread) \
  X(PAPI_unregister_thread) X(PAPI_create_eventset) X(PAPI_add_events)                \
  X(PAPI_assign_eventset_component) X(PAPI_set_multiplex) X(PAPI_start) X(PAPI_stop)  \
  X(PAPI_read) X(PAPI_cleanup_eventset) X(PAPI_destroy_eventset)                      \
  X(PAPI_event_name_to_code) X(PAPI_event_code_to_name) X(PAPI_query_event)           \
  X(PAPI_get_event_info) X(PAPI_enum_event) X(PAPI_strerror)                          \
  X(PAPI_get_component_index) X(PAPI_get_component_info) X(PAPI_get_event_component)

struct Api {
#define HCC_PAPI_MEMBER(f) decltype(&::f) f = nullptr;
  HCC_PAPI_FUNCTIONS(HCC_PAPI_MEMBER)
#undef HCC_PAPI_MEMBER
};
Api P;

// Returns "" or why libpapi could not be loaded.
std::string load_papi() {
  void *h = nullptr;
  for (const char *so : {"libpapi.so.7.0", "libpapi.so.7", "libpapi.so"})
    if ((h = dlopen(so, RTLD_NOW | RTLD_LOCAL))) break;
  if (!h) {
    const char *e = dlerror();
    return std::string("libpapi could not be loaded (") + (e ? e : "not found") + "; install libpapi7.0)";
  }
#define HCC_PAPI_LOAD(f)                                                          \
  P.f = reinterpret_cast<decltype(&::f)>(dlsym(h, #f));                            \
  if (!P.f) return "libpapi has no " #f " (a PAPI older than 7 is not supported)";
  HCC_PAPI_FUNCTIONS(HCC_PAPI_LOAD)
#undef HCC_PAPI_LOAD
  return "";
}

constexpr int kMaxEvents = 32;
bool g_multiplex = false;

unsigned long thread_id() { return static_cast<unsigned long>(pthread_self()); }

std::string papi_error(int rc) {
  const char *s = P.PAPI_strerror ? P.PAPI_strerror(rc) : nullptr;
  return s ? s : "PAPI error " + std::to_string(rc);
}

// An event set holding `codes`, started; PAPI_NULL and `why` on failure.
int make_started_set(const int *codes, int n, std::string *why) {
  int es = PAPI_NULL;
  int rc = P.PAPI_create_eventset(&es);
  if (rc == PAPI_OK && g_multiplex && n > 0) {
    // A multiplexed set must know its component before it is converted.
    rc = P.PAPI_assign_eventset_component(es, P.PAPI_get_event_component(codes[0]));
    if (rc == PAPI_OK) rc = P.PAPI_set_multiplex(es);
  }
  if (rc == PAPI_OK) rc = P.PAPI_add_events(es, const_cast<int *>(codes), n);
  if (rc == PAPI_OK) rc = P.PAPI_start(es);
  if (rc != PAPI_OK) {
    if (why) *why = papi_error(rc);
    if (es != PAPI_NULL) {
      P.PAPI_cleanup_eventset(es);
      P.PAPI_destroy_eventset(&es);
    }
    return PAPI_NULL;
  }
  return es;
}

void drop_set(int es) {
  long long junk[kMaxEvents];
  P.PAPI_stop(es, junk);
  P.PAPI_cleanup_eventset(es);
  P.PAPI_destroy_eventset(&es);
}

bool counts(const int *codes, int n, std::string *why = nullptr) {
  int es = make_started_set(codes, n, why);
  if (es == PAPI_NULL) return false;
  drop_set(es);
  return true;
}

// "AuthenticAMD family 0x1a model 0x2", from /proc/cpuinfo; "" if unknown.
std::string cpu_identity() {
  std::string text;
  if (!io::read_regular_file("/proc/cpuinfo", io::kProcFileLimit, text)) return "";
  std::string vendor;
  int family = -1, model = -1;
  std::istringstream lines(text);
  for (std::string line; (vendor.empty() || family < 0 || model < 0) && std::getline(lines, line);) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    const char *val = line.c_str() + colon + 1 + std::strspn(line.c_str() + colon + 1, " \t");
    if (key == "vendor_id") vendor = val;
    else if (key == "cpu family") family = std::atoi(val);
    else if (key == "model") model = std::atoi(val);
  }
  if (vendor.empty() || family < 0) return "";
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s family 0x%x model 0x%x", vendor.c_str(), unsigned(family), unsigned(model));
  return buf;
}

// Why PAPI's perf_event component is disabled, in the user's terms: the
// cause and what can be done. PAPI only gives a terse reason string.
std::string disabled_because(const char *papi_reason) {
  const std::string r = papi_reason ? papi_reason : "";
  std::string out = "PAPI cannot count here: its perf_event component is disabled (\"" + r + "\")";
  if (r.find("libpfm4") != std::string::npos || r.find("PMU") != std::string::npos) {
    const std::string cpu = cpu_identity();
    out += ": the libpfm4 that PAPI uses does not know this CPU" + (cpu.empty() ? "" : " (" + cpu + ")") +
           "; its hardware events need a newer libpfm4/PAPI, perf:: events are counted without PAPI";
  } else if (r.find("aranoid") != std::string::npos || r.find("ermission") != std::string::npos) {
    if (const int level = perf_event_paranoid(); level != -1)
      out += ": /proc/sys/kernel/perf_event_paranoid is " + std::to_string(level) +
             " (2 or less lets a user count its own threads)";
  }
  return out;
}

class PapiSource final : public Source {
 public:
  std::string label() const override { return label_; }

  std::string open() override {
    std::string why = load_papi();
    if (why.empty()) {
      int v = P.PAPI_library_init(PAPI_VER_CURRENT);
      if (v != PAPI_VER_CURRENT)
        why = "PAPI could not be initialised (" + (v > 0 ? std::string("version mismatch") : papi_error(v)) + ")";
      else
        initialised_ = true;
    }
    if (why.empty() && P.PAPI_thread_init(thread_id) != PAPI_OK) why = "PAPI thread support could not be initialised";
    if (why.empty() && g_multiplex && P.PAPI_multiplex_init() != PAPI_OK) why = "PAPI multiplexing could not be initialised";
    if (why.empty()) {
      // perf_event is PAPI's CPU component; disabled it counts nothing, not
      // even the kernel's software events.
      int cidx = P.PAPI_get_component_index("perf_event");
      const PAPI_component_info_t *ci = cidx >= 0 ? P.PAPI_get_component_info(cidx) : nullptr;
      if (ci && ci->disabled) why = disabled_because(ci->disabled_reason);
    }
    if (why.empty() && g_multiplex) check_multiplex();
    if (why.empty()) {
      char v[32];
      std::snprintf(v, sizeof v, "PAPI %d.%d.%d", PAPI_VERSION_MAJOR(PAPI_VERSION), PAPI_VERSION_MINOR(PAPI_VERSION),
                    PAPI_VERSION_REVISION(PAPI_VERSION));
      label_ = v;
    }
    return why;
  }

  int knows(const std::string &event) override {
    int code;
    if (!initialised_) return -1;
    return P.PAPI_event_name_to_code(event.c_str(), &code) == PAPI_OK ? 1 : 0;
  }

  std::string unknown_hint() const override { return "not a PAPI event name (papi_avail, papi_native_avail)"; }

  Verdict add(const std::string &event, EventDef *def, std::string *why) override {
    int code = 0;
    if (P.PAPI_event_name_to_code(event.c_str(), &code) != PAPI_OK) return Verdict::Unknown;
    std::string alone_why;
    if (P.PAPI_query_event(code) != PAPI_OK || !counts(&code, 1, &alone_why)) {
      // A preset when no preset counts here: the CPU's counters are not
      // exposed (a VM, a container); else PAPI's own reason.
      const bool preset = (code & PAPI_PRESET_MASK) != 0;
      working_events();  // also counts the presets that work here
      *why = preset && presets_available_ == 0 ? "no hardware counters exposed"
                                               : (alone_why.empty() ? "PAPI lists it as unavailable" : "PAPI: " + alone_why);
      return Verdict::Unavailable;
    }
    std::vector<int> all(codes_);
    all.push_back(code);
    if (!counts(all.data(), int(all.size()))) {
      *why = g_multiplex ? "PAPI cannot count them together" : "too few counters? HCC_METRICS_MULTIPLEX=1 may help";
      return Verdict::NotTogether;
    }
    char canonical[PAPI_HUGE_STR_LEN];
    def->name = P.PAPI_event_code_to_name(code, canonical) == PAPI_OK ? canonical : event;
    PAPI_event_info_t info;
    std::memset(&info, 0, sizeof info);
    P.PAPI_get_event_info(code, &info);
    def->uom = info.units[0] ? info.units : "#";
    // PAPI gives the kernel's clock events no unit; they count nanoseconds,
    // and perf_source says so: one unit whichever source counts them.
    if (const std::string unit = kernel_time_unit(def->name); !unit.empty()) def->uom = unit;
    def->descr = info.long_descr[0] ? info.long_descr : (info.short_descr[0] ? info.short_descr : def->name);
    if (g_multiplex) def->descr = "Estimate (PAPI multiplexing, scaled by time counted): " + def->descr;
    // Multiplexed estimates are scaled and not monotonic, so a child can
    // exceed its parent by a little: signed then, so a slightly negative
    // exclusive value stays visible.
    def->estimate = g_multiplex;
    codes_.push_back(code);
    return Verdict::Counts;
  }

  int size() const override { return int(codes_.size()); }

  // papi_avail-style: a handful of presets and the software events that
  // really count here (each one tried).
  std::vector<std::string> working_events() override {
    if (presets_available_ >= 0) return working_;
    presets_available_ = 0;
    int code = PAPI_PRESET_MASK;
    if (P.PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK) {
      do {
        if (P.PAPI_query_event(code) != PAPI_OK || !counts(&code, 1)) continue;
        ++presets_available_;
        char name[PAPI_MAX_STR_LEN];
        if (working_.size() < 6 && P.PAPI_event_code_to_name(code, name) == PAPI_OK) working_.push_back(name);
      } while (presets_available_ <= 6 && P.PAPI_enum_event(&code, PAPI_PRESET_ENUM_AVAIL) == PAPI_OK);
    }
    if (presets_available_ > 6) working_.push_back("… (papi_avail -a)");
    for (const char *sw : {"perf::TASK-CLOCK", "perf::CPU-CLOCK", "perf::PAGE-FAULTS", "perf::MINOR-FAULTS",
                           "perf::MAJOR-FAULTS", "perf::CONTEXT-SWITCHES", "perf::CPU-MIGRATIONS"}) {
      int c;
      if (P.PAPI_event_name_to_code(sw, &c) == PAPI_OK && counts(&c, 1)) working_.push_back(sw);
    }
    return working_;
  }

  void *thread_start(std::string *why) override {
    P.PAPI_register_thread();
    int es = make_started_set(codes_.data(), int(codes_.size()), why);
    if (es == PAPI_NULL) {
      P.PAPI_unregister_thread();
      return nullptr;
    }
    return new int(es);
  }

  bool read(void *handle, long long *out) override {
    return P.PAPI_read(*static_cast<int *>(handle), out) == PAPI_OK;
  }

  void thread_end(void *handle) override {
    drop_set(*static_cast<int *>(handle));
    P.PAPI_unregister_thread();
  }

 private:
  // PAPI_set_multiplex fails where no hardware counters are exposed (seen in
  // a KVM guest: "Event does not exist" even for an empty set). Count
  // without it then: the events may still fit; if not, add() says so.
  void check_multiplex() {
    int es = PAPI_NULL, cidx = P.PAPI_get_component_index("perf_event");
    int rc = P.PAPI_create_eventset(&es);
    if (rc == PAPI_OK) rc = P.PAPI_assign_eventset_component(es, cidx >= 0 ? cidx : 0);
    if (rc == PAPI_OK) rc = P.PAPI_set_multiplex(es);
    if (es != PAPI_NULL) {
      P.PAPI_cleanup_eventset(es);
      P.PAPI_destroy_eventset(&es);
    }
    if (rc != PAPI_OK) {
      std::fprintf(stderr, "hcc: warning: HCC_METRICS_MULTIPLEX=1: PAPI cannot multiplex here (%s); counting without multiplexing\n",
                   papi_error(rc).c_str());
      g_multiplex = false;
    }
  }

  std::string label_ = "PAPI";
  bool initialised_ = false;
  std::vector<int> codes_;
  int presets_available_ = -1;  // presets that really count here (-1: not yet known)
  std::vector<std::string> working_;
};

}  // namespace

void papi_request_multiplex(bool on) { g_multiplex = on; }

Source &papi_source() {
  static auto *s = new PapiSource;  // leaked: used until the last thread ends
  return *s;
}

}  // namespace hcc::rt::counters
