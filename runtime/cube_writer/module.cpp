// libhcc_cubex.so: the CUBE4 writer (cube/cubex_write.cpp and what it needs:
// libxml2, libarchive) behind the C entry points of abi.hpp. Exceptions stop
// here and cross as text.
#include <cstdlib>
#include <cstring>
#include <exception>

#include "abi.hpp"
#include "cube/cubex.hpp"

namespace {

char *error_copy(const char *what) { return strdup(what && *what ? what : "unknown error"); }

}  // namespace

extern "C" {

__attribute__((visibility("default"))) void hcc_cubex_abi(const char **version, std::size_t *profile_size) {
  *version = HCC_VERSION;
  *profile_size = sizeof(hcc::profile::Profile);
}

__attribute__((visibility("default"))) char *hcc_cubex_write_at(const hcc::profile::Profile *p, int dirfd,
                                                                const char *dir, const char *name) {
  try {
    hcc::profile::write_cubex_at(*p, dirfd, dir, name);
    return nullptr;
  } catch (const std::exception &e) {
    return error_copy(e.what());
  } catch (...) {
    return error_copy(nullptr);
  }
}

__attribute__((visibility("default"))) char *hcc_cubex_write_fd(const hcc::profile::Profile *p, int fd,
                                                                const char *shown, int flush) {
  try {
    hcc::profile::write_cubex_fd(*p, fd, shown, flush != 0);
    return nullptr;
  } catch (const std::exception &e) {
    return error_copy(e.what());
  } catch (...) {
    return error_copy(nullptr);
  }
}

}  // extern "C"
