#include "compile_args.h"

#include <clang/Driver/Options.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/Option/Arg.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Option/OptTable.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/StringSaver.h>

#include <algorithm>

namespace hcc::rewriter {

namespace opts = clang::driver::options;
using llvm::StringRef;

#if !defined(HCC_CLANG_RESOURCE_DIR) || !defined(HCC_CLANG_BINARY) || !defined(HCC_FALLBACK_OMP_DIRS)
#error "HCC_CLANG_RESOURCE_DIR, HCC_CLANG_BINARY and HCC_FALLBACK_OMP_DIRS must be set by the build"
#endif

const char *clangResourceDir() { return HCC_CLANG_RESOURCE_DIR; }

const char *fallbackOmpDir() {
  static const std::string dir = [] {
    if (llvm::sys::fs::exists(std::string(HCC_CLANG_RESOURCE_DIR) + "/include/omp.h")) return std::string();
    llvm::SmallVector<StringRef, 4> dirs;
    StringRef(HCC_FALLBACK_OMP_DIRS).split(dirs, ':', -1, /*KeepEmpty=*/false);
    for (StringRef d : dirs)
      if (llvm::sys::fs::exists(d + "/omp.h")) return d.str();
    return std::string();
  }();
  return dir.empty() ? nullptr : dir.c_str();
}

StringRef languageOfFile(StringRef path) {
  StringRef ext = llvm::sys::path::extension(path);
  return llvm::StringSwitch<StringRef>(ext)
      .Case(".c", "c")
      .Cases(".cc", ".cpp", ".cxx", ".c++", ".C", ".cp", "c++")
      .Cases(".CC", ".CPP", ".CXX", ".C++", "c++")
      .Default("");
}

namespace {

// Options that make sense for building but not for our parse. Matched on the
// argument as written, so every variant (-flto, -flto=8, -fno-lto) goes, and
// -Werror, which clang parses as -W with the value "error".
bool droppedBySpelling(StringRef name) {
  static const char *const prefixes[] = {
      "-flto", "-fno-lto",            // codegen; clang rejects GCC's -flto=N
      "-fplugin",                     // GCC plugins cannot load into clang
      "-fsanitize", "-fno-sanitize",  // GCC-only sanitizer names are errors
      "-fprofile", "-fno-profile",    // clang reads profile files even for -fsyntax-only
      "-fauto-profile", "-fcs-profile", "-fcoverage",
      "-ftime-trace",                 // would write a trace file
      "-Werror", "-pedantic-errors",  // we parse with -w: warnings must not fail
      "-save-temps", "--serialize-diagnostics",
      "-print-", "--print-",          // driver queries, not compiles
  };
  for (const char *p : prefixes)
    if (name.starts_with(p)) return true;
  return false;
}

bool isDropped(const llvm::opt::Arg &arg, const llvm::opt::ArgList &args) {
  const llvm::opt::Option opt = arg.getOption();
  switch (opt.getKind()) {
    case llvm::opt::Option::UnknownClass:  // e.g. GCC's -fipa-pta, -mno-avx256-...
    case llvm::opt::Option::InputClass:    // objects, libraries, stray sources
      return true;
    default:
      break;
  }
  if (opt.hasFlag(opts::Unsupported)) return true;
  // Dependency files (-MD -MF ...) are the build's business: ours would race
  // with the real compile's.
  if (opt.matches(opts::OPT_M_Group)) return true;
  if (opt.matches(opts::OPT_c) || opt.matches(opts::OPT_S) || opt.matches(opts::OPT_E) ||
      opt.matches(opts::OPT_o) || opt.matches(opts::OPT_fsyntax_only) ||
      opt.matches(opts::OPT_v) || opt.matches(opts::OPT__HASH_HASH_HASH) ||
      opt.matches(opts::OPT_H))
    return true;
  // -Wp,-MD,file writes a dependency file too.
  if (opt.matches(opts::OPT_Wp_COMMA)) {
    for (const char *v : arg.getValues())
      if (StringRef(v).starts_with("-M")) return true;
  }
  return droppedBySpelling(arg.getAsString(args));
}

// GCC precompiled headers: `-include pch.h` with pch.h.gch next to it makes
// the clang driver load the .gch, which is GCC's format. Passing the include
// straight to the front end skips that lookup and reads the header text.
bool hasGccPchOnly(StringRef header) {
  return llvm::sys::fs::exists(header + ".gch") && !llvm::sys::fs::exists(header + ".pch");
}

}  // namespace

ClangCommand clangCommand(const std::string &source, llvm::ArrayRef<std::string> user_args) {
  ClangCommand cmd;

  // Build systems pass long flag lists as @response files.
  llvm::BumpPtrAllocator alloc;
  llvm::StringSaver saver(alloc);
  llvm::SmallVector<const char *, 64> argv;
  for (const std::string &a : user_args) argv.push_back(saver.save(a).data());
  llvm::cl::ExpandResponseFiles(saver, llvm::cl::TokenizeGNUCommandLine, argv);

  // Parse as the clang driver does (driver options only, no clang-cl ones).
  const llvm::opt::OptTable &table = clang::driver::getDriverOptTable();
  unsigned missing_index = 0, missing_count = 0;
  llvm::opt::InputArgList args = table.ParseArgs(
      argv, missing_index, missing_count, llvm::opt::Visibility(opts::ClangOption));
  if (missing_count > 0) cmd.dropped.push_back(argv[missing_index]);

  // The real clang's path, so the driver looks for the GCC installation
  // (libstdc++ headers) the way the installed clang does.
  cmd.argv = {HCC_CLANG_BINARY, "-fsyntax-only"};
  std::string language;
  // Each kept argument is passed on as the user spelled it (-DX stays -DX),
  // i.e. the argv entries from its index up to the next argument's.
  std::vector<const llvm::opt::Arg *> parsed(args.begin(), args.end());
  for (size_t k = 0; k < parsed.size(); ++k) {
    const llvm::opt::Arg *arg = parsed[k];
    if (isDropped(*arg, args)) {
      cmd.dropped.push_back(arg->getAsString(args));
      continue;
    }
    const llvm::opt::Option opt = arg->getOption();
    if (opt.matches(opts::OPT_include) && hasGccPchOnly(arg->getValue())) {
      for (const char *a : {"-Xclang", "-include", "-Xclang"}) cmd.argv.push_back(a);
      cmd.argv.push_back(arg->getValue());
      continue;
    }
    if (opt.matches(opts::OPT_x)) language = arg->getValue();
    unsigned end = k + 1 < parsed.size() ? parsed[k + 1]->getIndex() : args.getNumInputArgStrings();
    if (missing_count > 0) end = std::min(end, missing_index);
    for (unsigned i = arg->getIndex(); i < end; ++i) cmd.argv.push_back(args.getArgString(i));
  }

  // Quiet: GCC's warning names are unknown to clang, and warnings are the
  // real compiler's job. The resource dir: stddef.h and friends.
  for (const char *a : {"-Wno-unknown-warning-option", "-Qunused-arguments", "-w"})
    cmd.argv.push_back(a);
  // Pre-standard C that GCC 12 accepts with a warning and Clang 16+ rejects
  // by default (implicit declarations and int, K&R-era conversions): the
  // parse must accept whatever the compiler underneath does.
  for (const char *a : {"-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int",
                        "-Wno-error=int-conversion", "-Wno-error=incompatible-function-pointer-types",
                        "-Wno-error=incompatible-pointer-types", "-Wno-error=return-mismatch"})
    cmd.argv.push_back(a);
  cmd.argv.push_back(std::string("-resource-dir=") + clangResourceDir());
  // No omp.h in our resource directory (libomp-19-dev not installed): any
  // other omp.h declares the same API, after the system directories.
  if (const char *omp = fallbackOmpDir()) {
    cmd.argv.push_back("-idirafter");
    cmd.argv.push_back(omp);
  }

  // -x applies to the inputs after it; an explicit one from the user wins.
  if (language.empty()) {
    language = languageOfFile(source).str();
    if (!language.empty()) {
      cmd.argv.push_back("-x");
      cmd.argv.push_back(language);
    }
  }
  cmd.language = language;
  cmd.argv.push_back(source);
  return cmd;
}

}  // namespace hcc::rewriter
