// hcc — read a .cubex file (ours, or one written by CubeLib/Score-P) into a
// Profile holding exclusive values.
//
// Metrics whose stored data we cannot represent (derived metrics, which
// have no data; TAU_ATOMIC, histograms and other compound types; compressed
// data) are left out, each with an attribute `hcc.note` saying why, instead
// of failing the whole file.
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "anchor_read.hpp"
#include "cfg_member.hpp"
#include "cube_format.hpp"
#include "cubex.hpp"

namespace hcc::profile {
namespace {

using detail::AnchorMetric;

[[noreturn]] void bad(const std::string &what) { throw std::runtime_error(what); }

bool ends_with(const std::string &s, const char *suffix) {
  const std::size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// Opens `path` for reading and refuses anything but a regular file: a FIFO
// would block the open (hence O_NONBLOCK) or the read forever, a device such
// as /dev/zero never ends. The size fstat reports bounds every member.
int open_regular(const std::string &path, struct stat &st) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) bad(std::strerror(errno));
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    bad(std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    bad(S_ISDIR(st.st_mode)    ? "is a directory, not a .cubex file"
        : S_ISFIFO(st.st_mode) ? "is a FIFO, not a regular file"
        : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "is a device, not a regular file"
                                                     : "is not a regular file");
  }
  return fd;
}

// anchor.xml and every N.index / N.data member, by name.
std::map<std::string, std::string> read_members(const std::string &path) {
  struct stat st {};
  const int fd = open_regular(path, st);
  const std::uint64_t file_size = static_cast<std::uint64_t>(st.st_size);
  archive *a = archive_read_new();
  if (!a) {
    ::close(fd);
    bad("out of memory (archive_read_new)");
  }
  struct Closer {
    archive *a;
    int fd;
    ~Closer() {
      archive_read_free(a);
      ::close(fd);
    }
  } closer{a, fd};
  archive_read_support_format_tar(a);
  // CubeLib pads a member whose size is a multiple of 512 with one extra zero
  // block; a strict tar reader takes that block for the end of the archive.
  // This option makes libarchive skip zero blocks and keep reading headers.
  archive_read_set_options(a, "tar:read_concatenated_archives");
  if (archive_read_open_fd(a, fd, 1 << 16) != ARCHIVE_OK) {
    // libarchive detects the format while opening, so "not a tar file"
    // surfaces here rather than at the first header (the file itself opened).
    const std::string msg = archive_error_string(a) ? archive_error_string(a) : "unknown error";
    bad("not a .cubex file (not a tar archive: " + msg + ")");
  }

  std::map<std::string, std::string> members;
  std::uint64_t kept = 0;  // bytes of all members read so far
  bool first = true;
  for (;;) {
    archive_entry *e = nullptr;
    const int rc = archive_read_next_header(a, &e);
    if (rc == ARCHIVE_EOF) break;
    if (rc < ARCHIVE_WARN) {
      const char *msg = archive_error_string(a);
      if (first) bad(std::string("not a .cubex file (not a tar archive: ") + (msg ? msg : "unknown format") + ")");
      bad(std::string("damaged tar archive: ") + (msg ? msg : "unknown error"));
    }
    first = false;
    std::string name = archive_entry_pathname(e) ? archive_entry_pathname(e) : "";
    if (name.rfind("./", 0) == 0) name.erase(0, 2);
    const bool wanted = name == "anchor.xml" || ends_with(name, ".index") || ends_with(name, ".data") ||
                        name == detail::kCfgMember;
    if (!wanted || archive_entry_filetype(e) != AE_IFREG) continue;  // libarchive skips unread data
    // A header may claim any size, and a sparse member (GNU/pax sparse maps)
    // expands holes to zeros on reading: what the members hold can never
    // exceed the file itself, so anything more is refused, not read.
    auto too_big = [&](const char *how, std::uint64_t n) {
      bad("member " + name + " " + how + " " + std::to_string(n) + " bytes, more than the whole file (" +
          std::to_string(file_size) + " bytes) holds" + (kept ? " besides the members before it" : ""));
    };
    if (archive_entry_size_is_set(e) && archive_entry_size(e) > 0 &&
        static_cast<std::uint64_t>(archive_entry_size(e)) > file_size - std::min(file_size, kept))
      too_big("declares", static_cast<std::uint64_t>(archive_entry_size(e)));
    std::string bytes;
    if (archive_entry_size_is_set(e) && archive_entry_size(e) > 0)
      bytes.reserve(static_cast<std::size_t>(archive_entry_size(e)));
    char buf[1 << 16];
    for (;;) {
      const la_ssize_t n = archive_read_data(a, buf, sizeof buf);
      if (n == 0) break;
      if (n < 0) {
        const char *msg = archive_error_string(a);
        bad("cannot read member " + name + ": " + (msg ? msg : "unknown error"));
      }
      const std::uint64_t now = bytes.size() + static_cast<std::size_t>(n);
      if (kept + now > file_size) too_big("expands to at least", now);
      bytes.append(buf, static_cast<std::size_t>(n));
    }
    kept += bytes.size();
    members[name] = std::move(bytes);
  }
  if (first) bad("not a .cubex file (empty tar archive)");
  return members;
}

struct ValueType {
  int size;       // bytes per value in N.data
  char kind;      // 'u' unsigned, 's' signed, 'd' double
  DType dtype;    // how the model keeps it
};

std::optional<ValueType> value_type(const std::string &dtype) {
  static const std::map<std::string, ValueType> known = {
      {"DOUBLE", {8, 'd', DType::Double}},     {"FLOAT", {8, 'd', DType::Double}},
      {"MINDOUBLE", {8, 'd', DType::MinDouble}}, {"MAXDOUBLE", {8, 'd', DType::MaxDouble}},
      {"UINT64", {8, 'u', DType::UInt64}},     {"INT64", {8, 's', DType::Int64}},
      {"INTEGER", {8, 's', DType::Int64}},     {"UINT32", {4, 'u', DType::UInt64}},
      {"INT32", {4, 's', DType::Int64}},       {"INT", {4, 's', DType::Int64}},
      {"UINT16", {2, 'u', DType::UInt64}},     {"INT16", {2, 's', DType::Int64}},
      {"UINT8", {1, 'u', DType::UInt64}},      {"CHAR", {1, 'u', DType::UInt64}},
      {"INT8", {1, 's', DType::Int64}},
  };
  auto it = known.find(dtype);
  if (it == known.end()) return std::nullopt;
  return it->second;
}

std::uint64_t get(const unsigned char *p, int bytes, bool big_endian) {
  if (!big_endian) return detail::get_le(p, bytes);
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

double to_double(std::uint64_t raw, const ValueType &vt) {
  if (vt.kind == 'd') return detail::bits_double(raw);
  if (vt.kind == 'u') return static_cast<double>(raw);
  // Sign-extend from vt.size bytes.
  const int shift = 64 - 8 * vt.size;
  const auto s = static_cast<std::int64_t>(raw << shift) >> shift;
  return static_cast<double>(s);
}

// Decodes one metric into exclusive values, or returns why it was left out.
// Structural damage in a member we should understand throws instead.
std::optional<std::string> decode(const Profile &p, const AnchorMetric &am, const std::map<std::string, std::string> &members,
                                  const std::vector<int> &excl_order, const std::vector<int> &incl_order,
                                  Metric &out_meta, std::vector<double> &out) {
  const std::string id = std::to_string(am.file_id);
  const std::string &type = am.type;
  CubeType ct;
  if (type.empty() || type == "EXCLUSIVE") ct = CubeType::Exclusive;
  else if (type == "INCLUSIVE") ct = CubeType::Inclusive;
  else if (type.find("DERIVED") != std::string::npos) return "derived metric (" + type + "), computed by CubePL, no stored data";
  else return "metric type " + type + " is not supported";
  const auto vt = value_type(am.dtype);
  if (!vt) return "data type " + am.dtype + " is not supported";
  if (ct == CubeType::Inclusive && (vt->dtype == DType::MinDouble || vt->dtype == DType::MaxDouble))
    return "INCLUSIVE " + am.dtype + " cannot be turned into exclusive values";
  out_meta.dtype = vt->dtype;
  out_meta.cube_type = ct;

  const std::size_t nc = p.cnodes.size(), nl = p.nloc();
  out.assign(nc * nl, 0.0);
  auto idx = members.find(id + ".index");
  auto dat = members.find(id + ".data");
  if (idx == members.end() || dat == members.end()) return std::nullopt;  // caller notes the zeros

  // N.index: marker, endianness mark, version, format [, n, rows...]
  const std::string &ix = idx->second;
  const auto *ib = reinterpret_cast<const unsigned char *>(ix.data());
  if (ix.size() < detail::kIndexHeaderLen || ix.compare(0, detail::kIndexMarkerLen, detail::kIndexMarker) != 0)
    bad(id + ".index: does not start with CUBEX.INDEX");
  const std::uint32_t mark = static_cast<std::uint32_t>(detail::get_le(ib + 11, 4));
  bool big;
  if (mark == 1) big = false;
  else if (mark == 0x01000000u) big = true;
  else bad(id + ".index: unknown endianness mark " + std::to_string(mark));
  const std::uint8_t format = ib[17];
  std::vector<std::uint32_t> rows;  // row numbers stored in N.data, in order
  if (format == detail::kIndexDense) {
    rows.resize(nc);
    for (std::size_t r = 0; r < nc; ++r) rows[r] = static_cast<std::uint32_t>(r);
  } else if (format == detail::kIndexSparse) {
    // CubeLib 4.6 writes a metric that is zero everywhere (a cube_diff of a
    // file with itself, cube_exclusify's derived parts) as the header alone:
    // a sparse index without a row count stores no rows, and its N.data is
    // the marker alone (checked below).
    if (ix.size() != detail::kIndexHeaderLen && ix.size() < detail::kIndexHeaderLen + 4)
      bad(id + ".index: sparse index with a partial row count");
    const std::uint64_t n = ix.size() == detail::kIndexHeaderLen ? 0 : get(ib + 18, 4, big);
    if (ix.size() != detail::kIndexHeaderLen && ix.size() != detail::kIndexHeaderLen + 4 + 4 * n)
      bad(id + ".index: sparse index of " + std::to_string(n) + " rows has " + std::to_string(ix.size()) + " bytes");
    rows.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      rows[i] = static_cast<std::uint32_t>(get(ib + 22 + 4 * i, 4, big));
      if (rows[i] >= nc) bad(id + ".index: row " + std::to_string(rows[i]) + " but only " + std::to_string(nc) + " call paths");
    }
  } else {
    return "index format " + std::to_string(format) + " is not supported";
  }

  const std::string &dx = dat->second;
  if (dx.compare(0, std::strlen(detail::kZDataMarker), detail::kZDataMarker) == 0)
    return "compressed data (ZCUBEX.DATA) is not supported";
  if (dx.size() < detail::kDataMarkerLen || dx.compare(0, detail::kDataMarkerLen, detail::kDataMarker) != 0)
    bad(id + ".data: does not start with CUBEX.DATA");
  const std::uint64_t want = detail::kDataMarkerLen + static_cast<std::uint64_t>(rows.size()) * nl * static_cast<std::uint64_t>(vt->size);
  if (dx.size() != want)
    bad(id + ".data: " + std::to_string(dx.size()) + " bytes, expected " + std::to_string(want) + " (" +
        std::to_string(rows.size()) + " rows x " + std::to_string(nl) + " locations x " + std::to_string(vt->size) +
        " bytes of " + am.dtype + ")");

  const std::vector<int> &order = ct == CubeType::Inclusive ? incl_order : excl_order;
  const auto *db = reinterpret_cast<const unsigned char *>(dx.data()) + detail::kDataMarkerLen;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::size_t c = static_cast<std::size_t>(order[rows[r]]);
    for (std::size_t l = 0; l < nl; ++l, db += vt->size) out[c * nl + l] = to_double(get(db, vt->size, big), *vt);
  }
  if (ct == CubeType::Inclusive) {
    // exclusive = inclusive - sum of the children's inclusive values.
    const std::vector<double> incl = out;
    for (std::size_t c = 0; c < nc; ++c) {
      const int parent = p.cnodes[c].parent;
      if (parent < 0) continue;
      for (std::size_t l = 0; l < nl; ++l) out[static_cast<std::size_t>(parent) * nl + l] -= incl[c * nl + l];
    }
    if (vt->kind == 'd') {
      // A subtraction of nearly equal sums leaves rounding dust (1e-17 s)
      // where the true exclusive value is 0; show it as the 0 it is.
      for (std::size_t i = 0; i < out.size(); ++i)
        if (std::fabs(out[i]) <= 64 * DBL_EPSILON * std::fabs(incl[i])) out[i] = 0.0;
    }
  }
  return std::nullopt;
}

// The model holds every metric densely (call paths × locations doubles), and
// every line of the control-flow member one count per location. A small
// hostile file can declare many call paths and many locations with no data
// at all, or many short cfg lines; refuse before allocating what a real
// profile of that size would not need: a profile hcc or Score-P writes
// stores most of its values, so its model stays within a small multiple of
// the file (the budget: 32 bytes per byte of the file, plus 32 MiB). The
// views need up to twice the model (the values and their inclusive sums:
// --json, --html), so a file of S bytes costs at most 64·S + 64 MiB, the
// bound report/README.md promises; with 64·S a 10 MB file of call paths and
// locations without values took 1.4 GB in --json and --diff (issue 40).
void check_model_size(const Profile &p, std::size_t nmetrics, const std::map<std::string, std::string> &members) {
  std::uint64_t file_bytes = 0;
  for (const auto &m : members) file_bytes += m.second.size();
  const std::uint64_t budget = 32 * file_bytes + (std::uint64_t(32) << 20);
  const long double values = static_cast<long double>(nmetrics) * p.cnodes.size() * p.nloc() * sizeof(double);
  auto cfg = members.find(detail::kCfgMember);
  const std::size_t cfg_lines = cfg == members.end() ? 0 : std::count(cfg->second.begin(), cfg->second.end(), '\n');
  const long double preds = static_cast<long double>(cfg_lines) * (p.nloc() * sizeof(double) + sizeof(Predecessor));
  if (values + preds > static_cast<long double>(budget))
    bad(std::to_string(nmetrics) + " metrics x " + std::to_string(p.cnodes.size()) + " call paths x " +
        std::to_string(p.nloc()) + " locations" +
        (cfg_lines ? " and " + std::to_string(cfg_lines) + " lines of " + detail::kCfgMember : std::string()) +
        " would need " + std::to_string(static_cast<std::uint64_t>((values + preds) / (1 << 20))) +
        " MiB for a file of " + std::to_string(file_bytes >> 10) + " KiB: refused as not a real profile");
}

Profile read_from(const std::string &path) {
  const auto members = read_members(path);
  auto anchor_it = members.find("anchor.xml");
  if (anchor_it == members.end()) bad("not a .cubex file (no anchor.xml member)");
  detail::Anchor a = detail::parse_anchor(anchor_it->second);
  Profile p = std::move(a.skeleton);
  check_model_size(p, a.metrics.size(), members);
  const std::vector<int> excl_order = exclusive_row_order(p);
  const std::vector<int> incl_order = inclusive_row_order(p);

  // Decode everything first: which metrics survive decides the model ids
  // (file-id order, dense) and the parent of a metric is its nearest
  // surviving ancestor.
  const std::size_t nm = a.metrics.size();
  std::vector<Metric> metas(nm);
  std::vector<std::vector<double>> values(nm);
  std::vector<int> new_id(nm, -1);  // file id -> model id
  int kept = 0;
  for (std::size_t i = 0; i < nm; ++i) {
    const AnchorMetric &am = a.metrics[i];
    metas[i] = am.meta;
    const std::string id = std::to_string(am.file_id);
    const auto skipped = decode(p, am, members, excl_order, incl_order, metas[i], values[i]);
    if (skipped) {
      a.notes.push_back("metric '" + am.meta.uniq_name + "' (id " + id + ") skipped: " + *skipped);
      continue;
    }
    if (!members.count(id + ".data") || !members.count(id + ".index"))
      a.notes.push_back("metric '" + am.meta.uniq_name + "' (id " + id +
                        ") has no data members; read as zeros, as CubeLib does");
    new_id[i] = kept++;
  }
  // Nearest surviving ancestor, memoized: each metric is resolved once, so a
  // deep chain of skipped metrics costs linear time, not depth squared.
  // kept_up[i]: model id of i's nearest kept ancestor (-1: none); -2 unknown.
  std::vector<int> kept_up(nm, -2);
  std::vector<std::size_t> chain;
  for (std::size_t i = 0; i < nm; ++i) {
    chain.clear();
    int up = a.metrics[i].parent_file_id;
    int found = -1;
    while (up >= 0) {
      const auto u = static_cast<std::size_t>(up);
      if (new_id[u] >= 0) {
        found = new_id[u];
        break;
      }
      if (kept_up[u] != -2) {
        found = kept_up[u];
        break;
      }
      if (chain.size() > nm) bad("metric tree has a cycle through id " + std::to_string(up));
      chain.push_back(u);
      up = a.metrics[u].parent_file_id;
    }
    for (std::size_t u : chain) kept_up[u] = found;
    kept_up[i] = found;
  }
  for (std::size_t i = 0; i < nm; ++i) {
    if (new_id[i] < 0) continue;
    metas[i].parent = kept_up[i];
    p.metrics.push_back(std::move(metas[i]));
    p.excl.push_back(std::move(values[i]));
  }
  // Control flow (cfg_member.hpp): ids are the file's, so only when the
  // call paths kept them (always for hcc's files).
  auto cfg_it = members.find(detail::kCfgMember);
  if (cfg_it != members.end()) {
    bool renumbered = false;
    for (const std::string &n : a.notes) renumbered = renumbered || n.find("call path ids renumbered") != std::string::npos;
    if (renumbered) a.notes.push_back(std::string(detail::kCfgMember) + " skipped: call path ids were renumbered");
    else detail::cfg_member_parse(p, cfg_it->second);
  }
  for (const std::string &n : a.notes) p.attrs.push_back({"hcc.note", n});
  validate(p);
  return p;
}

}  // namespace

Profile read_cubex(const std::string &path) {
  try {
    return read_from(path);
  } catch (const std::exception &e) {
    throw std::runtime_error("cannot read " + path + ": " + e.what());
  }
}

}  // namespace hcc::profile
