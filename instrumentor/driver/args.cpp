#include "args.hpp"

#include <algorithm>
#include <iterator>

namespace hcc::driver {
namespace {

bool starts_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}

// Options whose value is the NEXT argument when written alone ("-o x"). The
// joined spellings ("-ox", "-I/usr/x", "--param=x") never consume the next
// argument, so exact matching is all we need. GCC, Clang and their common
// long aliases; missing an exotic one only matters if its value looks like a
// C/C++ source file name.
constexpr std::string_view kSeparateValue[] = {
    "-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote",
    "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot",
    "-imultilib", "--sysroot", "-MF", "-MT", "-MQ", "-MJ", "-x", "-L", "-l",
    "-Xlinker", "-Xpreprocessor", "-Xassembler", "-Xclang", "-Xanalyzer",
    "-mllvm", "-aux-info", "-arch", "--param", "-z", "-T", "-u", "-e",
    "-target", "-B", "-A", "-dumpbase", "-dumpbase-ext", "-dumpdir", "-wrapper",
    "-include-pch", "-ivfsoverlay", "-iframework", "-iframeworkwithsysroot",
    "-isystem-after", "-cxx-isystem", "-F", "-framework", "-install_name",
    "-rpath", "-working-directory", "--serialize-diagnostics", "-resource-dir",
    "-gcc-toolchain", "-Xcuda-fatbinary", "-Xcuda-ptxas", "--output",
    "--language", "--include", "--include-directory", "--include-directory-after",
    "--include-prefix", "--include-with-prefix", "--include-with-prefix-before",
    "--define-macro", "--undefine-macro", "--imacros", "--library-directory",
    "--assert", "--prefix", "--entry", "--undefined", "--for-linker",
    "--force-link",
};

bool takes_separate_value(std::string_view a) {
  if (std::find(std::begin(kSeparateValue), std::end(kSeparateValue), a) != std::end(kSeparateValue))
    return true;
  // Clang: -Xarch_<arch> <arg>, -Xopenmp-target[=<triple>] <arg>.
  return starts_with(a, "-Xarch_") || starts_with(a, "-Xopenmp-target");
}

constexpr std::string_view kLanguages[] = {
    "c", "c-header", "cpp-output", "c++", "c++-header", "c++-system-header",
    "c++-user-header", "c++-cpp-output", "c++-module", "objective-c",
    "objective-c-header", "objective-c-cpp-output", "objc-cpp-output",
    "objective-c++", "objective-c++-header", "objective-c++-cpp-output",
    "assembler", "assembler-with-cpp", "ada", "d", "f77", "f77-cpp-input",
    "f95", "f95-cpp-input", "go", "brig", "cuda", "hip", "cl", "clcpp",
    "renderscript", "ir", "lto", "modula-2", "rust", "none",
};

bool is_info_option(std::string_view a) {
  return a == "--version" || a == "-V" || a == "-dumpversion" ||
         a == "-dumpfullversion" || a == "-dumpmachine" || a == "-dumpspecs" ||
         a == "--help" || a == "-help" || a == "--target-help" || a == "-###" ||
         starts_with(a, "--help=") || starts_with(a, "-print-") ||
         starts_with(a, "--print-");
}

// The pieces of a -Wp,a,b,c option.
std::vector<std::string> split_commas(std::string_view s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t comma = s.find(',', start);
    out.emplace_back(s.substr(start, comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

bool is_dep_flag(std::string_view a) {  // dependency options without a value
  return a == "-M" || a == "-MM" || a == "-MD" || a == "-MMD" || a == "-MG" ||
         a == "-MP" || a == "--dependencies" || a == "--user-dependencies" ||
         a == "--write-dependencies" || a == "--write-user-dependencies" ||
         a == "--print-missing-file-dependencies";
}

bool is_dep_value_option(std::string_view a) {
  return a == "-MF" || a == "-MT" || a == "-MQ" || a == "-MJ";
}

bool is_joined_dep_value_option(std::string_view a) {
  return a.size() > 3 && (starts_with(a, "-MF") || starts_with(a, "-MT") ||
                          starts_with(a, "-MQ") || starts_with(a, "-MJ"));
}

// -xc++ (joined) is a language only when the rest is a language name; Intel's
// compilers use -xHost, -xCORE-AVX2 … for the target CPU.
std::optional<std::string> joined_language(std::string_view a) {
  if (starts_with(a, "--language=")) return std::string(a.substr(11));
  if (a.size() > 2 && starts_with(a, "-x") && known_language(a.substr(2)))
    return std::string(a.substr(2));
  return std::nullopt;
}

std::optional<std::string> joined_output(std::string_view a) {
  if (starts_with(a, "--output=")) return std::string(a.substr(9));
  if (a.size() > 2 && starts_with(a, "-o")) return std::string(a.substr(2));
  return std::nullopt;
}

std::string_view extension(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  return base.substr(dot);  // with the dot
}

}  // namespace

bool known_language(std::string_view language) {
  return std::find(std::begin(kLanguages), std::end(kLanguages), language) != std::end(kLanguages);
}

std::string language_from_extension(std::string_view path) {
  std::string_view e = extension(path);
  if (e == ".c") return "c";
  if (e == ".cc" || e == ".cpp" || e == ".cxx" || e == ".c++" || e == ".C" ||
      e == ".cp" || e == ".CPP")
    return "c++";
  if (e == ".i") return "cpp-output";
  if (e == ".ii") return "c++-cpp-output";
  if (e == ".h") return "c-header";
  if (e == ".hh" || e == ".H" || e == ".hp" || e == ".hxx" || e == ".hpp" ||
      e == ".HPP" || e == ".h++" || e == ".tcc")
    return "c++-header";
  if (e == ".cppm" || e == ".ixx" || e == ".cxxm" || e == ".c++m" || e == ".ccm")
    return "c++-module";
  if (e == ".m") return "objective-c";
  if (e == ".mi") return "objective-c-cpp-output";
  if (e == ".mm" || e == ".M") return "objective-c++";
  if (e == ".mii") return "objective-c++-cpp-output";
  if (e == ".s") return "assembler";
  if (e == ".S" || e == ".sx") return "assembler-with-cpp";
  if (e == ".cu") return "cuda";
  if (e == ".hip") return "hip";
  if (e == ".f" || e == ".for" || e == ".ftn") return "f77";
  if (e == ".F" || e == ".FOR" || e == ".fpp" || e == ".FPP" || e == ".FTN")
    return "f77-cpp-input";
  if (e == ".f90" || e == ".f95" || e == ".f03" || e == ".f08") return "f95";
  if (e == ".F90" || e == ".F95" || e == ".F03" || e == ".F08") return "f95-cpp-input";
  return "";
}

bool instrumentable_language(std::string_view language) {
  return language == "c" || language == "c++";
}

bool cxx_language(std::string_view language) {
  return language == "c++" || language == "c++-header" || language == "c++-cpp-output" ||
         language == "c++-system-header" || language == "c++-user-header" ||
         language == "c++-module" || starts_with(language, "objective-c++") ||
         language == "cuda" || language == "hip";
}

bool looks_like_file_input(std::string_view path) {
  if (!language_from_extension(path).empty()) return true;
  std::string_view e = extension(path);
  if (e == ".o" || e == ".obj" || e == ".a" || e == ".so" || e == ".lo" ||
      e == ".la" || e == ".lib" || e == ".dylib" || e == ".dll" || e == ".bc" ||
      e == ".ll")
    return true;
  // Versioned shared libraries: libz.so.1, libfoo.so.1.2.3
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return base.find(".so.") != std::string_view::npos;
}

CommandLine classify(const std::vector<std::string> &args) {
  CommandLine cl;
  const size_t n = args.size();
  cl.roles.assign(n, Role::Option);
  std::string x_language;  // active -x, "" when none

  for (size_t i = 0; i < n; ++i) {
    const std::string &a = args[i];

    if (a == "-" || a.empty() || a[0] != '-') {
      InputFile in;
      in.index = i;
      in.path = a;
      if (!x_language.empty() && x_language != "none") {
        in.language = x_language;
        in.explicit_language = true;
      } else {
        in.language = language_from_extension(a);
      }
      // stdin cannot be copied beside a temp file; an empty name is an error
      // the compiler reports.
      in.instrumentable = a != "-" && !a.empty() && instrumentable_language(in.language);
      cl.roles[i] = Role::Input;
      cl.inputs.push_back(std::move(in));
      continue;
    }

    if (takes_separate_value(a)) {
      if (i + 1 >= n) continue;  // dangling: the compiler complains
      const std::string &v = args[i + 1];
      cl.roles[i + 1] = Role::Value;
      if (a == "-o" || a == "--output") cl.output = v;
      else if (a == "-x" || a == "--language") x_language = v;
      else if (a == "-MF") {
        if (v == "-") cl.dep_file_stdout = true;
        else cl.dep_files.push_back(v);
      } else if (a == "-l") cl.libraries = true;
      ++i;
      continue;
    }

    if (a == "-c" || a == "--compile") cl.compile_only = true;
    else if (a == "-S" || a == "--assemble") cl.assemble_only = true;
    else if (a == "-E" || a == "--preprocess") cl.preprocess_only = true;
    else if (a == "-fsyntax-only") cl.syntax_only = true;
    else if (a == "-M" || a == "-MM" || a == "--dependencies" || a == "--user-dependencies")
      cl.deps_only = true;
    else if (a == "-MD" || a == "-MMD" || a == "--write-dependencies" ||
             a == "--write-user-dependencies")
      cl.deps_side = true;
    else if (a == "-r") cl.relocatable = true;
    else if (a == "-static" || a == "-static-pie" || a == "--static") cl.static_link = true;
    else if (is_info_option(a)) {
      if (cl.info_option.empty()) cl.info_option = a;
    } else if (starts_with(a, "-MF") && a.size() > 3) {
      std::string v = a.substr(3);
      if (v == "-") cl.dep_file_stdout = true;
      else cl.dep_files.push_back(v);
    } else if (starts_with(a, "-l") && a.size() > 2) {
      cl.libraries = true;
    } else if (starts_with(a, "-Wp,")) {
      // The Linux kernel style: -Wp,-MMD,dir/.x.o.d
      auto items = split_commas(std::string_view(a).substr(4));
      for (size_t k = 0; k < items.size(); ++k) {
        if ((items[k] == "-MD" || items[k] == "-MMD") && k + 1 < items.size()) {
          cl.deps_side = true;
          cl.dep_files.push_back(items[++k]);
        } else if (items[k] == "-MF" && k + 1 < items.size()) {
          cl.dep_files.push_back(items[++k]);
        }
      }
    } else if (auto lang = joined_language(a)) {
      x_language = *lang;
    } else if (auto out = joined_output(a)) {
      cl.output = *out;
    }
  }
  return cl;
}

std::string pass_through_reason(const CommandLine &cl) {
  if (!cl.info_option.empty())
    return "'" + cl.info_option + "' asks the compiler about itself";
  if (cl.preprocess_only) return "-E only preprocesses";
  if (cl.deps_only && !cl.deps_side) return "-M/-MM only list dependencies";
  if (cl.syntax_only) return "-fsyntax-only produces no object";
  bool any = std::any_of(cl.inputs.begin(), cl.inputs.end(),
                         [](const InputFile &in) { return in.instrumentable; });
  if (!any) return cl.inputs.empty() ? "no input files" : "no C or C++ source to instrument";
  return "";
}

bool links_program(const CommandLine &cl) {
  if (cl.compile_only || cl.assemble_only || cl.preprocess_only || cl.syntax_only ||
      cl.deps_only || !cl.info_option.empty() || cl.relocatable)
    return false;
  return !cl.inputs.empty() || cl.libraries;
}

std::vector<std::string> instrumentor_args(const std::vector<std::string> &args,
                                           const CommandLine &cl,
                                           const InputFile &input) {
  std::vector<std::string> out;
  const size_t n = args.size();
  for (size_t i = 0; i < n; ++i) {
    const std::string &a = args[i];
    if (cl.roles[i] == Role::Input) continue;
    if (cl.roles[i] == Role::Value) {  // value of a kept option
      out.push_back(a);
      continue;
    }
    const bool has_value = i + 1 < n && cl.roles[i + 1] == Role::Value;
    if (a == "-o" || a == "--output" || a == "-x" || a == "--language" ||
        is_dep_value_option(a)) {
      if (has_value) ++i;
      continue;
    }
    if (a == "-c" || a == "-S" || a == "-E" || a == "--compile" || a == "--assemble" ||
        a == "--preprocess" || is_dep_flag(a) || is_joined_dep_value_option(a) ||
        joined_language(a) || (!takes_separate_value(a) && joined_output(a)))
      continue;
    if (starts_with(a, "-Wp,")) {
      // Keep the preprocessor options, drop only the dependency ones.
      auto items = split_commas(std::string_view(a).substr(4));
      std::string kept;
      for (size_t k = 0; k < items.size(); ++k) {
        const std::string &it = items[k];
        if (it == "-MD" || it == "-MMD" || is_dep_value_option(it)) {
          ++k;  // and its file
          continue;
        }
        if (is_dep_flag(it) || is_joined_dep_value_option(it)) continue;
        kept += ',';
        kept += it;
      }
      if (!kept.empty()) out.push_back("-Wp" + kept);
      continue;
    }
    out.push_back(a);
  }
  if (input.explicit_language) {
    out.push_back("-x");
    out.push_back(input.language);
  }
  return out;
}

std::string configure_probe_reason(const CommandLine &cl) {
  auto probe = [](std::string_view path) -> std::string {
    size_t slash = path.rfind('/');
    std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
    if (starts_with(base, "conftest") || starts_with(base, "conftst"))
      return "autoconf/libtool probe '" + std::string(path) + "'";
    // zlib's hand-written configure: ztest<pid>.c, ztest<pid>.o, ztest<pid>.
    if (starts_with(base, "ztest") && base.size() > 5 && base[5] >= '0' && base[5] <= '9')
      return "configure probe '" + std::string(path) + "'";
    // Meson's compiler checks: meson-private/tmp<random>/testfile.c.
    if (path.find("meson-private/tmp") != std::string_view::npos)
      return "Meson compiler check '" + std::string(path) + "'";
    if (starts_with(base, "cmTC_") || path.find("cmTC_") != std::string_view::npos ||
        path.find("CMakeFiles/CMakeScratch/") != std::string_view::npos ||
        path.find("CMakeFiles/CMakeTmp/") != std::string_view::npos)
      return "CMake try_compile '" + std::string(path) + "'";
    if (starts_with(base, "CMake") &&
        (base.find("CompilerId.") != std::string_view::npos ||
         base.find("CompilerABI.") != std::string_view::npos))
      return "CMake compiler identification '" + std::string(path) + "'";
    return {};
  };
  for (const auto &in : cl.inputs)
    if (auto r = probe(in.path); !r.empty()) return r;
  if (cl.output)
    if (auto r = probe(*cl.output); !r.empty()) return r;
  return {};
}

}  // namespace hcc::driver
