// hcc filter — one parser and matcher for selective instrumentation, used by
// the instrumentor (compile time: which functions get a guard) and by the
// runtime (HCC_FILTER: which regions are recorded), so both always agree.
//
// Reads TAU selective-instrumentation files, Score-P filter files and hcc's
// own line format (recognised from the content), plus plain include/exclude
// patterns. Formats and matching rules: filter/README.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hcc::filter {

// What a region is matched by. `name` is the readable name as hcc writes it
// (C: "fib"; C++: "geo::Matrix::mul(double) const"; templates: the
// __PRETTY_FUNCTION__ text, GCC's or Clang's form).
struct Region {
  std::string_view name;
  std::string_view mangled;  // linker name, may be empty
  std::string_view file;     // source file as compiled
  // Compile time, inside a template: `name` is the pattern's, with template
  // parameters instead of arguments ("geo::Matrix<T>::mul_trace"). Names are
  // then compared with template argument lists removed on both sides and
  // without parameter lists, so every instantiation is decided alike.
  bool template_pattern = false;
  // Compile time only: the routine the way TAU spells it in select files —
  // return type, qualified name, parameter types ("int early(int)",
  // "double multiply(void)", "void geo::Matrix<T>::scale(T)"), no " C".
  // Empty when unknown: at run time hcc's names carry no return type
  // (except template instances, through __PRETTY_FUNCTION__), so a TAU
  // pattern's return type ("int ear#", "void#") is only compared where
  // a name or this signature has one.
  std::string_view signature = {};
};

// A region name split the ways users write it (see README "Matching").
struct NameForms {
  std::string full;        // normalised whole name, return type if it had one
  std::string ret;         // text before the qualified name: the return type of a
                           // __PRETTY_FUNCTION__ name or a signature, else ""
  std::string sig;         // qualified name + parameters + qualifiers, no return type
  std::string qual;        // qualified name ("geo::Matrix<double>::mul_trace")
  std::string qual_plain;  // template argument lists removed ("geo::Matrix::mul_trace")
  std::string base;        // last component of qual_plain ("mul_trace")
  bool has_params = false;
};
NameForms name_forms(std::string_view name);

// A template instance's __PRETTY_FUNCTION__ with its bindings put in place
// ("T A<T>::f(T) [T = double]" -> "double A<double>::f(double)"); other
// names unchanged. For writing names back as patterns (hcc-report).
std::string substitute_template_bindings(std::string_view name);

// Whitespace normalisation used on names and on patterns: runs of blanks
// become one space between two word characters and disappear elsewhere
// ("int *" == "int*", "> >" == ">>").
std::string normalize_spaces(std::string_view s);

struct LoopSelection {
  std::string file;     // TAU file pattern ("" = any file)
  std::string routine;  // TAU routine pattern
  int line = 0;         // line of the request in the filter file
};

class Filter {
 public:
  Filter();
  ~Filter();
  Filter(Filter &&) noexcept;
  Filter &operator=(Filter &&) noexcept;

  // Adds the rules of a filter file. On failure returns false and sets
  // `error` to "FILE:LINE: message"; the filter is then unchanged.
  bool add_file(const std::string &path, std::string &error);
  bool add_text(std::string_view text, const std::string &path, std::string &error);
  // Plain patterns (--hcc-include/--hcc-exclude, HCC_INCLUDE/HCC_EXCLUDE):
  // shell wildcards * and ?. An exclude always wins; once any include is
  // given, only what an include matches stays. `error` for an empty pattern.
  bool add_include(const std::string &pattern, std::string &error);
  bool add_exclude(const std::string &pattern, std::string &error);
  // A plain count pattern (--hcc-functions=count:PATTERN,…): the functions
  // it matches are counted, not timed (counts()); it admits nothing by
  // itself (an include list or an exclude still decides what stays).
  bool add_count(const std::string &pattern, std::string &error);

  bool empty() const;
  // True when the region must not be instrumented / recorded. Every rule set
  // added must let the region through (they compose by intersection).
  bool excludes(const Region &r) const;
  // True when the region is not excluded and some routine include rule
  // matches it by name: a TAU BEGIN_INCLUDE_LIST line, a Score-P or hcc
  // `INCLUDE`/`include` that is the last rule matching it, or an
  // --hcc-include pattern. File rules do not count. Used by hcc-instrument
  // --functions=auto: a function the user names is instrumented whatever
  // its size.
  bool includes_by_name(const Region &r) const;
  // Count mode: true when the region is not excluded and a COUNT rule
  // decides for it — a Score-P `COUNT` or hcc `count` line that is the last
  // rule matching it, or an add_count pattern. Such a function keeps its
  // place in the call path and its exact visits, but reads no clock: its
  // time is its caller's (runtime/core/README.md, "Count mode").
  bool counts(const Region &r) const;
  // True when the whole file is excluded (no function of it stays).
  bool excludes_file(std::string_view file) const;
  // TAU BEGIN_INSTRUMENT_SECTION `loops` requests whose file and routine match.
  bool wants_loops(const Region &r) const;
  const std::vector<LoopSelection> &loop_selections() const;

  struct Impl;

 private:
  Impl *impl_;
};

// Glob matching with the wildcard set of each syntax, exposed for tests.
enum class Wildcards { Shell, ShellClasses, Tau };
bool glob_match(std::string_view pattern, std::string_view text, Wildcards w);

}  // namespace hcc::filter
