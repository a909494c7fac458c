// hcc config — every HCC_* environment variable: one table (rows declared
// by each part in its own env_vars.def), one on/off vocabulary, and typed
// accessors. No code outside config/ calls getenv on an HCC_ name: a reader
// asks config::flag / number / text, so its variable is in the table (the
// runtime's unknown-variable warning and docs/running.md come from it).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace hcc::config {

enum class Type {
  Switch,    // on/off in the one vocabulary (switch_words())
  Unsigned,  // an integer in [min, max]
  Size,      // bytes, or with K/M/G, in [min, max]
  Seconds,   // a decimal number of seconds in [min, max]
  Choice,    // one of `choices` ("auto|tsc|monotonic")
  Text,      // anything (a path, a command, CALLS:USEC ...): its reader parses it
  List,      // comma-separated names
};

// Which part of hcc reads a variable (the "read by" column of the docs).
enum class Reader { Runtime, Mpi, Driver, Cache, Server, Report, Scripts };

struct Variable {
  const char *name;
  Type type;
  const char *default_text;  // as messages and the docs show it
  double min, max;           // Unsigned, Size, Seconds: the accepted range
  const char *choices;       // Choice: "a|b|c"; others: extra words the docs list, or ""
  Reader reader;
  const char *doc;           // one line (Markdown), for docs/running.md
};

// The whole table, in declaration order (runtime first, scripts last).
const Variable *table_begin();
const Variable *table_end();
// The row of `name`, or nullptr.
const Variable *find(const std::string &name);

// --- the one on/off vocabulary (any case) ----------------------------------
// true for on/1/yes/true, false for off/0/no/false, nullopt otherwise ("" too).
std::optional<bool> parse_switch(const char *value);
// "on, off, 1, 0, yes, no, true or false": the accepted words, for messages.
const char *switch_words();

// --- pure parses of one value against its row -------------------------------
// `why` is the reason a value is refused, "is not ...", ready for
// "hcc: error: NAME='value' <why>; <what happens instead>".
struct Parsed {
  bool ok = false;
  double value = 0;  // Unsigned and Size exact up to 2^53; Seconds as given
  std::string why;
};
Parsed parse_number(const Variable &v, const char *value);
std::string range_text(const Variable &v);  // "from 1K to 4G", "from 1 to 86400"

// --- typed accessors on this process's environment --------------------------
// The value of a declared variable, nullptr when unset. Asking for a name the
// table lacks is a programming error: it is reported and the program aborts
// (tests/config scans the sources so that never ships).
const char *text(const char *name);
// text() but nullptr for "" too (most readers treat empty as unset).
const char *nonempty(const char *name);

// A value as a message shows it: whole up to kShownLimit characters, else
// its start and "... (N characters)", so a 130 000-character value is not
// echoed whole into a build log. Every message quoting a variable's value
// goes through it.
constexpr size_t kShownLimit = 160;
std::string shown(const char *value);

// A switch: its default (the row's) when unset or empty; a bad value prints
// "hcc: error: NAME='value' is not on, off, ...; <otherwise>" (otherwise:
// e.g. "using 0", "not tracing") and gives `fallback`.
bool flag(const char *name, const char *otherwise);
bool flag(const char *name, const char *otherwise, bool fallback);

// A number (Unsigned, Size, Seconds): nullopt when unset/empty or bad; a bad
// value prints "hcc: error: NAME='value' is not <kind> <range>; <otherwise>"
// unless `otherwise` is nullptr (then it is silently the caller's default).
std::optional<double> number(const char *name, const char *otherwise);

// "runtime", "MPI wrappers", "driver", ... for the docs.
const char *reader_name(Reader r);

}  // namespace hcc::config
