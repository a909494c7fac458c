// hcc runtime — the end-of-run lines start on a line of their own.
//
// A program whose last output had no newline (`printf("no newline")`) would
// otherwise get "hcc: profile written to …" glued to it when stdout and
// stderr are the same file, terminal or pipe. Cold path: called only just
// before the runtime prints its end-of-run lines.
#pragma once

namespace hcc::rt {

// When stdout and stderr are the same open file (same device and inode),
// flushes the program's pending stdout first (so its output comes before
// ours, as it would have at exit anyway) and writes "\n" to stderr when the
// program's last byte there was not one. How the last byte is known:
// - a regular file: its last byte, read back (after the flush);
// - a terminal or pipe: the last byte pending in stdout's buffer (glibc);
//   with nothing pending, the line is taken as ended (a line-buffered
//   terminal flushes at each newline; see the limits in README.md).
// Does nothing when they are different files.
void start_own_line();

}  // namespace hcc::rt
