// hcc tracer — collectives (see collectives.hpp).
#include "trace/collectives.hpp"

#include <cstring>

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


}  // namespace

const hcc_svc_collectives &serial_collectives() { return kSerial; }
const OTF2_CollectiveCallbacks &otf2_collectives() { return kCollectives; }

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

}  // namespace hcc::rt::trace
