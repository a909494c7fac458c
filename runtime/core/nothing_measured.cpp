// hcc runtime — a program built with hcc that never entered a region writes
// no profile (it has nothing to say, and configure probes must leave no
// trace); without a word, a user whose code was never instrumented (all of
// it in a file hcc did not instrument, everything filtered out) would look
// for a profile that does not exist. So such a program says so, once, at
// exit — but only a program that hcc linked.
//
// The rule: the hcc driver links every program with an rpath to the
// directory of libhcc.so (instrumentor/driver/link_flags.cpp). A program
// whose run path names the directory this libhcc.so was loaded from was
// linked by hcc (or by someone who asked for libhcc explicitly, the same
// way). Configure and CMake probes are passed through by the driver
// without the runtime, and a probe that links -lhcc by hand finds it some
// other way (-L plus LD_LIBRARY_PATH): both stay silent, as does
// HCC_VERBOSE=0. The run path is read from the main program's dynamic
// section (DT_RUNPATH, else DT_RPATH), as the dynamic loader reads it.
#include "nothing_measured.hpp"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace hcc::rt {

namespace {

std::string real_dir(const char *path) {
  char *r = realpath(path, nullptr);
  if (!r) return "";
  std::string s = r;
  std::free(r);
  return s;
}

// The main program's DT_RUNPATH (or DT_RPATH), "" when it has none.
std::string main_program_run_path() {
  std::string out;
  dl_iterate_phdr(
      [](struct dl_phdr_info *info, size_t, void *data) -> int {
        // The first object is the main program.
        const ElfW(Dyn) *dyn = nullptr;
        for (int i = 0; i < info->dlpi_phnum; ++i)
          if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = reinterpret_cast<const ElfW(Dyn) *>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
        if (!dyn) return 1;
        ElfW(Addr) strtab = 0;
        ElfW(Xword) runpath = 0, rpath = 0;
        bool have_runpath = false, have_rpath = false;
        for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; ++d) {
          if (d->d_tag == DT_STRTAB) strtab = d->d_un.d_ptr;
          if (d->d_tag == DT_RUNPATH) runpath = d->d_un.d_val, have_runpath = true;
          if (d->d_tag == DT_RPATH) rpath = d->d_un.d_val, have_rpath = true;
        }
        if (!strtab || !(have_runpath || have_rpath)) return 1;
        // glibc relocates DT_STRTAB in place on most targets; where it does
        // not, the value is still relative to the load address.
        if (strtab < info->dlpi_addr) strtab += info->dlpi_addr;
        *static_cast<std::string *>(data) = reinterpret_cast<const char *>(strtab) + (have_runpath ? runpath : rpath);
        return 1;
      },
      &out);
  return out;
}

bool linked_by_hcc() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void *>(&note_nothing_measured), &info) || !info.dli_fname) return false;
  std::string lib = real_dir(info.dli_fname);
  const size_t slash = lib.rfind('/');
  if (lib.empty() || slash == std::string::npos) return false;
  const std::string our_dir = lib.substr(0, slash);
  const std::string run_path = main_program_run_path();
  for (size_t b = 0; b <= run_path.size();) {
    size_t e = run_path.find(':', b);
    if (e == std::string::npos) e = run_path.size();
    const std::string dir = run_path.substr(b, e - b);
    if (!dir.empty() && dir[0] == '/' && real_dir(dir.c_str()) == our_dir) return true;
    b = e + 1;
  }
  return false;
}

}  // namespace

void note_nothing_measured() noexcept {
  const char *v = std::getenv("HCC_VERBOSE");
  if (v && std::strcmp(v, "0") == 0) return;
  const int saved = errno;
  if (linked_by_hcc())
    std::fprintf(stderr,
                 "hcc: %s measured nothing: no instrumented function ran, so no profile was written "
                 "(hcc --hcc-verbose shows what the instrumentor left out)\n",
                 program_invocation_short_name);
  errno = saved;
}

}  // namespace hcc::rt
