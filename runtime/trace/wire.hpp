// hcc tracer — the byte form of the definitions the processes of a job
// exchange while writing one archive (little-endian host order: every
// process of a job runs on the same kind of machine).
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace hcc::rt::trace::wire {

class Out {
 public:
  void u32(uint32_t v) { raw(&v, sizeof v); }
  void u64(uint64_t v) { raw(&v, sizeof v); }
  void i32(int32_t v) { raw(&v, sizeof v); }
  void f64(double v) { raw(&v, sizeof v); }
  void str(const std::string &s) {
    u32(uint32_t(s.size()));
    raw(s.data(), s.size());
  }
  std::string &bytes() { return b_; }

 private:
  void raw(const void *p, size_t n) { b_.append(static_cast<const char *>(p), n); }
  std::string b_;
};

class In {
 public:
  In(const char *p, size_t n) : p_(p), end_(p + n) {}
  uint32_t u32() { return get<uint32_t>(); }
  uint64_t u64() { return get<uint64_t>(); }
  int32_t i32() { return get<int32_t>(); }
  double f64() { return get<double>(); }
  std::string str() {
    uint32_t n = u32();
    need(n);
    std::string s(p_, n);
    p_ += n;
    return s;
  }

 private:
  template <class T>
  T get() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, p_, sizeof v);
    p_ += sizeof v;
    return v;
  }
  void need(size_t n) {
    if (size_t(end_ - p_) < n) throw std::runtime_error("truncated trace definitions from another process");
  }
  const char *p_;
  const char *end_;
};

}  // namespace hcc::rt::trace::wire
