#include "header_shadow.hpp"

#include <cerrno>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.hpp"

namespace hcc::driver {

namespace {

bool is_file(const std::string &p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

std::string shadow_dir_of(const std::string &root, const std::string &dir) {
  std::string real = real_path(dir.empty() ? "." : dir);
  if (real.empty()) return "";
  std::string s = root + (real == "/" ? "" : real);
  // Only a real directory: a mirrored entry is a symbolic link to the
  // original, which -I D already searches.
  struct stat st;
  if (::lstat(s.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return "";
  return s;
}

std::vector<std::string> shadow_cpath_args(const std::string &cpath, const std::string &root) {
  std::vector<std::string> out;
  for (const std::string &dir : split_search_path(cpath))
    if (std::string s = shadow_dir_of(root, dir); !s.empty()) out.insert(out.end(), {"-I", s});
  return out;
}

namespace {

int remove_entry(const char *path, const struct stat *, int type, struct FTW *) {
  if (type == FTW_DP) ::rmdir(path);
  else ::unlink(path);
  return 0;
}

}  // namespace

std::string shadow_file_path(const std::string &root, const std::string &path) {
  std::string real = real_path(dir_name(path));
  if (real.empty()) return "";
  return root + (real == "/" ? "" : real) + "/" + base_name(path);
}

std::vector<std::string> shadow_include_args(const std::vector<std::string> &args,
                                             const CommandLine &cl, const std::string &root) {
  std::vector<std::string> out;
  out.reserve(args.size() + 8);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    const bool has_value = i + 1 < args.size() && i + 1 < cl.roles.size() &&
                           cl.roles[i + 1] == Role::Value;
    if ((a == "-I" || a == "-iquote" || a == "--include-directory") && has_value) {
      std::string s = shadow_dir_of(root, args[i + 1]);
      if (!s.empty()) out.insert(out.end(), {a, s});
      out.insert(out.end(), {a, args[i + 1]});
      ++i;
      continue;
    }
    if (a == "-include" && has_value) {
      std::string s = shadow_file_path(root, args[i + 1]);
      out.insert(out.end(), {a, !s.empty() && is_file(s) ? s : args[i + 1]});
      ++i;
      continue;
    }
    std::string joined_opt, dir;
    if (a.size() > 2 && a.compare(0, 2, "-I") == 0 && a != "-I-") {
      joined_opt = "-I";
      dir = a.substr(2);
    } else if (a.size() > 7 && a.compare(0, 7, "-iquote") == 0) {
      joined_opt = "-iquote";
      dir = a.substr(7);
    } else if (a.compare(0, 20, "--include-directory=") == 0 && a.size() > 20) {
      joined_opt = "--include-directory=";
      dir = a.substr(20);
    }
    if (!joined_opt.empty() && (i >= cl.roles.size() || cl.roles[i] == Role::Option)) {
      std::string s = shadow_dir_of(root, dir);
      if (!s.empty()) out.push_back(joined_opt + s);
    }
    out.push_back(a);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> shadow_names(const std::string &root) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string text;
  if (!read_file(root + ".names", text)) return out;
  for (std::string_view rest = text; !rest.empty();) {
    const size_t nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    const size_t tab = line.find('\t');
    if (tab != std::string_view::npos) out.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  return out;
}

void remove_tree(const std::string &dir) {
  ::nftw(dir.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

}  // namespace hcc::driver
