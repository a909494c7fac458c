// hcc driver — classification of compiler arguments.
//
// A compiler command line is not a generic "--opt=value" grammar: some
// options take their value in the next argument (-o x, -MF x, -Xlinker x …),
// some only joined (-Wl,…), `-x lang` changes the language of the files that
// follow, and `-` is stdin. We only need to know, for each argument, whether
// it is an option, an option's value or an input file, plus a few facts that
// decide what hcc does (stage flags, output names, dependency files). Anything
// we do not know is an option without a separate value, which is what GCC
// and Clang do for nearly all options.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hcc::driver {

enum class Role : std::uint8_t { Option, Value, Input };

struct InputFile {
  std::size_t index = 0;     // position in the argument list
  std::string path;          // as the user typed it
  std::string language;      // GCC language name ("c", "c++", "assembler" …);
                             // empty = linker input (object, library, unknown)
  bool explicit_language = false;  // language came from -x, not the extension
  bool instrumentable = false;     // a C or C++ source hcc can rewrite
};

struct CommandLine {
  std::vector<Role> roles;  // one per argument
  std::vector<InputFile> inputs;

  bool compile_only = false;     // -c
  bool assemble_only = false;    // -S
  bool preprocess_only = false;  // -E
  bool syntax_only = false;      // -fsyntax-only
  bool deps_only = false;        // -M or -MM (they imply -E)
  bool deps_side = false;        // -MD/-MMD (also via -Wp,): a .d beside the compile
  bool relocatable = false;      // -r: partial link, no runtime
  bool static_link = false;      // -static / -static-pie
  bool libraries = false;        // some -l option
  std::string info_option;       // --version, -print-…, --help … (first one seen)

  std::optional<std::string> output;     // -o value (the last one wins, as in GCC)
  std::vector<std::string> dep_files;    // -MF values and -Wp,-MD,<file> paths
  bool dep_file_stdout = false;          // -MF -
};

CommandLine classify(const std::vector<std::string> &args);

// GCC's language for a file name by its extension; "" for linker inputs.
std::string language_from_extension(std::string_view path);

// True for languages hcc instruments.
bool instrumentable_language(std::string_view language);

// True for C++-family languages (they make the default compiler c++).
bool cxx_language(std::string_view language);

// Known GCC/Clang -x language names; lets us tell `-xc++` from Intel's -xHost.
bool known_language(std::string_view language);

// True when `path` has a source, header, object or library extension
// (x.c, x.o, libm.a, libz.so.1 …): such a first argument is an input, never
// a compiler name.
bool looks_like_file_input(std::string_view path);

// Why hcc must not instrument this command ("" = instrument it).
std::string pass_through_reason(const CommandLine &cl);

// True when the command ends in a link whose program must carry the runtime.
bool links_program(const CommandLine &cl);

// Non-empty (the reason) when the command is a build system's probe of the
// compiler rather than part of the user's program: an input or -o output
// named conftest*/conftst* (autoconf, libtool), a CMake try_compile
// (cmTC_* targets, CMakeFiles/CMakeScratch, CMakeFiles/CMakeTmp) or CMake's
// compiler identification (CMake<LANG>CompilerId/ABI sources). hcc runs
// those exactly as the plain compiler would: no instrumentation, no runtime,
// so no probe program ever writes a profile and every check answers as it
// does without hcc.
std::string configure_probe_reason(const CommandLine &cl);

// The compile arguments hcc-instrument gets after `--` for one input: the
// user's arguments minus inputs, -o, -c, -S, -E, the -M* dependency options
// and every -x (replaced by one trailing `-x <lang>` when the input's
// language was explicit, since the tool puts the source last).
std::vector<std::string> instrumentor_args(const std::vector<std::string> &args,
                                           const CommandLine &cl,
                                           const InputFile &input);

}  // namespace hcc::driver
