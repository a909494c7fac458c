#include "depfile_fix.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.hpp"

namespace hcc::driver {
namespace {

struct Piece {
  bool word = false;
  std::string raw;    // bytes as in the file
  std::string value;  // unescaped (words only)
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// True at a backslash that continues the line ("\\\n" or "\\\r\n").
bool continuation_at(std::string_view t, size_t i) {
  return t[i] == '\\' && i + 1 < t.size() &&
         (t[i + 1] == '\n' || (t[i + 1] == '\r' && i + 2 < t.size() && t[i + 2] == '\n'));
}

// Splits make text into words and the blanks between them. Escapes follow
// GCC's mkdeps: 2N+1 backslashes before a blank are N backslashes and a
// literal blank, 2N are N backslashes ending the word; "\#" is '#'; "$$" is '$'.
std::vector<Piece> split_pieces(std::string_view t) {
  std::vector<Piece> out;
  size_t i = 0, n = t.size();
  while (i < n) {
    size_t start = i;
    if (is_space(t[i]) || continuation_at(t, i)) {
      while (i < n && (is_space(t[i]) || continuation_at(t, i))) ++i;
      out.push_back({false, std::string(t.substr(start, i - start)), {}});
      continue;
    }
    Piece p;
    p.word = true;
    while (i < n && !is_space(t[i])) {
      char c = t[i];
      if (c == '\\') {
        size_t k = 0;
        while (i + k < n && t[i + k] == '\\') ++k;
        char next = i + k < n ? t[i + k] : '\0';
        if (next == '\n' || next == '\r') {
          // The last backslash continues the line; the others are literal.
          p.value.append(k - 1, '\\');
          i += k - 1;
          break;
        }
        if (next == ' ' || next == '\t') {
          p.value.append(k / 2, '\\');
          if (k % 2 == 1) {
            p.value += next;
            i += k + 1;
            continue;
          }
          i += k;
          break;
        }
        if (next == '#') {
          p.value.append(k - 1, '\\');
          p.value += '#';
          i += k + 1;
          continue;
        }
        p.value.append(k, '\\');
        i += k;
        continue;
      }
      if (c == '$' && i + 1 < n && t[i + 1] == '$') {
        p.value += '$';
        i += 2;
        continue;
      }
      p.value += c;
      ++i;
    }
    p.raw = std::string(t.substr(start, i - start));
    out.push_back(std::move(p));
  }
  return out;
}

bool ends_line(const Piece &p) {  // a blank piece holding a real (not continued) newline
  const std::string &r = p.raw;
  for (size_t k = 0; k < r.size(); ++k)
    if (r[k] == '\n' && (k == 0 || r[k - 1] != '\\') &&
        !(k >= 2 && r[k - 1] == '\r' && r[k - 2] == '\\'))
      return true;
  return false;
}

}  // namespace

std::string make_escape(std::string_view path) {
  std::string out;
  out.reserve(path.size() + 8);
  for (size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == ' ' || c == '\t') {
      // Double the backslashes right before the blank, then escape it.
      for (size_t k = i; k > 0 && path[k - 1] == '\\'; --k) out += '\\';
      out += '\\';
    } else if (c == '$') {
      out += '$';
    } else if (c == '#') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

std::string rewrite_depfile(std::string_view text, const std::vector<PathRewrite> &rewrites,
                            std::string_view drop_prefix) {
  std::vector<Piece> pieces = split_pieces(text);
  std::vector<const Piece *> kept;
  std::vector<Piece> owned;  // rewritten words; reserved so pointers stay valid
  owned.reserve(pieces.size());

  for (size_t i = 0; i < pieces.size(); ++i) {
    const Piece &p = pieces[i];
    if (!p.word) {
      kept.push_back(&p);
      continue;
    }
    bool target = p.value.size() > 1 && p.value.back() == ':';
    std::string_view path = p.value;
    if (target) path.remove_suffix(1);

    const bool dropped =
        (!drop_prefix.empty() && path.compare(0, drop_prefix.size(), drop_prefix) == 0) ||
        std::any_of(rewrites.begin(), rewrites.end(), [&](const PathRewrite &r) { return r.drop && r.from == path; });
    if (dropped) {
      if (target) {
        // A -MP phony rule "prelude.h:": drop it up to and including its newline.
        while (i + 1 < pieces.size() && !(!pieces[i + 1].word && ends_line(pieces[i + 1]))) ++i;
        if (i + 1 < pieces.size()) ++i;
      } else if (!kept.empty() && !kept.back()->word) {
        kept.pop_back();  // the blank (or " \\\n ") that led to this prerequisite
      }
      continue;
    }
    auto it = std::find_if(rewrites.begin(), rewrites.end(),
                           [&](const PathRewrite &r) { return !r.prefix && !r.drop && r.from == path; });
    std::string to;
    if (it != rewrites.end()) {
      to = it->to;
    } else {
      it = std::find_if(rewrites.begin(), rewrites.end(), [&](const PathRewrite &r) {
        return r.prefix && path.size() > r.from.size() && path.compare(0, r.from.size(), r.from) == 0;
      });
      if (it == rewrites.end()) {
        kept.push_back(&p);
        continue;
      }
      to = it->to + std::string(path.substr(it->from.size()));
    }
    Piece q;
    q.word = true;
    q.raw = make_escape(to) + (target ? ":" : "");
    owned.push_back(std::move(q));
    kept.push_back(&owned.back());
  }

  std::string out;
  out.reserve(text.size());
  for (const Piece *p : kept) out += p->raw;
  return out;
}

std::vector<std::string> depfile_candidates(const CommandLine &cl,
                                            const std::vector<std::string> &sources) {
  std::vector<std::string> out;
  auto add = [&](std::string p) {
    if (!p.empty() && std::find(out.begin(), out.end(), p) == out.end())
      out.push_back(std::move(p));
  };
  for (const auto &f : cl.dep_files) add(f);
  if (!cl.deps_side) return out;
  if (cl.output && *cl.output != "-") {
    std::string stem = strip_extension(*cl.output);
    add(stem + ".d");
    for (const auto &s : sources) add(stem + "-" + strip_extension(base_name(s)) + ".d");
  }
  for (const auto &s : sources) {
    std::string stem = strip_extension(base_name(s));
    add(stem + ".d");
    add("a-" + stem + ".d");
  }
  return out;
}

bool fix_depfile(const std::string &path, const std::vector<PathRewrite> &rewrites,
                 std::string_view drop_prefix, std::string &error) {
  std::string text;
  if (!read_file(path, text)) return true;  // not written by this compile
  bool mentions_temp = std::any_of(rewrites.begin(), rewrites.end(), [&](const PathRewrite &r) {
    return text.find(make_escape(r.from)) != std::string::npos;
  });
  if (!mentions_temp) return true;  // someone else's file, or already clean
  std::string fixed = rewrite_depfile(text, rewrites, drop_prefix);
  if (fixed == text) return true;

  // Write beside it and rename, so a reader never sees half a file.
  std::string tmp = path + ".hcc-tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    error = "cannot write '" + tmp + "': " + std::strerror(errno);
    return false;
  }
  const char *p = fixed.data();
  size_t left = fixed.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = "cannot write '" + tmp + "': " + std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    error = "cannot replace '" + path + "': " + std::strerror(errno);
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace hcc::driver
