// hcc — a .cubex written while its values arrive: a block of data columns
// (locations) at a time, for every metric and call path, so the writer never
// holds more than the caller's block. The MPI merge (wrappers/merge/stream.hpp)
// fills it rank by rank at 100 000 ranks, where the whole matrix would not
// fit rank 0's memory.
//
// The file is the same CUBE4 archive write_cubex makes (dense indexes, the
// same row orders and value encoding), with its members in another order:
// every metric's N.index and N.data first, at offsets known from the
// definitions alone, filled with pwrite as blocks arrive (holes read as 0),
// then anchor.xml and the control-flow member, whose sizes are known only at
// the end. CubeLib finds members by name (FORMATS.md), so the order is free.
// The tar headers are written here, not by libarchive: libarchive writes an
// archive front to back and cannot fill a member out of order.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "profile.hpp"

namespace hcc::profile {

class CubexStream {
 public:
  // `shape`: the definitions, locations (data column = position in
  // location_file_order(shape)), hosts, machine and attributes; its value
  // matrices and predecessor lists are ignored. `fd`: an empty file opened
  // for writing, owned by the caller; `shown` names it in messages.
  CubexStream(const Profile &shape, int fd, std::string shown);
  ~CubexStream();
  CubexStream(const CubexStream &) = delete;
  CubexStream &operator=(const CubexStream &) = delete;

  // Data columns [first, first + n): block[(k * nm + m) * nc + c] is the
  // EXCLUSIVE value of metric m at call path c in column first + k (nm
  // metrics, nc call paths; column by column, as packets arrive). INCLUSIVE
  // metrics are summed over the subtrees here. Each column is put once;
  // columns never put read 0.
  void put_columns(std::size_t first, std::size_t n, const std::vector<double> &block);
  // Control flow of the same columns: preds[c][i].count has n entries. A
  // (call path, predecessor) may come in several blocks: the reader adds them.
  void put_predecessors(std::size_t first, std::size_t n, const std::vector<std::vector<Predecessor>> &preds);
  // anchor.xml (with `attrs` replacing shape's), the control-flow member,
  // the end of the archive, fsync. Throws std::runtime_error naming the file.
  void finish(const std::vector<std::pair<std::string, std::string>> &attrs);

  std::size_t columns() const { return nloc_; }

 private:
  void pwrite_all(const void *data, std::size_t size, std::uint64_t offset);
  [[noreturn]] void fail(const std::string &what, int err);

  Profile shape_;  // definitions only
  int fd_;
  std::string shown_;
  std::size_t nloc_ = 0;
  std::vector<std::uint64_t> data_offset_;  // per metric: first byte of its rows (after the marker)
  std::vector<std::size_t> excl_row_, incl_row_;  // call path -> row in N.data
  std::uint64_t end_of_data_ = 0;
  std::FILE *cfg_ = nullptr;  // the control-flow lines so far (an unlinked temporary file)
  std::vector<std::uint64_t> words_;  // a tile of rows of a block, encoded
  std::vector<double> incl_;          // an INCLUSIVE metric's block, summed
};

}  // namespace hcc::profile
