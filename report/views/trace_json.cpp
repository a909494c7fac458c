// hcc-report --trace-json (see trace_json.hpp). The OTF2 library is loaded
// with dlopen (otf2_api/otf2_api.hpp), the loader libhcc uses too.
#include "trace_json.hpp"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "otf2_api/otf2_api.hpp"
#include "trace_archive.hpp"

namespace hcc::report {

namespace {

struct Frame {
  OTF2_RegionRef region;
  uint64_t t;
};

struct Location {
  uint64_t group = 0;
  uint64_t tid = 0;
  std::string name;
  std::vector<Frame> open;
  uint64_t last_t = 0;  // events on one location never go back in time
};

// Every OTF2 record is at least two bytes (its type and one byte of a
// compressed field), so a file can hold no more records than half its
// size. More means OTF2 is reading something again: an event file cut at a
// chunk boundary makes the global event reader start the chunk over, for
// ever (issue 40).
constexpr uint64_t kMinRecordBytes = 2;
// Records handed to the callbacks per call: the budget is checked between
// batches, the order of time inside them.
constexpr uint64_t kBatch = 1 << 16;

struct State {
  const otf2::Api *api = nullptr;
  std::ostream *out = nullptr;
  std::unordered_map<OTF2_StringRef, std::string> strings;
  std::unordered_map<OTF2_RegionRef, std::pair<OTF2_StringRef, OTF2_Paradigm>> regions;
  std::map<OTF2_LocationGroupRef, OTF2_StringRef> groups;
  std::map<OTF2_LocationRef, Location> locations;
  std::map<OTF2_LocationGroupRef, uint64_t> threads_in_group;
  uint64_t resolution = 1, offset = 0, length = 0;
  TraceJsonCounts counts;
  bool first = true;
  std::string damage;  // why reading stopped early: time went back on a location
};

std::string json_string(const std::string &s) {
  std::string o = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      default:
        if (ch < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", ch);
          o += buf;
        } else {
          o += char(ch);
        }
    }
  }
  return o + "\"";
}

const char *paradigm_name(OTF2_Paradigm p) {
  switch (p) {
    case OTF2_PARADIGM_COMPILER: return "compiler";
    case OTF2_PARADIGM_USER: return "user";
    case OTF2_PARADIGM_OPENMP: return "openmp";
    case OTF2_PARADIGM_MPI: return "mpi";
    case OTF2_PARADIGM_MEASUREMENT_SYSTEM: return "measurement";
    case OTF2_PARADIGM_PTHREAD: return "pthread";
    default: return "other";
  }
}

// Microseconds since the first event, with nanosecond digits.
std::string micros(const State &s, uint64_t ticks_since_start) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f", double(ticks_since_start) * 1e6 / double(s.resolution));
  return buf;
}

void emit(State &s, const std::string &event) {
  *s.out << (s.first ? "\n" : ",\n") << event;
  s.first = false;
}

void complete(State &s, const Location &loc, const Frame &f, uint64_t end) {
  auto r = s.regions.find(f.region);
  std::string name = "region " + std::to_string(f.region);
  const char *cat = "other";
  if (r != s.regions.end()) {
    name = s.strings[r->second.first];
    cat = paradigm_name(r->second.second);
  }
  const uint64_t start = f.t >= s.offset ? f.t - s.offset : 0;
  emit(s, "{\"name\":" + json_string(name) + ",\"cat\":\"" + cat + "\",\"ph\":\"X\",\"ts\":" + micros(s, start) +
              ",\"dur\":" + micros(s, end >= f.t ? end - f.t : 0) + ",\"pid\":" + std::to_string(loc.group) +
              ",\"tid\":" + std::to_string(loc.tid) + "}");
  ++s.counts.events;
}

// --- OTF2 callbacks ---------------------------------------------------------

OTF2_CallbackCode on_string(void *u, OTF2_StringRef self, const char *text) {
  static_cast<State *>(u)->strings[self] = text ? text : "";
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_region(void *u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t,
                            uint32_t) {
  static_cast<State *>(u)->regions[self] = {name, paradigm};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_group(void *u, OTF2_LocationGroupRef self, OTF2_StringRef name, OTF2_LocationGroupType,
                           OTF2_SystemTreeNodeRef, OTF2_LocationGroupRef) {
  static_cast<State *>(u)->groups[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_location(void *u, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType, uint64_t,
                              OTF2_LocationGroupRef group) {
  auto *s = static_cast<State *>(u);
  Location &l = s->locations[self];
  l.group = group;
  l.tid = s->threads_in_group[group]++;  // threads numbered within their process, in definition order
  l.name = s->strings[name];
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_clock(void *u, uint64_t resolution, uint64_t offset, uint64_t length, uint64_t) {
  auto *s = static_cast<State *>(u);
  s->resolution = resolution ? resolution : 1;
  s->offset = offset;
  s->length = length;
  return OTF2_CALLBACK_SUCCESS;
}
// False, with the reason kept, when `t` is before the location's previous
// event: a well-formed archive never goes back in time on one location,
// and a reader that starts a chunk over does at once.
bool in_order(State &s, OTF2_LocationRef loc, Location &l, OTF2_TimeStamp t) {
  if (t >= l.last_t) {
    l.last_t = t;
    return true;
  }
  s.damage = "time goes back on location " + std::to_string(loc) + " after " +
             std::to_string(s.counts.events) + " events (" + std::to_string(t) + " after " +
             std::to_string(l.last_t) + ")";
  return false;
}

OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u, OTF2_AttributeList *, OTF2_RegionRef r) {
  auto *s = static_cast<State *>(u);
  Location &l = s->locations[loc];
  if (!in_order(*s, loc, l, t)) return OTF2_CALLBACK_INTERRUPT;
  l.open.push_back({r, t});
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u, OTF2_AttributeList *, OTF2_RegionRef r) {
  auto *s = static_cast<State *>(u);
  Location &l = s->locations[loc];
  if (!in_order(*s, loc, l, t)) return OTF2_CALLBACK_INTERRUPT;
  // Well-formed traces close the innermost frame; otherwise close down to
  // the matching one (each frame above it ends here too).
  size_t k = l.open.size();
  while (k > 0 && l.open[k - 1].region != r) --k;
  if (k == 0) {
    ++s->counts.unmatched;
    return OTF2_CALLBACK_SUCCESS;
  }
  while (l.open.size() >= k) {
    complete(*s, l, l.open.back(), t);
    l.open.pop_back();
  }
  return OTF2_CALLBACK_SUCCESS;
}

// OTF2 prints each error it meets on stderr, several lines per problem;
// hcc-report keeps the first one's text for its own one-line message.
std::string g_first_otf2_error;

OTF2_ErrorCode keep_first_error(void *, const char *, uint64_t, const char *, OTF2_ErrorCode code,
                                const char *format, va_list va) {
  if (g_first_otf2_error.empty() && format) {
    char buf[512];
    std::vsnprintf(buf, sizeof buf, format, va);
    g_first_otf2_error = buf;
  }
  return code;
}

// "; OTF2 said: This is no chunk header!" when OTF2 said something.
std::string otf2_said() {
  std::string said = g_first_otf2_error.empty() ? std::string() : "; OTF2 said: " + g_first_otf2_error;
  for (char &c : said)
    if (c == '\n' || c == '\r') c = ' ';
  return said;
}

void check(const otf2::Api &api, OTF2_ErrorCode rc, const std::string &what) {
  if (rc != OTF2_SUCCESS) throw std::runtime_error(what + ": " + otf2::error_text(api, rc) + otf2_said());
}

// Reads records (events or definitions) in batches of kBatch with `step`
// (OTF2_Reader_Read…(reader, r, n, &got)) until a batch comes back short:
// within `budget` records, which the files' sizes allow, and throws at a
// damaged archive naming what was seen. `damage` is what a callback found.
template <typename Step>
void read_bounded(const otf2::Api &api, const std::string &what, uint64_t budget, uint64_t file_bytes,
                  const std::string &damage, Step step) {
  const std::string damaged = what + ": a damaged or truncated archive: ";
  uint64_t read = 0;
  for (;;) {
    uint64_t got = 0;
    const OTF2_ErrorCode rc = step(kBatch, &got);
    read += got;
    if (!damage.empty()) throw std::runtime_error(damaged + damage);
    if (rc != OTF2_SUCCESS)
      throw std::runtime_error(damaged + "reading failed after " + std::to_string(read) + " records (" +
                               otf2::error_text(api, rc) + otf2_said() + ")");
    if (read > budget)
      throw std::runtime_error(damaged + "more than the " + std::to_string(budget) + " records that " +
                               std::to_string(file_bytes) + " bytes can hold were read");
    if (got < kBatch) return;
  }
}

}  // namespace

TraceJsonCounts write_trace_json(const std::string &anchor, std::ostream &out) {
  // Before OTF2 opens any file by name: a FIFO would make it wait for ever.
  const TraceArchiveFiles files = check_trace_archive(anchor);
  std::string why;
  const otf2::Api *api = otf2::load(&why);
  if (!api) throw std::runtime_error("cannot read OTF2 traces: " + why);
  api->OTF2_Error_RegisterCallback(keep_first_error, nullptr);
  g_first_otf2_error.clear();
  OTF2_Reader *reader = api->OTF2_Reader_Open(anchor.c_str());
  if (!reader) throw std::runtime_error(anchor + " is not a readable OTF2 archive");
  struct Closer {
    const otf2::Api *api;
    OTF2_Reader *r;
    ~Closer() { api->OTF2_Reader_Close(r); }
  } closer{api, reader};
  check(*api, api->OTF2_Reader_SetSerialCollectiveCallbacks(reader), anchor);

  State s;
  s.api = api;
  s.out = &out;
  OTF2_GlobalDefReader *gdr = api->OTF2_Reader_GetGlobalDefReader(reader);
  if (!gdr) throw std::runtime_error(anchor + ": no global definitions");
  OTF2_GlobalDefReaderCallbacks *dcb = api->OTF2_GlobalDefReaderCallbacks_New();
  api->OTF2_GlobalDefReaderCallbacks_SetStringCallback(dcb, on_string);
  api->OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dcb, on_region);
  api->OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(dcb, on_group);
  api->OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dcb, on_location);
  api->OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dcb, on_clock);
  api->OTF2_Reader_RegisterGlobalDefCallbacks(reader, gdr, dcb, &s);
  api->OTF2_GlobalDefReaderCallbacks_Delete(dcb);
  read_bounded(*api, anchor + ": global definitions", files.global_def_bytes / kMinRecordBytes,
               files.global_def_bytes, s.damage,
               [&](uint64_t n, uint64_t *got) { return api->OTF2_Reader_ReadGlobalDefinitions(reader, gdr, n, got); });
  api->OTF2_Reader_CloseGlobalDefReader(reader, gdr);

  out << "{\"traceEvents\":[";
  for (const auto &[id, name] : s.groups)
    emit(s, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + std::to_string(id) + ",\"args\":{\"name\":" +
                json_string(s.strings[name]) + "}}");
  for (const auto &[id, l] : s.locations) {
    emit(s, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" + std::to_string(l.group) +
                ",\"tid\":" + std::to_string(l.tid) + ",\"args\":{\"name\":" + json_string(l.name) + "}}");
    check(*api, api->OTF2_Reader_SelectLocation(reader, id), anchor);
  }
  s.counts.locations = s.locations.size();

  // Local definitions carry the mapping tables of traces that have them
  // (Score-P's); OTF2 applies them while reading events.
  // Their budget is shared: all local definition files' records together.
  if (api->OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS) {
    uint64_t local_budget = files.local_def_bytes / kMinRecordBytes;
    for (const auto &[id, l] : s.locations) {
      if (OTF2_DefReader *dr = api->OTF2_Reader_GetDefReader(reader, id)) {
        uint64_t read = 0;
        read_bounded(*api, anchor + ": local definitions of location " + std::to_string(id), local_budget,
                     files.local_def_bytes, s.damage, [&](uint64_t n, uint64_t *got) {
                       const OTF2_ErrorCode rc = api->OTF2_Reader_ReadLocalDefinitions(reader, dr, n, got);
                       read += *got;
                       return rc;
                     });
        local_budget -= read;
        api->OTF2_Reader_CloseDefReader(reader, dr);
      }
    }
    api->OTF2_Reader_CloseDefFiles(reader);
  }
  check(*api, api->OTF2_Reader_OpenEvtFiles(reader), anchor + ": event files");
  for (const auto &[id, l] : s.locations) api->OTF2_Reader_GetEvtReader(reader, id);
  g_first_otf2_error.clear();  // what the optional local definitions cost is not the events' problem
  OTF2_GlobalEvtReader *ger = api->OTF2_Reader_GetGlobalEvtReader(reader);
  // OTF2 reads each location's first chunk here: a cut file fails already.
  if (!ger) throw std::runtime_error(anchor + ": a damaged or truncated archive: cannot start reading the events" + otf2_said());
  OTF2_GlobalEvtReaderCallbacks *ecb = api->OTF2_GlobalEvtReaderCallbacks_New();
  api->OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ecb, on_enter);
  api->OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ecb, on_leave);
  api->OTF2_Reader_RegisterGlobalEvtCallbacks(reader, ger, ecb, &s);
  api->OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
  read_bounded(*api, anchor, files.event_bytes / kMinRecordBytes, files.event_bytes, s.damage,
               [&](uint64_t n, uint64_t *got) { return api->OTF2_Reader_ReadGlobalEvents(reader, ger, n, got); });
  api->OTF2_Reader_CloseGlobalEvtReader(reader, ger);
  api->OTF2_Reader_CloseEvtFiles(reader);

  // Visits still open when the trace ends (a truncated trace) end there.
  for (auto &[id, l] : s.locations)
    while (!l.open.empty()) {
      complete(s, l, l.open.back(), s.offset + s.length);
      l.open.pop_back();
    }
  out << "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":" << json_string(anchor) << "}}\n";
  return s.counts;
}

}  // namespace hcc::report
