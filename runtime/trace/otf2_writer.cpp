// hcc tracer — the OTF2 archive (see otf2_writer.hpp).
//
// The steps, each collective over the job's processes (one process: the
// trivial collectives below):
//  0. Does everybody write? Rank 0 gathers each process's readiness; if one
//     traced and another cannot, nobody writes and rank 0 says why.
//  1. Definitions up: each process sends its regions (registry order) and
//     thread count; rank 0 unifies regions by identity (name, linker name,
//     file, lines, kind) and sends back each process's region mapping and
//     the id of its first location (locations are numbered rank by rank).
//  2. Events: OTF2 opens the archive with our collectives (rank 0 creates
//     the directory); each process writes one event file per thread,
//     converting its records with the global region ids.
//  3. Statistics up (host, events per location, first/last time, losses);
//     rank 0 writes the global definitions: clock properties, strings,
//     regions with file, lines and paradigm, machine → host → process
//     (location group per rank) → thread (location), then everyone closes.
#include "trace/otf2_writer.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/clock.hpp"
#include "core/env.hpp"
#include "core/lifecycle.hpp"
#include "core/metrics.hpp"
#include "core/output.hpp"
#include "core/profile_builder.hpp"
#include "core/registry.hpp"
#include "core/thread_state.hpp"
#include "trace/otf2_api.hpp"
#include "trace/trace_state.hpp"
#include "trace/wire.hpp"

#ifndef HCC_VERSION
#define HCC_VERSION "unknown"
#endif

// OTF2 leaves this struct to whoever provides the collectives.
struct OTF2_CollectiveContext {
  const hcc_svc_collectives *c;
};

namespace hcc::rt::trace {

namespace {

using Coll = hcc_svc_collectives;

// --- the collectives of a single process ---------------------------------

int s_barrier(void *) { return 0; }
int s_bcast(void *, void *, uint64_t, int) { return 0; }
int s_gather(void *, const void *in, void *out, uint64_t bytes, int) {
  if (bytes) std::memmove(out, in, bytes);
  return 0;
}
int s_gatherv(void *, const void *in, uint64_t in_bytes, void *out, const uint64_t *, int) {
  if (in_bytes) std::memmove(out, in, in_bytes);
  return 0;
}
int s_scatter(void *, const void *in, void *out, uint64_t bytes, int) {
  if (bytes) std::memmove(out, in, bytes);
  return 0;
}
int s_scatterv(void *, const void *in, const uint64_t *, void *out, uint64_t out_bytes, int) {
  if (out_bytes) std::memmove(out, in, out_bytes);
  return 0;
}
const Coll kSerial = {nullptr, 0, 1, s_barrier, s_bcast, s_gather, s_gatherv, s_scatter, s_scatterv};

// --- byte strings to and from rank 0 --------------------------------------

std::vector<std::string> gather_bytes(const Coll &c, const std::string &mine) {
  uint64_t n = mine.size();
  std::vector<uint64_t> sizes(c.rank == 0 ? size_t(c.size) : 1);
  c.gather(c.ctx, &n, sizes.data(), sizeof n, 0);
  std::string all;
  if (c.rank == 0) {
    uint64_t total = 0;
    for (uint64_t s : sizes) total += s;
    all.resize(total);
  }
  c.gatherv(c.ctx, mine.data(), n, all.data(), sizes.data(), 0);
  std::vector<std::string> out;
  if (c.rank == 0) {
    size_t at = 0;
    for (uint64_t s : sizes) {
      out.push_back(all.substr(at, s));
      at += s;
    }
  }
  return out;
}

std::string scatter_bytes(const Coll &c, const std::vector<std::string> &parts) {
  std::vector<uint64_t> sizes;
  std::string all;
  if (c.rank == 0)
    for (const std::string &p : parts) sizes.push_back(p.size()), all += p;
  uint64_t mine = 0;
  c.scatter(c.ctx, sizes.data(), &mine, sizeof mine, 0);
  std::string out(mine, '\0');
  c.scatterv(c.ctx, all.data(), sizes.data(), out.data(), mine, 0);
  return out;
}

uint8_t bcast_flag(const Coll &c, uint8_t v) {
  c.bcast(c.ctx, &v, 1, 0);
  return v;
}

// --- OTF2's collective callbacks on ours ------------------------------------

uint64_t type_size(OTF2_Type t) {
  switch (t) {
    case OTF2_TYPE_UINT8:
    case OTF2_TYPE_INT8: return 1;
    case OTF2_TYPE_UINT16:
    case OTF2_TYPE_INT16: return 2;
    case OTF2_TYPE_UINT32:
    case OTF2_TYPE_INT32:
    case OTF2_TYPE_FLOAT: return 4;
    default: return 8;  // UINT64, INT64, DOUBLE
  }
}

const Coll &of(void *user) { return *static_cast<const Coll *>(user); }
OTF2_CallbackCode code(int rc) { return rc == 0 ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_ERROR; }

OTF2_CallbackCode o_size(void *u, OTF2_CollectiveContext *, uint32_t *size) {
  *size = uint32_t(of(u).size);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode o_rank(void *u, OTF2_CollectiveContext *, uint32_t *rank) {
  *rank = uint32_t(of(u).rank);
  return OTF2_CALLBACK_SUCCESS;
}
// Local communicators only serve the SION substrate; we write POSIX files.
OTF2_CallbackCode o_create_local(void *, OTF2_CollectiveContext **, OTF2_CollectiveContext *, uint32_t, uint32_t,
                                 uint32_t, uint32_t, uint32_t, uint32_t) {
  return OTF2_CALLBACK_ERROR;
}
OTF2_CallbackCode o_free_local(void *, OTF2_CollectiveContext *) { return OTF2_CALLBACK_SUCCESS; }
OTF2_CallbackCode o_barrier(void *u, OTF2_CollectiveContext *) { return code(of(u).barrier(of(u).ctx)); }
OTF2_CallbackCode o_bcast(void *u, OTF2_CollectiveContext *, void *data, uint32_t n, OTF2_Type t, uint32_t root) {
  return code(of(u).bcast(of(u).ctx, data, n * type_size(t), int(root)));
}
OTF2_CallbackCode o_gather(void *u, OTF2_CollectiveContext *, const void *in, void *out, uint32_t n, OTF2_Type t,
                           uint32_t root) {
  return code(of(u).gather(of(u).ctx, in, out, n * type_size(t), int(root)));
}
OTF2_CallbackCode o_gatherv(void *u, OTF2_CollectiveContext *, const void *in, uint32_t n, void *out,
                            const uint32_t *outn, OTF2_Type t, uint32_t root) {
  const Coll &c = of(u);
  std::vector<uint64_t> bytes;
  if (c.rank == int(root))
    for (int r = 0; r < c.size; ++r) bytes.push_back(outn[r] * type_size(t));
  return code(c.gatherv(c.ctx, in, n * type_size(t), out, bytes.data(), int(root)));
}
OTF2_CallbackCode o_scatter(void *u, OTF2_CollectiveContext *, const void *in, void *out, uint32_t n, OTF2_Type t,
                            uint32_t root) {
  return code(of(u).scatter(of(u).ctx, in, out, n * type_size(t), int(root)));
}
OTF2_CallbackCode o_scatterv(void *u, OTF2_CollectiveContext *, const void *in, const uint32_t *inn, void *out,
                             uint32_t n, OTF2_Type t, uint32_t root) {
  const Coll &c = of(u);
  std::vector<uint64_t> bytes;
  if (c.rank == int(root))
    for (int r = 0; r < c.size; ++r) bytes.push_back(inn[r] * type_size(t));
  return code(c.scatterv(c.ctx, in, bytes.data(), out, n * type_size(t), int(root)));
}
void o_release(void *, OTF2_CollectiveContext *, OTF2_CollectiveContext *) {}

const OTF2_CollectiveCallbacks kCollectives = {o_release, o_size,    o_rank,    o_create_local,
                                               o_free_local, o_barrier, o_bcast, o_gather,
                                               o_gatherv, o_scatter, o_scatterv};

// OTF2 writes a chunk when it is full (no flush record: our own flushes
// during the run are recorded as BufferFlush events instead).
OTF2_FlushType o_pre_flush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool) { return OTF2_FLUSH; }
const OTF2_FlushCallbacks kFlush = {o_pre_flush, nullptr};

// --- regions ------------------------------------------------------------------

std::string region_key(const RegionInfo &r) {
  return r.name + '\x1f' + r.mangled + '\x1f' + r.file + '\x1f' + std::to_string(r.begin_line) + '\x1f' +
         std::to_string(r.end_line) + '\x1f' + std::to_string(r.kind);
}

OTF2_Paradigm paradigm_of(int kind) {
  const std::string p = region_paradigm(kind);
  if (p == "compiler") return OTF2_PARADIGM_COMPILER;
  if (p == "openmp") return OTF2_PARADIGM_OPENMP;
  if (p == "mpi") return OTF2_PARADIGM_MPI;
  if (p == "measurement") return OTF2_PARADIGM_MEASUREMENT_SYSTEM;
  return OTF2_PARADIGM_USER;
}

OTF2_RegionRole role_of(int kind) {
  static const std::map<std::string, OTF2_RegionRole> roles = {
      {"function", OTF2_REGION_ROLE_FUNCTION},
      {"loop", OTF2_REGION_ROLE_LOOP},
      {"artificial", OTF2_REGION_ROLE_ARTIFICIAL},
      {"parallel", OTF2_REGION_ROLE_PARALLEL},
      {"sections", OTF2_REGION_ROLE_SECTIONS},
      {"section", OTF2_REGION_ROLE_SECTION},
      {"single", OTF2_REGION_ROLE_SINGLE},
      {"single sblock", OTF2_REGION_ROLE_SINGLE_SBLOCK},
      {"master", OTF2_REGION_ROLE_MASTER},
      {"critical", OTF2_REGION_ROLE_CRITICAL},
      {"critical sblock", OTF2_REGION_ROLE_CRITICAL_SBLOCK},
      {"atomic", OTF2_REGION_ROLE_ATOMIC},
      {"barrier", OTF2_REGION_ROLE_BARRIER},
      {"implicit barrier", OTF2_REGION_ROLE_IMPLICIT_BARRIER},
      {"flush", OTF2_REGION_ROLE_FLUSH},
      {"ordered", OTF2_REGION_ROLE_ORDERED},
      {"ordered sblock", OTF2_REGION_ROLE_ORDERED_SBLOCK},
      {"task", OTF2_REGION_ROLE_TASK},
      {"task create", OTF2_REGION_ROLE_TASK_CREATE},
      {"taskwait", OTF2_REGION_ROLE_TASK_WAIT},
      {"workshare", OTF2_REGION_ROLE_WORKSHARE},
      {"taskgroup", OTF2_REGION_ROLE_CODE},
  };
  auto it = roles.find(region_role(kind));
  return it == roles.end() ? OTF2_RegionRole(OTF2_REGION_ROLE_FUNCTION) : it->second;
}

// --- one thread's records to OTF2 events -------------------------------------

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

// --- files ---------------------------------------------------------------

uint64_t file_size(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? uint64_t(st.st_size) : 0;
}

// Sizes of <dir>/<name>.otf2, .def and the files in <dir>/<name>/.
uint64_t archive_bytes(const std::string &dir, const std::string &name) {
  uint64_t total = file_size(dir + "/" + name + ".otf2") + file_size(dir + "/" + name + ".def");
  if (DIR *d = opendir((dir + "/" + name).c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.') total += file_size(dir + "/" + name + "/" + e->d_name);
    closedir(d);
  }
  return total;
}

// An earlier run's archive of the same name (HCC_OUTPUT_DIR reused): its
// files are replaced, like profile.cubex. Only the files OTF2 writes.
void remove_old_archive(const std::string &dir, const std::string &name) {
  unlink((dir + "/" + name + ".otf2").c_str());
  unlink((dir + "/" + name + ".def").c_str());
  const std::string sub = dir + "/" + name;
  if (DIR *d = opendir(sub.c_str())) {
    std::vector<std::string> files;
    while (dirent *e = readdir(d)) {
      std::string f = e->d_name;
      auto ends = [&](const char *s) { return f.size() > std::strlen(s) && f.compare(f.size() - std::strlen(s), std::string::npos, s) == 0; };
      if (ends(".evt") || ends(".def") || ends(".snap")) files.push_back(f);
    }
    closedir(d);
    for (const std::string &f : files) unlink((sub + "/" + f).c_str());
    rmdir(sub.c_str());
  }
}

std::string host_name() {
  char buf[HOST_NAME_MAX + 1] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  return buf;
}

std::string human_bytes(double b) {
  char buf[64];
  if (b >= 1 << 30) std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1 << 30));
  else if (b >= 1 << 20) std::snprintf(buf, sizeof buf, "%.2f MiB", b / (1 << 20));
  else if (b >= 1 << 10) std::snprintf(buf, sizeof buf, "%.1f KiB", b / (1 << 10));
  else std::snprintf(buf, sizeof buf, "%.0f bytes", b);
  return buf;
}

}  // namespace

const hcc_svc_collectives &serial_collectives() { return kSerial; }

void write_archive(const Coll &c, const std::string &problem_in, const std::string &name) {
  stop_recording();
  const bool requested = problem_in != "HCC_TRACE is not set";
  std::string problem = problem_in;
  std::string dir_error;
  std::string dir;
  if (problem.empty()) {
    dir = prepare_output_dir(&dir_error);
    if (dir.empty()) problem = dir_error.empty() ? "no output directory" : dir_error;
  }

  // 0. Does everybody write?
  {
    wire::Out o;
    o.u32(problem.empty() ? 2 : requested ? 1 : 0);
    o.str(problem);
    std::vector<std::string> all = gather_bytes(c, o.bytes());
    uint8_t go = 1;
    if (c.rank == 0) {
      bool any_requested = false;
      std::string why;
      for (int r = 0; r < c.size; ++r) {
        wire::In in(all[size_t(r)].data(), all[size_t(r)].size());
        uint32_t status = in.u32();
        std::string text = in.str();
        any_requested |= status != 0;
        if (status != 2) {
          go = 0;
          if (status == 1 || why.empty())
            why = c.size > 1 ? "rank " + std::to_string(r) + ": " + text : text;
        }
      }
      if (!go && any_requested) {
        std::fprintf(stderr, "hcc: error: HCC_TRACE=1: no trace written (%s)\n", why.c_str());
        set_profile_attr("hcc.trace", "not written: " + why);
      }
    }
    if (!bcast_flag(c, go)) {
      remove_spill_files();
      return;
    }
  }
  std::string why;
  const otf2::Api &api = *otf2::load(&why);
  const std::vector<ThreadState *> threads = threads_snapshot();
  const std::vector<RegionInfo> regions = regions_snapshot();

  // 1. Definitions up, mapping down.
  std::vector<uint32_t> map;
  uint64_t first_location = 0;
  std::vector<RegionInfo> global_regions;  // rank 0
  std::vector<uint32_t> threads_of_rank;   // rank 0
  {
    wire::Out o;
    o.u32(uint32_t(threads.size()));
    o.u32(uint32_t(regions.size()));
    for (const RegionInfo &r : regions) {
      o.str(r.name), o.str(r.mangled), o.str(r.file);
      o.i32(r.begin_line), o.i32(r.end_line), o.i32(r.kind);
    }
    std::vector<std::string> all = gather_bytes(c, o.bytes());
    std::vector<std::string> replies;
    if (c.rank == 0) {
      std::unordered_map<std::string, uint32_t> ids;
      uint64_t next_location = 0;
      for (int r = 0; r < c.size; ++r) {
        wire::In in(all[size_t(r)].data(), all[size_t(r)].size());
        uint32_t nthreads = in.u32(), nregions = in.u32();
        threads_of_rank.push_back(nthreads);
        wire::Out reply;
        reply.u64(next_location);
        next_location += nthreads;
        reply.u32(nregions);
        for (uint32_t k = 0; k < nregions; ++k) {
          RegionInfo info;
          info.name = in.str(), info.mangled = in.str(), info.file = in.str();
          info.begin_line = in.i32(), info.end_line = in.i32(), info.kind = in.i32();
          auto [it, fresh] = ids.emplace(region_key(info), uint32_t(global_regions.size()));
          if (fresh) global_regions.push_back(std::move(info));
          reply.u32(it->second);
        }
        replies.push_back(std::move(reply.bytes()));
      }
      remove_old_archive(dir, name);
    }
    std::string mine = scatter_bytes(c, replies);
    wire::In in(mine.data(), mine.size());
    first_location = in.u64();
    map.resize(in.u32());
    for (uint32_t &m : map) m = in.u32();
  }

  // 2. The archive and this process's event files.
  OTF2_Archive *archive = api.OTF2_Archive_Open(dir.c_str(), name.c_str(), OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                                OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  // Nobody may enter OTF2's collectives while another process has no archive.
  {
    std::vector<std::string> all = gather_bytes(c, std::string(1, archive ? '1' : '0'));
    uint8_t ok = 1;
    if (c.rank == 0)
      for (const std::string &s : all) ok &= s == "1";
    if (!bcast_flag(c, ok)) {
      if (c.rank == 0) {
        std::fprintf(stderr, "hcc: error: HCC_TRACE=1: the OTF2 archive %s/%s could not be opened%s\n", dir.c_str(),
                     name.c_str(), dir_error.empty() ? "" : (" (" + dir_error + ")").c_str());
        set_profile_attr("hcc.trace", "not written: the OTF2 archive could not be opened in " + dir);
      }
      if (archive) api.OTF2_Archive_Close(archive);
      remove_spill_files();
      return;
    }
  }
  OTF2_CollectiveContext global_ctx{&c};
  api.OTF2_Archive_SetFlushCallbacks(archive, &kFlush, nullptr);
  api.OTF2_Archive_SetCollectiveCallbacks(archive, &kCollectives, const_cast<Coll *>(&c), &global_ctx, nullptr);
  api.OTF2_Archive_SetCreator(archive, "hcc " HCC_VERSION);
  api.OTF2_Archive_SetDescription(archive, ("hcc trace of " + run_info().command_line).c_str());
  api.OTF2_Archive_SetMachineName(archive, host_name().c_str());
  api.OTF2_Archive_OpenEvtFiles(archive);

  std::vector<TraceThread *> traced = trace_threads();
  std::vector<LocationStats> stats(threads.size());
  uint64_t lost = 0, read_lost = 0, flushes = 0, flush_ticks = 0;
  std::string read_error;
  for (size_t l = 0; l < threads.size(); ++l) {
    OTF2_EvtWriter *w = api.OTF2_Archive_GetEvtWriter(archive, first_location + l);
    if (!w) continue;
    TraceThread *tt = nullptr;
    for (TraceThread *x : traced)
      if (x->ts == threads[l]) tt = x;
    if (tt) {
      Converter conv(api, w, map, stats[l]);
      uint64_t records = 0;
      std::string err;
      bool ok = read_records(tt, [&](const Record *r, size_t n) { conv.add(r, n), records += n; }, &err);
      if (!ok) {
        // Whatever the spill file still held is lost too, and counted.
        read_lost += tt->spilled + tt->published.load() > records ? tt->spilled + tt->published.load() - records : 0;
        if (read_error.empty()) read_error = err;
      }
      conv.finish(clock_now());
      lost += tt->lost;
      flushes += tt->flushes;
      flush_ticks += tt->flush_ticks;
    }
    api.OTF2_Archive_CloseEvtWriter(archive, w);
  }
  api.OTF2_Archive_CloseEvtFiles(archive);
  api.OTF2_Archive_OpenDefFiles(archive);
  for (size_t l = 0; l < threads.size(); ++l)
    if (OTF2_DefWriter *dw = api.OTF2_Archive_GetDefWriter(archive, first_location + l))
      api.OTF2_Archive_CloseDefWriter(archive, dw);
  api.OTF2_Archive_CloseDefFiles(archive);
  remove_spill_files();
  if (!read_error.empty())
    std::fprintf(stderr, "hcc: error: HCC_TRACE: %s; its events are lost and counted\n", read_error.c_str());

  // 3. Statistics up; rank 0 writes the global definitions.
  const double spt = clock_seconds_per_tick();
  {
    wire::Out o;
    o.str(host_name());
    o.f64(spt);
    o.u32(uint32_t(threads.size()));
    for (const LocationStats &s : stats) o.u64(s.events), o.u64(s.tmin), o.u64(s.tmax);
    uint64_t repaired = 0, dropped = 0;
    for (const LocationStats &s : stats) repaired += s.repaired, dropped += s.dropped;
    o.u64(lost + read_lost), o.u64(repaired), o.u64(dropped), o.u64(flushes), o.u64(flush_ticks);
    std::vector<std::string> all = gather_bytes(c, o.bytes());
    if (c.rank == 0) {
      OTF2_GlobalDefWriter *g = api.OTF2_Archive_GetGlobalDefWriter(archive);
      std::unordered_map<std::string, OTF2_StringRef> strings;
      auto str = [&](const std::string &s) {
        auto [it, fresh] = strings.emplace(s, OTF2_StringRef(strings.size()));
        if (fresh) api.OTF2_GlobalDefWriter_WriteString(g, it->second, s.c_str());
        return it->second;
      };
      struct Rank {
        std::string host;
        std::vector<uint64_t> events;
      };
      std::vector<Rank> ranks;
      uint64_t tmin = UINT64_MAX, tmax = 0, total_events = 0, total_lost = 0, total_repaired = 0,
               total_dropped = 0, total_flushes = 0;
      double total_flush_sec = 0;
      for (int r = 0; r < c.size; ++r) {
        wire::In in(all[size_t(r)].data(), all[size_t(r)].size());
        Rank rk;
        rk.host = in.str();
        double rank_spt = in.f64();
        uint32_t n = in.u32();
        for (uint32_t k = 0; k < n; ++k) {
          uint64_t ev = in.u64(), lo = in.u64(), hi = in.u64();
          rk.events.push_back(ev);
          total_events += ev;
          if (ev) tmin = std::min(tmin, lo), tmax = std::max(tmax, hi);
        }
        total_lost += in.u64(), total_repaired += in.u64(), total_dropped += in.u64(), total_flushes += in.u64();
        total_flush_sec += double(in.u64()) * rank_spt;
        ranks.push_back(std::move(rk));
      }
      if (tmin == UINT64_MAX) tmin = tmax = clock_now();
      // The wall-clock time of the first event, for tools that show dates.
      timespec now_real;
      clock_gettime(CLOCK_REALTIME, &now_real);
      const double ago = double(clock_now() - tmin) * spt;
      const double real_ns = double(now_real.tv_sec) * 1e9 + double(now_real.tv_nsec) - ago * 1e9;
      api.OTF2_GlobalDefWriter_WriteClockProperties(g, uint64_t(1.0 / spt + 0.5), tmin, tmax - tmin,
                                                    real_ns > 0 ? uint64_t(real_ns) : OTF2_UNDEFINED_TIMESTAMP);
      const OTF2_StringRef empty = str("");
      for (size_t k = 0; k < global_regions.size(); ++k) {
        const RegionInfo &r = global_regions[k];
        api.OTF2_GlobalDefWriter_WriteRegion(
            g, OTF2_RegionRef(k), str(r.name), str(r.mangled.empty() ? r.name : r.mangled), empty, role_of(r.kind),
            paradigm_of(r.kind), OTF2_REGION_FLAG_NONE, str(r.file), uint32_t(std::max(r.begin_line, 0)),
            uint32_t(std::max(r.end_line, 0)));
      }
      api.OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, str("hcc"), str("machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
      std::map<std::string, OTF2_SystemTreeNodeRef> nodes;
      for (const Rank &rk : ranks) {
        auto [it, fresh] = nodes.emplace(rk.host, OTF2_SystemTreeNodeRef(nodes.size() + 1));
        if (fresh) api.OTF2_GlobalDefWriter_WriteSystemTreeNode(g, it->second, str(rk.host), str("node"), 0);
      }
      uint64_t loc = 0;
      for (int r = 0; r < c.size; ++r) {
        const Rank &rk = ranks[size_t(r)];
        api.OTF2_GlobalDefWriter_WriteLocationGroup(g, OTF2_LocationGroupRef(r), str("rank " + std::to_string(r)),
                                                    OTF2_LOCATION_GROUP_TYPE_PROCESS, nodes[rk.host],
                                                    OTF2_UNDEFINED_LOCATION_GROUP);
        for (size_t t = 0; t < rk.events.size(); ++t, ++loc)
          api.OTF2_GlobalDefWriter_WriteLocation(g, loc, str("thread " + std::to_string(t)),
                                                 OTF2_LOCATION_TYPE_CPU_THREAD, rk.events[t], OTF2_LocationGroupRef(r));
      }
      OTF2_ErrorCode rc = api.OTF2_Archive_Close(archive);
      archive = nullptr;
      const uint64_t bytes = archive_bytes(dir, name);
      const double per_million = total_events ? double(bytes) / double(total_events) * 1e6 : 0;
      std::string text = name + ".otf2: " + std::to_string(total_events) + " events on " + std::to_string(loc) +
                         " location" + (loc == 1 ? "" : "s") + ", " + human_bytes(double(bytes)) + " (" +
                         human_bytes(per_million) + " per million events); buffer " +
                         human_bytes(double(buffer_records()) * sizeof(Record)) + " per thread, " +
                         std::to_string(total_flushes) + " flush" + (total_flushes == 1 ? "" : "es") + " to disk";
      if (total_flushes) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " (%.3f s)", total_flush_sec);
        text += buf;
      }
      if (const char *sel = std::getenv("HCC_TRACE_SELECT"); sel && *sel)
        text += "; HCC_TRACE_SELECT=" + std::string(sel);
      if (rc != OTF2_SUCCESS) text += "; closing the archive failed: " + otf2::error_text(api, rc);
      set_profile_attr("hcc.trace", text);
      set_profile_attr("hcc.trace.events", std::to_string(total_events));
      set_profile_attr("hcc.trace.bytes", std::to_string(bytes));
      if (total_lost || total_dropped) {
        std::string l = std::to_string(total_lost) + " events could not be written to disk (the trace marks each gap "
                        "with MEASUREMENT_ON_OFF); " + std::to_string(total_repaired) + " LEAVEs were added and " +
                        std::to_string(total_dropped) + " LEAVEs without their ENTER left out to keep the nesting";
        set_profile_attr("hcc.trace.lost", l);
        std::fprintf(stderr, "hcc: error: HCC_TRACE: %s\n", l.c_str());
      }
      if (settings().verbose >= 1)
        std::fprintf(stderr, "hcc: trace written to %s/%s.otf2 (%s)\n", dir.c_str(), name.c_str(),
                     (std::to_string(total_events) + " events, " + human_bytes(double(bytes))).c_str());
    }
  }
  if (archive) api.OTF2_Archive_Close(archive);
}

}  // namespace hcc::rt::trace
