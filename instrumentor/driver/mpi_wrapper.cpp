#include "mpi_wrapper.hpp"

#include "log.hpp"
#include "options.hpp"
#include "paths.hpp"
#include "process.hpp"

namespace hcc::driver {

bool runs_mpi_wrapper(const std::vector<std::string> &compiler) {
  for (const auto &word : compiler) {
    if (!word.empty() && word[0] == '-') break;  // options of the compiler command
    if (base_name(word).rfind("mpi", 0) == 0) return true;
  }
  return false;
}

std::vector<std::string> preprocessor_flags_from_show(const std::string &show_output) {
  const std::vector<std::string> words = split_command(show_output);
  std::vector<std::string> flags;
  for (size_t i = 1; i < words.size(); ++i) {  // words[0]: the compiler the wrapper runs
    const std::string &w = words[i];
    auto joined = [&](const char *opt) { return w.rfind(opt, 0) == 0 && w.size() > std::string(opt).size(); };
    if (w == "-isystem" || w == "-idirafter" || w == "-iquote" || w == "-include" || w == "-I" ||
        w == "-D" || w == "-U") {
      if (i + 1 < words.size()) {
        flags.push_back(w);
        flags.push_back(words[++i]);
      }
    } else if (joined("-I") || joined("-D") || joined("-U") || joined("-isystem") ||
               joined("-idirafter") || joined("-iquote") || w == "-pthread") {
      flags.push_back(w);
    }
  }
  return flags;
}

std::vector<std::string> mpi_wrapper_flags(const std::vector<std::string> &compiler, bool verbose) {
  std::vector<std::string> cmd = compiler;
  // A launcher in front (ccache mpicc) is not needed to ask the wrapper.
  while (cmd.size() > 1 && base_name(cmd[0]).rfind("mpi", 0) != 0) cmd.erase(cmd.begin());
  // Link options (the MPI wrappers' own libraries, see mpi_link_flags) add
  // no preprocessor flags, but with them Open MPI's -show prints only its
  // link line, without the -I options we are after. So does it with the
  // -fsanitize=… a sanitized build's hcc adds (sanitizer_flags.hpp): -f
  // options are left out of the question too (they ask for no -I).
  std::vector<std::string> kept;
  for (size_t i = 0; i < cmd.size(); ++i) {
    const std::string &w = cmd[i];
    if (w == "-Xlinker") {
      ++i;
      continue;
    }
    if (i > 0 && (w.rfind("-L", 0) == 0 || w.rfind("-l", 0) == 0 || w.rfind("-Wl,", 0) == 0 || w.rfind("-f", 0) == 0))
      continue;
    kept.push_back(w);
  }
  cmd = kept;
  cmd.push_back("-show");
  if (verbose) print_note("run: " + shell_command(cmd));
  RunOptions ro;
  ro.out = Stream::Capture;
  ro.err = Stream::Capture;
  ProcessResult r = run_process(cmd, ro);
  if (!r.ok()) return {};
  return preprocessor_flags_from_show(r.out);
}

}  // namespace hcc::driver
