// hcc tracer — the files of an OTF2 archive, never written through a link
// someone planted (issues 18 and 28).
//
// OTF2 creates and reopens its files itself, by name: <dir>/<name>.otf2
// (anchor), <dir>/<name>.def (global definitions) and <dir>/<name>/ (event
// and local definition files, opened from worker ranks too, and created
// with a mkdir that accepts an existing directory or a link to one). So OTF2
// never gets a name in the output directory:
//  - the output directory is the run's, opened once (runtime/core/output.hpp);
//  - rank 0 claims the archive's names there: <name>.otf2 and <name>.def
//    created empty (O_EXCL|O_NOFOLLOW) and <name>/ made empty (mkdirat), so
//    other runs take other names; a symbolic link at one of them refuses the
//    trace with an error naming it (nothing is written through it, nothing
//    removed);
//  - rank 0 makes a fresh private directory .<name>.tmp-XXXXXX (mkdirat,
//    mode 0700) under the output directory's handle; every rank opens it by
//    that handle (O_NOFOLLOW, checked: ours, mode 0700) and OTF2 is handed
//    /proc/self/fd/<N> of it, so every file OTF2 makes lands inside it, where
//    nobody else can plant anything;
//  - once every rank closed the archive, rank 0 moves its three pieces onto
//    the claimed names with renameat (the directory first, the anchor last)
//    after checking each name still holds what we claimed it with: a name
//    replaced meanwhile is left alone, the archive stays whole in the private
//    directory and the error says where.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace hcc::rt::trace {

// The output directory and, once the name is known, the private directory
// the archive is written in.
struct ArchiveDir {
  int fd = -1;           // the output directory, O_PATH handle (runtime/core/safe_path.hpp)
  std::string shown;     // its name, for messages and summary.txt
  int priv = -1;         // the private directory, O_PATH handle
  std::string priv_name; // its name in the output directory
  std::string for_otf2;  // what OTF2_Archive_Open is given: /proc/self/fd/<priv>
  ArchiveDir() = default;
  ArchiveDir(const ArchiveDir &) = delete;
  ArchiveDir &operator=(const ArchiveDir &) = delete;
  ~ArchiveDir();
};

// The names claimed in the output directory, as created (device and inode of
// each), so that publishing can tell they are still ours.
struct Claim {
  std::string name;  // "" = none
  dev_t dev[3] = {};
  ino_t ino[3] = {};  // <name>/, <name>.def, <name>.otf2
};

// The run's output directory (core/output.hpp's handle) into `out`; false
// with the reason in `error` (also when /proc/self/fd cannot hand OTF2 a handle).
bool open_archive_dir(ArchiveDir &out, std::string &error);

// Rank 0: the first free name of `base`, base-1, … (with `overwrite`, `base`
// itself, its earlier archive removed: only the files OTF2 writes), claimed
// as described above, and the private directory made. Returns false with the
// reason in `error` when a symbolic link is at one of the archive's names or
// nothing could be created.
bool claim_archive(ArchiveDir &dir, const std::string &base, bool overwrite, Claim &claim, std::string &error);

// Every rank: opens the private directory rank 0 made (checked to be ours and
// private) and sets dir.for_otf2; false with the reason in `error`.
bool open_private_dir(ArchiveDir &dir, const std::string &priv_name, std::string &error);

// The bytes OTF2 wrote into the private directory for archive `name`.
uint64_t archive_bytes(const ArchiveDir &dir, const std::string &name);

// Rank 0, after every rank closed the archive: moves it onto the claimed
// names and removes the private directory. False with the reason in `error`
// (the archive then stays whole in the private directory, which `error` names).
bool publish_archive(const ArchiveDir &dir, const Claim &claim, std::string &error);

// Rank 0, when no archive is written after all: removes what OTF2 wrote in
// the private directory, the directory itself, and the claimed names that
// still hold what we put there.
void abandon_archive(const ArchiveDir &dir, const Claim &claim);

}  // namespace hcc::rt::trace
