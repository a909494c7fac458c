// See synthetic_archive.hpp. Linked against the OTF2 library itself (the
// tests need no dlopen: they run where the trace tests are built).
#include "synthetic_archive.hpp"

#include <otf2/otf2.h>

#include <stdexcept>

namespace hcc::trace_test {

namespace {

OTF2_FlushType pre_flush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool) { return OTF2_FLUSH; }
const OTF2_FlushCallbacks kFlush = {pre_flush, nullptr};

void check(OTF2_ErrorCode rc, const char *what) {
  if (rc != OTF2_SUCCESS) throw std::runtime_error(std::string("OTF2: ") + what + ": " + OTF2_Error_GetName(rc));
}

}  // namespace

SyntheticArchive write_synthetic_archive(const std::string &dir, int locations, uint64_t visits_per_location,
                                         uint64_t tick) {
  if (visits_per_location < 2) throw std::invalid_argument("at least the two enclosing visits");
  OTF2_Archive *a = OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                      OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!a) throw std::runtime_error("OTF2_Archive_Open failed in " + dir);
  check(OTF2_Archive_SetFlushCallbacks(a, &kFlush, nullptr), "flush callbacks");
  check(OTF2_Archive_SetSerialCollectiveCallbacks(a), "collective callbacks");
  check(OTF2_Archive_OpenEvtFiles(a), "event files");
  enum : OTF2_RegionRef { kOuter, kMiddle, kLeaf };
  uint64_t t = 1000;
  for (int l = 0; l < locations; ++l) {
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, static_cast<OTF2_LocationRef>(l));
    if (!w) throw std::runtime_error("no event writer");
    check(OTF2_EvtWriter_Enter(w, nullptr, (t += tick), kOuter), "enter");
    check(OTF2_EvtWriter_Enter(w, nullptr, (t += tick), kMiddle), "enter");
    for (uint64_t v = 2; v < visits_per_location; ++v) {
      check(OTF2_EvtWriter_Enter(w, nullptr, (t += tick), kLeaf), "enter");
      check(OTF2_EvtWriter_Leave(w, nullptr, (t += tick), kLeaf), "leave");
    }
    check(OTF2_EvtWriter_Leave(w, nullptr, (t += tick), kMiddle), "leave");
    check(OTF2_EvtWriter_Leave(w, nullptr, (t += tick), kOuter), "leave");
    check(OTF2_Archive_CloseEvtWriter(a, w), "close event writer");
  }
  check(OTF2_Archive_CloseEvtFiles(a), "close event files");
  check(OTF2_Archive_OpenDefFiles(a), "definition files");
  for (int l = 0; l < locations; ++l)
    if (OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, static_cast<OTF2_LocationRef>(l)))
      check(OTF2_Archive_CloseDefWriter(a, d), "close definition writer");
  check(OTF2_Archive_CloseDefFiles(a), "close definition files");

  OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
  if (!g) throw std::runtime_error("no global definition writer");
  check(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, t + 1, OTF2_UNDEFINED_TIMESTAMP), "clock");
  const char *strings[] = {"outer", "middle", "leaf", "", "machine", "node", "process 0", "thread"};
  for (uint32_t s = 0; s < sizeof strings / sizeof *strings; ++s)
    check(OTF2_GlobalDefWriter_WriteString(g, s, strings[s]), "string");
  for (OTF2_RegionRef r : {kOuter, kMiddle, kLeaf})
    check(OTF2_GlobalDefWriter_WriteRegion(g, r, r, r, 3, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER,
                                           OTF2_REGION_FLAG_NONE, 3, 0, 0),
          "region");
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 4, 5, OTF2_UNDEFINED_SYSTEM_TREE_NODE), "system tree");
  check(OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, 6, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                OTF2_UNDEFINED_LOCATION_GROUP),
        "location group");
  for (int l = 0; l < locations; ++l)
    check(OTF2_GlobalDefWriter_WriteLocation(g, static_cast<OTF2_LocationRef>(l), 7, OTF2_LOCATION_TYPE_CPU_THREAD,
                                             2 * visits_per_location, 0),
          "location");
  check(OTF2_Archive_Close(a), "close archive");
  return {dir + "/traces.otf2", dir + "/traces/0.evt", visits_per_location * static_cast<uint64_t>(locations)};
}

}  // namespace hcc::trace_test
