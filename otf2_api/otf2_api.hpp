// hcc — the OTF2 library, loaded with dlopen only when it is needed.
//
// libhcc must run where OTF2 is not installed: programs that do not trace
// never load it (like PAPI for the counter service), and a program run with
// HCC_TRACE=1 on a machine without it is told so and runs untraced.
// hcc-report loads it the same way for --trace-json. Only the header
// (libotf2-trace-dev) is needed at build time; the functions are declared
// there, and every one we call is listed once in HCC_OTF2_FUNCTIONS.
#pragma once

#include <otf2/otf2.h>

#include <string>

#if !defined(OTF2_VERSION_MAJOR) || OTF2_VERSION_MAJOR < 3
#error "hcc needs the OTF2 3.x headers (Debian: libotf2-trace-dev)"
#endif

namespace hcc::otf2 {

#define HCC_OTF2_FUNCTIONS(X)                        \
  X(OTF2_Error_GetName)                              \
  X(OTF2_Error_GetDescription)                       \
  X(OTF2_Error_RegisterCallback)                     \
  X(OTF2_Archive_Open)                               \
  X(OTF2_Archive_Close)                              \
  X(OTF2_Archive_SetFlushCallbacks)                  \
  X(OTF2_Archive_SetCollectiveCallbacks)             \
  X(OTF2_Archive_SetCreator)                         \
  X(OTF2_Archive_SetDescription)                     \
  X(OTF2_Archive_SetMachineName)                     \
  X(OTF2_Archive_OpenEvtFiles)                       \
  X(OTF2_Archive_CloseEvtFiles)                      \
  X(OTF2_Archive_GetEvtWriter)                       \
  X(OTF2_Archive_CloseEvtWriter)                     \
  X(OTF2_Archive_OpenDefFiles)                       \
  X(OTF2_Archive_CloseDefFiles)                      \
  X(OTF2_Archive_GetDefWriter)                       \
  X(OTF2_Archive_CloseDefWriter)                     \
  X(OTF2_Archive_GetGlobalDefWriter)                 \
  X(OTF2_EvtWriter_Enter)                            \
  X(OTF2_EvtWriter_Leave)                            \
  X(OTF2_EvtWriter_BufferFlush)                      \
  X(OTF2_EvtWriter_MeasurementOnOff)                 \
  X(OTF2_EvtWriter_GetNumberOfEvents)                \
  X(OTF2_GlobalDefWriter_WriteClockProperties)       \
  X(OTF2_GlobalDefWriter_WriteString)                \
  X(OTF2_GlobalDefWriter_WriteRegion)                \
  X(OTF2_GlobalDefWriter_WriteSystemTreeNode)        \
  X(OTF2_GlobalDefWriter_WriteLocationGroup)         \
  X(OTF2_GlobalDefWriter_WriteLocation)              \
  X(OTF2_Reader_Open)                                \
  X(OTF2_Reader_Close)                               \
  X(OTF2_Reader_SetSerialCollectiveCallbacks)        \
  X(OTF2_Reader_GetGlobalDefReader)                  \
  X(OTF2_Reader_RegisterGlobalDefCallbacks)          \
  X(OTF2_Reader_ReadGlobalDefinitions)               \
  X(OTF2_Reader_CloseGlobalDefReader)                \
  X(OTF2_Reader_SelectLocation)                      \
  X(OTF2_Reader_OpenDefFiles)                        \
  X(OTF2_Reader_GetDefReader)                        \
  X(OTF2_Reader_ReadLocalDefinitions)                \
  X(OTF2_Reader_CloseDefReader)                      \
  X(OTF2_Reader_CloseDefFiles)                       \
  X(OTF2_Reader_OpenEvtFiles)                        \
  X(OTF2_Reader_CloseEvtFiles)                       \
  X(OTF2_Reader_GetEvtReader)                        \
  X(OTF2_Reader_GetGlobalEvtReader)                  \
  X(OTF2_Reader_RegisterGlobalEvtCallbacks)          \
  X(OTF2_Reader_ReadGlobalEvents)                    \
  X(OTF2_Reader_CloseGlobalEvtReader)                \
  X(OTF2_GlobalDefReaderCallbacks_New)               \
  X(OTF2_GlobalDefReaderCallbacks_Delete)            \
  X(OTF2_GlobalDefReaderCallbacks_SetStringCallback) \
  X(OTF2_GlobalDefReaderCallbacks_SetRegionCallback) \
  X(OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback) \
  X(OTF2_GlobalDefReaderCallbacks_SetLocationCallback)      \
  X(OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback) \
  X(OTF2_GlobalEvtReaderCallbacks_New)               \
  X(OTF2_GlobalEvtReaderCallbacks_Delete)            \
  X(OTF2_GlobalEvtReaderCallbacks_SetEnterCallback)  \
  X(OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback)

// One pointer per function, named as the function.
struct Api {
#define HCC_OTF2_MEMBER(name) decltype(&::name) name;
  HCC_OTF2_FUNCTIONS(HCC_OTF2_MEMBER)
#undef HCC_OTF2_MEMBER
  std::string library;  // the file dlopen found
};

// Loads the library once per process (thread-safe). nullptr when it cannot
// be loaded or lacks a function; `why` then says which and why.
const Api *load(std::string *why);

// "OTF2_ERROR_...: description" for messages.
std::string error_text(const Api &api, OTF2_ErrorCode code);

}  // namespace hcc::otf2
