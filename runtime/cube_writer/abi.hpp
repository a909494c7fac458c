// hcc — the entry points of libhcc_cubex.so, the CUBE4 writer libhcc loads
// with dlopen when it writes a profile (see README.md). Both sides compile
// this header and cube/profile.hpp with the same compiler in the same build;
// hcc_cubex_abi lets libhcc refuse a module of another build.
#pragma once

#include <cstddef>

#include "cube/profile.hpp"

extern "C" {

// The module's hcc version (HCC_VERSION) and sizeof(hcc::profile::Profile).
typedef void (*hcc_cubex_abi_fn)(const char **version, std::size_t *profile_size);

// profile::write_cubex_at / write_cubex_fd (cube/cubex.hpp). Return nullptr
// when written, else the error text (malloc'ed; the caller frees it).
typedef char *(*hcc_cubex_write_at_fn)(const hcc::profile::Profile *p, int dirfd, const char *dir, const char *name);
typedef char *(*hcc_cubex_write_fd_fn)(const hcc::profile::Profile *p, int fd, const char *shown, int flush);

}  // extern "C"

// The module's file name; libhcc opens it from its own directory only.
#define HCC_CUBEX_MODULE_NAME "libhcc_cubex.so"
