// hcc tracer — one thread's records (trace_state.hpp) to OTF2 events, with
// the nesting kept valid after a loss and the flush/loss markers placed in
// time order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "otf2_api/otf2_api.hpp"
#include "trace/trace_state.hpp"

namespace hcc::rt::trace {

struct LocationStats {
  uint64_t events = 0;    // ENTER + LEAVE written
  uint64_t repaired = 0;  // LEAVEs written for frames whose LEAVE was lost
  uint64_t dropped = 0;   // LEAVEs without their ENTER (lost), not written
  uint64_t tmin = UINT64_MAX, tmax = 0;
};

class Converter {
 public:
  Converter(const otf2::Api &api, OTF2_EvtWriter *w, const std::vector<uint32_t> &map, LocationStats &st)
      : api_(api), w_(w), map_(map), st_(st) {}

  void add(const Record *r, size_t n) {
    for (size_t i = 0; i < n; ++i) one(r[i]);
  }

  // Frames still open (the program is still inside them, or their LEAVE was
  // lost) end at `t`.
  void finish(uint64_t t) {
    emit_markers(UINT64_MAX);
    if (!open_.empty() && t < last_) t = last_;
    while (!open_.empty()) leave(t, open_.back());
  }

 private:
  struct Marker {
    uint64_t t, stop;
    bool lost;
  };

  uint32_t global(uint32_t region) const {
    return region >= 1 && region - 1 < map_.size() ? map_[region - 1] : OTF2_UNDEFINED_REGION;
  }
  void stamp(uint64_t t) {
    st_.tmin = std::min(st_.tmin, t);
    st_.tmax = std::max(st_.tmax, t);
    last_ = std::max(last_, t);
  }
  void enter(uint64_t t, uint32_t region) {
    api_.OTF2_EvtWriter_Enter(w_, nullptr, t, global(region));
    open_.push_back(region);
    ++st_.events;
    stamp(t);
  }
  void leave(uint64_t t, uint32_t region) {
    api_.OTF2_EvtWriter_Leave(w_, nullptr, t, global(region));
    open_.pop_back();
    ++st_.events;
    stamp(t);
  }
  // A flush's record comes after every event before it, but the LEAVEs of
  // one exit that closes several frames all carry that exit's time: its
  // marker is written before the first later record at or after its time.
  void emit_markers(uint64_t t) {
    size_t k = 0;
    for (; k < markers_.size() && markers_[k].t <= t; ++k) {
      const Marker &m = markers_[k];
      if (m.lost) api_.OTF2_EvtWriter_MeasurementOnOff(w_, nullptr, m.t, OTF2_MEASUREMENT_ON);
      else api_.OTF2_EvtWriter_BufferFlush(w_, nullptr, m.t, m.stop);
      stamp(m.t);
    }
    markers_.erase(markers_.begin(), markers_.begin() + long(k));
  }
  void one(const Record &r) {
    switch (r.kind) {
      case kEnter:
        emit_markers(r.t);
        enter(r.t, r.region);
        break;
      case kLeave: {
        emit_markers(r.t);
        if (!open_.empty() && open_.back() == r.region) {
          leave(r.t, r.region);
          break;
        }
        // After a loss: close what was opened above it, or drop a LEAVE
        // whose ENTER was lost.
        auto it = std::find(open_.rbegin(), open_.rend(), r.region);
        if (it == open_.rend()) {
          ++st_.dropped;
          break;
        }
        while (open_.back() != r.region) {
          leave(r.t, open_.back());
          ++st_.repaired;
        }
        leave(r.t, r.region);
        break;
      }
      case kFlushBegin: flush_start_ = r.t, in_lost_ = false; break;
      case kLostBegin: {
        emit_markers(r.t);
        uint64_t t = std::max(r.t, last_);
        api_.OTF2_EvtWriter_MeasurementOnOff(w_, nullptr, t, OTF2_MEASUREMENT_OFF);
        stamp(t);
        in_lost_ = true;
        break;
      }
      case kFlushEnd:
        if (in_lost_) markers_.push_back({r.t, r.t, true});
        else markers_.push_back({flush_start_, r.t, false});
        in_lost_ = false;
        break;
      default: break;
    }
  }

  const otf2::Api &api_;
  OTF2_EvtWriter *w_;
  const std::vector<uint32_t> &map_;
  LocationStats &st_;
  std::vector<uint32_t> open_;
  std::vector<Marker> markers_;
  uint64_t flush_start_ = 0, last_ = 0;
  bool in_lost_ = false;
};

}  // namespace hcc::rt::trace
