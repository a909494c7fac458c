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

#include <fcntl.h>
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
#include "trace/archive_files.hpp"
#include "otf2_api/otf2_api.hpp"
#include "trace/trace_state.hpp"
#include "trace/wire.hpp"
#include "trace/collectives.hpp"
#include "trace/event_converter.hpp"
#include "config/config.hpp"

#ifndef HCC_VERSION
#define HCC_VERSION "unknown"
#endif

namespace hcc::rt::trace {

namespace {

using Coll = hcc_svc_collectives;

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

// --- the run ---------------------------------------------------------------

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

void write_archive(const Coll &c, const std::string &problem_in, std::string name) {
  stop_recording();
  const bool requested = problem_in != "HCC_TRACE is not set";
  std::string problem = problem_in;
  std::string dir_error;
  std::string dir;
  ArchiveDir archive_dir;  // open until the archive is closed: OTF2 writes through it
  Claim claim;             // rank 0: the names the archive will take
  std::string priv_name;   // the private directory OTF2 writes in (archive_files.hpp)
  if (problem.empty()) {
    if (!open_archive_dir(archive_dir, dir_error)) problem = dir_error;
    dir = archive_dir.shown;
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
      std::string refused;
      if (!claim_archive(archive_dir, name, settings().overwrite, claim, refused)) {
        std::fprintf(stderr, "hcc: error: HCC_TRACE=1: no trace written: %s\n", refused.c_str());
        set_profile_attr("hcc.trace", "not written: " + refused);
      }
      for (std::string &r : replies) {
        wire::Out o;
        o.str(claim.name);  // "" = refused: everybody stops here
        o.str(archive_dir.priv_name);
        r += o.bytes();
      }
    }
    std::string mine = scatter_bytes(c, replies);
    wire::In in(mine.data(), mine.size());
    first_location = in.u64();
    map.resize(in.u32());
    for (uint32_t &m : map) m = in.u32();
    name = in.str();  // the archive's name, chosen by rank 0
    priv_name = in.str();
    if (name.empty()) {
      remove_spill_files();
      return;
    }
  }

  // 2. The archive and this process's event files, in the private directory.
  OTF2_Archive *archive = nullptr;
  if (open_private_dir(archive_dir, priv_name, dir_error))
    archive = api.OTF2_Archive_Open(archive_dir.for_otf2.c_str(), name.c_str(), OTF2_FILEMODE_WRITE, 1 << 20,
                                    4 << 20, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  else
    std::fprintf(stderr, "hcc: error: HCC_TRACE=1: rank %d: %s\n", c.rank, dir_error.c_str());
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
      if (c.rank == 0) abandon_archive(archive_dir, claim);
      remove_spill_files();
      return;
    }
  }
  OTF2_CollectiveContext global_ctx{&c};
  api.OTF2_Archive_SetFlushCallbacks(archive, &kFlush, nullptr);
  api.OTF2_Archive_SetCollectiveCallbacks(archive, &otf2_collectives(), const_cast<Coll *>(&c), &global_ctx, nullptr);
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
  std::string summary_line;  // rank 0: for HCC_VERBOSE
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
      const uint64_t bytes = archive_bytes(archive_dir, name);
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
      if (const char *sel = config::nonempty("HCC_TRACE_SELECT"))
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
      summary_line = std::to_string(total_events) + " events, " + human_bytes(double(bytes));
    }
  }
  if (archive) api.OTF2_Archive_Close(archive);

  // 4. Every process has closed its files: rank 0 moves the archive from the
  // private directory onto the names it claimed.
  gather_bytes(c, "");
  if (c.rank != 0) return;
  std::string refused;
  if (!publish_archive(archive_dir, claim, refused)) {
    std::fprintf(stderr, "hcc: error: HCC_TRACE=1: the trace was not put in place: %s\n", refused.c_str());
    set_profile_attr("hcc.trace", "not put in place: " + refused);
    return;
  }
  if (settings().verbose >= 1)
    std::fprintf(stderr, "hcc: trace written to %s/%s.otf2 (%s)\n", dir.c_str(), name.c_str(), summary_line.c_str());
}

}  // namespace hcc::rt::trace
