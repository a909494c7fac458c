#include "compiler_choice.hpp"

#include <algorithm>

#include "options.hpp"
#include "paths.hpp"

namespace hcc::driver {
namespace {

// Launchers that take the real compiler as their next argument.
bool is_launcher(const std::string &program) {
  std::string b = base_name(program);
  return b == "ccache" || b == "sccache" || b == "distcc" || b == "icecc" ||
         b == "buildcache";
}

void resolve(CompilerChoice &c, const std::string &self) {
  if (auto p = find_program(c.command[0], self)) c.program = *p;
}

}  // namespace

std::optional<std::string> compiler_argument(const std::string &arg, const std::string &self) {
  if (arg.empty() || arg[0] == '-' || arg[0] == '@' || looks_like_file_input(arg))
    return std::nullopt;
  auto found = find_program(arg, self);
  if (!found) return std::nullopt;
  if (!self.empty() && real_path(*found) == self) return std::nullopt;
  return found;
}

CompilerChoice choose_explicit(const std::optional<std::string> &option, const char *env,
                               const std::vector<std::string> &args, const std::string &self) {
  CompilerChoice c;
  if (option) {
    c.command = split_command(*option);
    c.how = "--hcc-compiler";
  } else if (env && !split_command(env).empty()) {
    c.command = split_command(env);
    c.how = "HCC_COMPILER";
  }
  if (!c.command.empty()) {
    resolve(c, self);
    if (!args.empty() && compiler_argument(args[0], self))
      c.warning = "'" + args[0] + "' looks like a compiler, but " + c.how +
                  " chooses the compiler; '" + args[0] + "' is passed on as an argument";
    return c;
  }

  // Prefix mode. `hcc hcc gcc …` (hcc as launcher of itself) skips the inner
  // hcc rather than recursing.
  auto is_self = [&](const std::string &a) {
    if (self.empty() || a.empty() || a[0] == '-' || looks_like_file_input(a)) return false;
    auto p = find_program(a, "");
    return p && real_path(*p) == self;
  };
  size_t k = 0;
  while (k < args.size() && is_self(args[k])) ++k;
  c.taken_args = k;
  if (k < args.size()) {
    if (auto prog = compiler_argument(args[k], self)) {
      c.command.push_back(args[k]);
      c.program = *prog;
      c.taken_args = k + 1;
      c.how = "first argument (prefix mode)";
      if (is_launcher(*prog) && k + 1 < args.size()) {
        if (compiler_argument(args[k + 1], self)) {
          c.command.push_back(args[k + 1]);
          c.taken_args = k + 2;
          c.how = "first arguments (prefix mode, launcher and compiler)";
        }
      }
    }
  }
  return c;
}

void choose_by_language(CompilerChoice &c, const CommandLine &cl, const std::string &self) {
  auto cxx = std::find_if(cl.inputs.begin(), cl.inputs.end(),
                          [](const InputFile &in) { return cxx_language(in.language); });
  bool compiled = std::any_of(cl.inputs.begin(), cl.inputs.end(),
                              [](const InputFile &in) { return !in.language.empty(); });
  if (cxx != cl.inputs.end()) {
    c.command = {"c++"};
    c.how = "default for C++ input '" + cxx->path + "'";
  } else if (compiled) {
    c.command = {"cc"};
    c.how = "default for C inputs";
  } else {
    c.command = {"c++"};
    c.how = cl.inputs.empty() && !cl.libraries ? "default (no inputs)"
                                               : "default for link-only commands";
  }
  resolve(c, self);
}

bool choose_by_program_name(CompilerChoice &c, const char *argv0, const std::string &self) {
  if (!argv0) return false;
  const std::string name = base_name(argv0);
  // hcc-<compiler>: hcc-gcc, hcc-clang++, hcc-mpicxx, hcc-gcc-12 … `hcc`
  // itself keeps choosing by language; hcc-report is another program.
  const std::string prefix = "hcc-";
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0 || name == "hcc-report")
    return false;
  c.command = {name.substr(prefix.size())};
  c.how = "the name " + name;
  resolve(c, self);
  return true;
}

}  // namespace hcc::driver
