// hcc — the streamed .cubex writer (see cubex_stream.hpp).
#include "cubex_stream.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "cfg_member.hpp"
#include "cube_format.hpp"
#include "cubex.hpp"

namespace hcc::profile {
namespace {

constexpr std::uint64_t kBlock = detail::kTarBlock;
std::uint64_t padded(std::uint64_t n) { return (n + kBlock - 1) / kBlock * kBlock; }

// A POSIX ustar header (the fields libarchive writes for our members).
std::string ustar_header(const std::string &name, std::uint64_t size) {
  if (name.size() > 99) throw std::runtime_error("member name too long: " + name);
  // 11 octal digits: 8 GiB - 1 per member, the ustar limit. One metric's
  // rows reach it at 2^30 values (e.g. 300 call paths x 3.5 million locations).
  if (size > 077777777777ull)
    throw std::runtime_error("member " + name + " is " + std::to_string(size) + " bytes, more than ustar's 8 GiB");
  char h[kBlock] = {};
  std::memcpy(h, name.data(), name.size());
  std::snprintf(h + 100, 8, "%07o", 0644u);
  std::snprintf(h + 108, 8, "%07o", 0u);
  std::snprintf(h + 116, 8, "%07o", 0u);
  std::snprintf(h + 124, 12, "%011llo", static_cast<unsigned long long>(size));
  std::snprintf(h + 136, 12, "%011llo", static_cast<unsigned long long>(std::time(nullptr)));
  std::memset(h + 148, ' ', 8);
  h[156] = '0';
  std::memcpy(h + 257, "ustar", 6);
  std::memcpy(h + 263, "00", 2);
  unsigned sum = 0;
  for (unsigned char c : h) sum += c;
  std::snprintf(h + 148, 8, "%06o", sum);  // six digits, NUL, then the space already there
  return std::string(h, kBlock);
}

double combine(DType t, double a, double b) {
  if (t == DType::MinDouble) return std::min(a, b);
  if (t == DType::MaxDouble) return std::max(a, b);
  return a + b;
}

}  // namespace

CubexStream::CubexStream(const Profile &shape, int fd, std::string shown) : fd_(fd), shown_(std::move(shown)) {
  shape_.attrs = shape.attrs;
  shape_.machine = shape.machine;
  shape_.hosts = shape.hosts;
  shape_.metrics = shape.metrics;
  shape_.regions = shape.regions;
  shape_.cnodes = shape.cnodes;
  shape_.locations = shape.locations;
  validate_definitions(shape_);
  nloc_ = shape_.nloc();
  const std::size_t nc = shape_.cnodes.size();
  excl_row_.resize(nc);
  incl_row_.resize(nc);
  const std::vector<int> eo = exclusive_row_order(shape_), io = inclusive_row_order(shape_);
  for (std::size_t r = 0; r < nc; ++r) excl_row_[std::size_t(eo[r])] = r, incl_row_[std::size_t(io[r])] = r;
  // Every metric's members at offsets fixed now; their rows are holes (0)
  // until a block fills them.
  std::uint64_t off = 0;
  const std::string index = detail::dense_index();
  for (std::size_t m = 0; m < shape_.metrics.size(); ++m) {
    const std::string id = std::to_string(m);
    const std::uint64_t data_size = detail::kDataMarkerLen + 8ull * nc * nloc_;
    if (data_size % kBlock == 0) throw std::runtime_error("internal error: member of 512·k bytes");
    std::string head = ustar_header(id + ".index", index.size());
    head += index;
    head.resize(head.size() + (padded(index.size()) - index.size()), '\0');
    head += ustar_header(id + ".data", data_size);
    head.append(detail::kDataMarker, detail::kDataMarkerLen);
    pwrite_all(head.data(), head.size(), off);
    data_offset_.push_back(off + head.size());
    off += head.size() - detail::kDataMarkerLen + padded(data_size);
  }
  end_of_data_ = off;
  if (::ftruncate(fd_, static_cast<off_t>(end_of_data_)) != 0) fail("cannot size", errno);
}

CubexStream::~CubexStream() {
  if (cfg_) std::fclose(cfg_);
}

void CubexStream::fail(const std::string &what, int err) {
  throw std::runtime_error(what + " " + shown_ + ": " + std::strerror(err));
}

void CubexStream::pwrite_all(const void *data, std::size_t size, std::uint64_t offset) {
  const char *p = static_cast<const char *>(data);
  while (size > 0) {
    const ssize_t n = ::pwrite(fd_, p, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot write", n < 0 ? errno : EIO);
    p += n, size -= std::size_t(n), offset += std::uint64_t(n);
  }
}

void CubexStream::put_columns(std::size_t first, std::size_t n, const std::vector<double> &block) {
  const std::size_t nm = shape_.metrics.size(), nc = shape_.cnodes.size();
  if (first + n > nloc_ || block.size() < n * nm * nc)
    throw std::runtime_error("internal error: columns out of range for " + shown_);
  // Rows are written a tile of call paths at a time: the block is laid out
  // column by column (a rank's packet is contiguous where it arrives), the
  // file row by row; a tile keeps the transposition within few pages.
  constexpr std::size_t kTile = 32;
  words_.resize(kTile * n);
  for (std::size_t m = 0; m < nm; ++m) {
    const Metric &met = shape_.metrics[m];
    const bool inclusive = met.cube_type == CubeType::Inclusive;
    const double *base = block.data() + m * nc;  // value (k, c) at base[k * stride + c]
    std::size_t stride = nm * nc;
    if (inclusive) {  // subtree sums per column; children have larger ids
      incl_.resize(n * nc);
      for (std::size_t k = 0; k < n; ++k) {
        double *col = incl_.data() + k * nc;
        std::copy(base + k * stride, base + k * stride + nc, col);
        for (std::size_t c = nc; c-- > 0;)
          if (const int par = shape_.cnodes[c].parent; par >= 0)
            col[std::size_t(par)] = combine(met.dtype, col[std::size_t(par)], col[c]);
      }
      base = incl_.data(), stride = nc;
    }
    for (std::size_t c0 = 0; c0 < nc; c0 += kTile) {
      const std::size_t tile = std::min(kTile, nc - c0);
      const bool bits = met.dtype == DType::Double || met.dtype == DType::MinDouble || met.dtype == DType::MaxDouble;
      for (std::size_t k = 0; k < n; ++k) {
        const double *src = base + k * stride + c0;
        if (bits)  // doubles as they are: the common case, without a branch per value
          for (std::size_t i = 0; i < tile; ++i) std::memcpy(&words_[i * n + k], &src[i], sizeof(double));
        else
          for (std::size_t i = 0; i < tile; ++i) words_[i * n + k] = detail::encode(src[i], met.dtype);
      }
      if constexpr (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)  // the file is little endian
        for (std::uint64_t &w : words_) w = __builtin_bswap64(w);
      for (std::size_t i = 0; i < tile; ++i) {
        const std::size_t row = inclusive ? incl_row_[c0 + i] : excl_row_[c0 + i];
        pwrite_all(words_.data() + i * n, n * sizeof(std::uint64_t), data_offset_[m] + 8ull * (row * nloc_ + first));
      }
    }
  }
}

void CubexStream::put_predecessors(std::size_t first, std::size_t n,
                                   const std::vector<std::vector<Predecessor>> &preds) {
  if (!cfg_) {
    cfg_ = std::tmpfile();  // created exclusively and already unlinked
    if (!cfg_) fail("cannot create a temporary file for the control flow of", errno);
  }
  std::string out;
  for (std::size_t c = 0; c < preds.size(); ++c)
    for (const Predecessor &pr : preds[c]) {
      std::string line = std::to_string(c) + " " + std::to_string(pr.callpath);
      bool any = false;
      for (std::size_t k = 0; k < n && k < pr.count.size(); ++k)
        if (pr.count[k] > 0) {
          line += " " + std::to_string(first + k) + ":" + std::to_string((unsigned long long)std::llround(pr.count[k]));
          any = true;
        }
      if (any) out += line + "\n";
    }
  if (!out.empty() && std::fwrite(out.data(), 1, out.size(), cfg_) != out.size())
    fail("cannot write the control flow of", errno);
}

void CubexStream::finish(const std::vector<std::pair<std::string, std::string>> &attrs) {
  shape_.attrs = attrs;
  std::uint64_t off = end_of_data_;
  {
    // ~250 bytes a rank at 10^5 ranks: written as it is, never copied again.
    std::string anchor = anchor_xml(shape_);
    if (anchor.size() % kBlock == 0) anchor.push_back('\n');  // the 512 rule
    const std::string header = ustar_header("anchor.xml", anchor.size());
    pwrite_all(header.data(), header.size(), off);
    pwrite_all(anchor.data(), anchor.size(), off + kBlock);
    off = padded(off + kBlock + anchor.size());
  }
  std::string member;
  if (cfg_) {
    if (std::fflush(cfg_) != 0) fail("cannot write the control flow of", errno);
    const long body = std::ftell(cfg_);
    std::uint64_t size = std::strlen("hcc-cfg 1\n") + std::uint64_t(body);
    const bool pad_line = size % kBlock == 0;  // the 512 rule
    size += pad_line;
    member = ustar_header(detail::kCfgMember, size) + "hcc-cfg 1\n";
    pwrite_all(member.data(), member.size(), off);
    off += member.size();
    std::rewind(cfg_);
    std::vector<char> chunk(1 << 20);
    for (std::size_t got; (got = std::fread(chunk.data(), 1, chunk.size(), cfg_)) > 0; off += got)
      pwrite_all(chunk.data(), got, off);
    if (std::ferror(cfg_)) fail("cannot read back the control flow of", errno);
    if (pad_line) pwrite_all("\n", 1, off++);
    off = padded(off);
  }
  const std::string end(2 * kBlock, '\0');  // the end of a tar archive
  pwrite_all(end.data(), end.size(), off);
  off += end.size();
  if (::ftruncate(fd_, static_cast<off_t>(off)) != 0) fail("cannot size", errno);
  if (::fsync(fd_) != 0) fail("cannot flush", errno);
}

}  // namespace hcc::profile
