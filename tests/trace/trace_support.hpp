// hcc tracer tests — what the real otf2-print says about an archive, parsed.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hcc::trace_test {

// Builds programs/<src> through hcc with -O1 into <dir>/<stem>.exe (a failed
// build is a test failure, with hcc's stderr) and returns that path.
std::string build_program(const std::string &dir, const std::string &src);

struct Event {
  std::string kind;    // ENTER, LEAVE, BUFFER_FLUSH, MEASUREMENT_ON_OFF, …
  uint64_t location = 0;
  uint64_t time = 0;
  std::string region;  // ENTER/LEAVE: the region's name
};

// Runs `otf2-print ANCHOR` and parses every event line.
std::vector<Event> read_events(const std::string &anchor, std::string *error);

// Runs `otf2-print -G ANCHOR` and returns its lines.
std::vector<std::string> read_definitions(const std::string &anchor, std::string *error);

// Per location: every LEAVE closes the innermost open ENTER of the same
// region, times never go back, nothing stays open. "" when so, else the
// first violation.
std::string check_nesting(const std::vector<Event> &events);

// (kind, region) → count, over all locations or one.
std::map<std::pair<std::string, std::string>, long> count(const std::vector<Event> &events, int64_t location = -1);

// How many events of `kind` for `region` (on one location, or all).
long events(const std::vector<Event> &events, const std::string &kind, const std::string &region, int64_t location = -1);

}  // namespace hcc::trace_test
