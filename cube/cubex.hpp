// hcc — CUBE4 (.cubex) files: write a Profile so that CubeLib/CubeGUI read it,
// and read one back (ours, and the subset of Score-P's that we understand).
// Facts about the format: shared FORMATS.md; our choices: cube/README.md.
#pragma once

#include <string>
#include <vector>

#include "profile.hpp"

namespace hcc::profile {

// Writes `p` to `path` atomically (temporary file in the same directory, then
// rename). Throws std::runtime_error whose message names the path and the
// reason (e.g. "cannot create /x/profile.cubex.tmp: Permission denied").
// The temporary file is created exclusively and never through a symbolic
// link, with mode 0666 less the umask.
void write_cubex(const Profile &p, const std::string &path);

// The same, for `name` inside the open directory `dirfd` (shown as `dir` in
// messages): the runtime writes relative to a directory handle it opened
// without following planted links (runtime/core/safe_path.hpp).
void write_cubex_at(const Profile &p, int dirfd, const std::string &dir, const std::string &name);

// Writes the archive to the open file `fd` and flushes it to disk; the caller
// created the file and publishes it (e.g. by linkat, never replacing).
// `shown` names the file in messages.
// flush=false leaves out the fsync: the runtime's fatal-signal path, where a
// launcher's SIGKILL may come sooner than the disk (runtime/core/cubex_writer.hpp).
void write_cubex_fd(const Profile &p, int fd, const std::string &shown, bool flush = true);

// Reads a .cubex file. Throws std::runtime_error naming the file and what is
// wrong with it (not a tar archive, missing anchor.xml, bad row count ...).
Profile read_cubex(const std::string &path);

// The anchor.xml text for `p` exactly as CubeLib's scanner wants it, before
// the container padding rule is applied (write_cubex appends one newline when
// this size is a multiple of 512). Exposed for tests and diagnostics.
std::string anchor_xml(const Profile &p);

// Row orders of N.data (FORMATS.md): entry i is the call path id stored in
// row i. Children are taken in id order, roots concatenated in id order.
// EXCLUSIVE metrics: depth-first pre-order.
std::vector<int> exclusive_row_order(const Profile &p);
// INCLUSIVE metrics: per root, the root, then all children of a node before
// descending into each child in turn (main{foo{bar},baz} -> main foo baz bar).
std::vector<int> inclusive_row_order(const Profile &p);

// The order in which locations appear in the written system tree: grouped by
// host (in order of each host's lowest rank), then rank, then thread. Entry i
// is the model location written with Id i, i.e. stored in data column i.
// CubeLib honours location Ids when reading, but its tools that copy a cube
// (cube_clean, cube_merge, ...) pair data columns with locations in document
// order, so we always write Ids in document order. A profile whose locations
// are already in this order (the usual case) keeps its location ids.
std::vector<int> location_file_order(const Profile &p);

}  // namespace hcc::profile
