// hcc runtime — loading libhcc_cubex.so (see cubex_writer.hpp).
#include "cubex_writer.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include "cube_writer/abi.hpp"
#include "safe_path.hpp"

namespace hcc::rt::cubex_writer {

namespace {

struct Module {
  hcc_cubex_write_at_fn write_at = nullptr;
  hcc_cubex_write_fd_fn write_fd = nullptr;
};

Module *g_module = nullptr;
std::string *g_why = nullptr;

void load_once() {
  std::string why;
  const std::string path = module_path(&why);
  if (path.empty()) {
    g_why = new std::string(why);
    return;
  }
  // RTLD_LOCAL: its symbols (and libxml2's, libarchive's) never bind the
  // program's. It is not unloaded: exit handlers its libraries registered
  // must find their code.
  void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    g_why = new std::string("cannot load the CUBE writer " + path + ": " + (e ? e : "dlopen failed"));
    return;
  }
  auto abi = reinterpret_cast<hcc_cubex_abi_fn>(dlsym(h, "hcc_cubex_abi"));
  auto *m = new Module();
  m->write_at = reinterpret_cast<hcc_cubex_write_at_fn>(dlsym(h, "hcc_cubex_write_at"));
  m->write_fd = reinterpret_cast<hcc_cubex_write_fd_fn>(dlsym(h, "hcc_cubex_write_fd"));
  const char *version = nullptr;
  std::size_t size = 0;
  if (abi) abi(&version, &size);
  if (!abi || !m->write_at || !m->write_fd || !version || std::strcmp(version, HCC_VERSION) != 0 ||
      size != sizeof(profile::Profile)) {
    g_why = new std::string("the CUBE writer " + path + " is not the one of this libhcc (hcc " HCC_VERSION
                            "); reinstall hcc");
    delete m;
    return;
  }
  g_module = m;
}

const Module &module() {
  static std::once_flag once;
  std::call_once(once, load_once);
  if (!g_module) throw std::runtime_error(g_why ? *g_why : "the CUBE writer could not be loaded");
  return *g_module;
}

[[noreturn]] void fail(char *error) {
  std::string text(error);
  std::free(error);
  throw std::runtime_error(text);
}

std::atomic<bool> g_skip_fsync{false};

}  // namespace

std::string module_path(std::string *why) {
  Dl_info info{};
  // Any function of libhcc names the file it was loaded from.
  if (!dladdr(reinterpret_cast<void *>(&module_path), &info) || !info.dli_fname) {
    *why = "cannot find where libhcc.so was loaded from (dladdr), so not its CUBE writer either";
    return "";
  }
  const std::string self = info.dli_fname;
  const std::size_t slash = self.rfind('/');
  // The loader names a library found through a relative search path (an
  // LD_LIBRARY_PATH entry such as "lib") relative to the working directory
  // of that moment; the working directory now may be another: refuse it.
  if (self.empty() || self[0] != '/' || slash == std::string::npos) {
    *why = "libhcc.so was loaded by the relative name '" + self +
           "', so its CUBE writer cannot be found by an absolute path; load libhcc by an absolute path";
    return "";
  }
  return self.substr(0, slash + 1) + HCC_CUBEX_MODULE_NAME;
}

void write_at(const profile::Profile &p, int dirfd, const std::string &dir, const std::string &name) {
  if (!g_skip_fsync.load()) {
    if (char *e = module().write_at(&p, dirfd, dir.c_str(), name.c_str())) fail(e);
    return;
  }
  // As the module does (a new file, then renamed onto the name), unsynced.
  std::string tmp, why;
  FdGuard fd(create_file_at(dirfd, "." + name + ".new." + std::to_string(getpid()), tmp, why));
  if (fd.fd < 0) throw std::runtime_error("cannot create " + dir + "/" + tmp + ": " + why);
  try {
    write_fd(p, fd.fd, dir + "/" + tmp);
    if (renameat(dirfd, tmp.c_str(), dirfd, name.c_str()) != 0)
      throw std::runtime_error("cannot rename " + dir + "/" + tmp + " to " + dir + "/" + name + ": " +
                               std::strerror(errno));
  } catch (...) {
    unlinkat(dirfd, tmp.c_str(), 0);
    throw;
  }
}

void write_fd(const profile::Profile &p, int fd, const std::string &shown) {
  if (char *e = module().write_fd(&p, fd, shown.c_str(), g_skip_fsync.load() ? 0 : 1)) fail(e);
}

void skip_fsync() { g_skip_fsync.store(true); }

}  // namespace hcc::rt::cubex_writer
