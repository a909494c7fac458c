// hcc — loading OTF2 with dlopen (see otf2_api.hpp).
#include "otf2_api.hpp"

#include <dlfcn.h>

#include <mutex>

namespace hcc::otf2 {

namespace {

// Debian 12 ships OTF2 3.0 as libopen-trace-format2.so.10; a build of
// OTF2 from its own sources installs libotf2.so. The unversioned names
// come last: they exist only where the -dev package is installed.
constexpr const char *kLibraries[] = {"libopen-trace-format2.so.10", "libotf2.so.10", "libopen-trace-format2.so",
                                      "libotf2.so"};

Api *g_api = nullptr;
std::string *g_why = nullptr;

void load_once() {
  void *h = nullptr;
  const char *found = nullptr;
  std::string errors;
  for (const char *name : kLibraries) {
    h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (h) {
      found = name;
      break;
    }
    if (errors.empty()) errors = dlerror();
  }
  if (!h) {
    g_why = new std::string("the OTF2 library is not installed (" + errors +
                            "; Debian: apt-get install libopen-trace-format2-10, or libotf2-trace-dev)");
    return;
  }
  auto *api = new Api();
  api->library = found;
  std::string missing;
#define HCC_OTF2_RESOLVE(name)                                                   \
  api->name = reinterpret_cast<decltype(&::name)>(dlsym(h, #name));              \
  if (!api->name) missing += std::string(missing.empty() ? "" : ", ") + #name;
  HCC_OTF2_FUNCTIONS(HCC_OTF2_RESOLVE)
#undef HCC_OTF2_RESOLVE
  if (!missing.empty()) {
    g_why = new std::string(std::string(found) + " lacks " + missing + " (hcc needs OTF2 3.x)");
    delete api;
    return;  // the library stays loaded: unloading a half-used library gains nothing
  }
  g_api = api;
}

}  // namespace

const Api *load(std::string *why) {
  static std::once_flag once;
  std::call_once(once, load_once);
  if (!g_api && why) *why = g_why ? *g_why : "the OTF2 library could not be loaded";
  return g_api;
}

std::string error_text(const Api &api, OTF2_ErrorCode code) {
  const char *name = api.OTF2_Error_GetName(code);
  const char *descr = api.OTF2_Error_GetDescription(code);
  return std::string(name ? name : "OTF2 error") + (descr && *descr ? std::string(": ") + descr : "");
}

}  // namespace hcc::otf2
