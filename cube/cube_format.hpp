// hcc — constants and small helpers shared by the CUBE4 writer and reader.
// Private to hcc_cube (not installed). The facts are in shared FORMATS.md.
#pragma once

#include <cstdint>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "profile.hpp"

namespace hcc::profile::detail {

// N.index starts with this marker (11 bytes, no NUL), then the packed header
// uint32 endianness mark (1), uint16 version (0), uint8 format.
inline constexpr char kIndexMarker[] = "CUBEX.INDEX";
inline constexpr std::size_t kIndexMarkerLen = 11;
inline constexpr std::size_t kIndexHeaderLen = kIndexMarkerLen + 4 + 2 + 1;
// N.data starts with this marker (10 bytes), then the rows.
inline constexpr char kDataMarker[] = "CUBEX.DATA";
inline constexpr std::size_t kDataMarkerLen = 10;
// CubeLib can also write zlib-compressed data with this marker; we only
// recognise it to give a precise note when reading.
inline constexpr char kZDataMarker[] = "ZCUBEX.DATA";

inline constexpr std::uint8_t kIndexSparse = 1;
inline constexpr std::uint8_t kIndexDense = 3;

// CubeLib's tar reader skips (size/512 + 1) * 512 bytes after every member,
// so a member whose size is a multiple of 512 swallows the next member.
inline constexpr std::size_t kTarBlock = 512;

inline const char *dtype_name(DType t) {
  switch (t) {
    case DType::Double: return "DOUBLE";
    case DType::UInt64: return "UINT64";
    case DType::Int64: return "INT64";
    case DType::MinDouble: return "MINDOUBLE";
    case DType::MaxDouble: return "MAXDOUBLE";
  }
  return "DOUBLE";
}

inline const char *cube_type_name(CubeType t) {
  return t == CubeType::Inclusive ? "INCLUSIVE" : "EXCLUSIVE";
}

// Little-endian encoding independent of the host byte order.
inline void put_le(std::string &out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
}
inline std::uint64_t get_le(const unsigned char *p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return v;
}
inline std::uint64_t double_bits(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}
inline double bits_double(std::uint64_t u) {
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

// A value as 8 bytes of N.data for a metric of type t.
inline std::uint64_t encode(double v, DType t) {
  switch (t) {
    case DType::UInt64: {
      // Counts are whole numbers; negative or NaN cannot be a count.
      if (!(v > 0)) return 0;
      if (v >= 18446744073709551615.0) return std::numeric_limits<std::uint64_t>::max();
      return static_cast<std::uint64_t>(std::nearbyint(v));
    }
    case DType::Int64: {
      if (std::isnan(v)) return 0;
      if (v >= 9223372036854775807.0) return static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
      if (v <= -9223372036854775808.0) return static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::min());
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(std::nearbyint(v)));
    }
    case DType::Double:
    case DType::MinDouble:
    case DType::MaxDouble:
      break;
  }
  return double_bits(v);
}

// N.index of the dense format: the header alone.
inline std::string dense_index() {
  std::string s(kIndexMarker, kIndexMarkerLen);
  put_le(s, 1, 4);  // endianness mark: reads as 1 => little endian
  put_le(s, 0, 2);  // version
  put_le(s, kIndexDense, 1);
  return s;
}

}  // namespace hcc::profile::detail
