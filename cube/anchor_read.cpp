// hcc — parse anchor.xml with libxml2's DOM parser.
// Reading is not on any hot path, so a full parse is the simple, robust
// choice. Writers other than us (CubeLib, Score-P) are accepted as far as the
// Profile model can hold their definitions.
#include "anchor_read.hpp"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace hcc::profile::detail {
namespace {

[[noreturn]] void bad(const std::string &what) { throw std::runtime_error("anchor.xml: " + what); }

bool is(const xmlNode *n, const char *name) {
  return n && n->type == XML_ELEMENT_NODE && std::strcmp(reinterpret_cast<const char *>(n->name), name) == 0;
}

std::vector<xmlNode *> elements(const xmlNode *parent) {
  std::vector<xmlNode *> out;
  for (xmlNode *c = parent->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE) out.push_back(c);
  return out;
}

std::string content(const xmlNode *n) {
  xmlChar *s = xmlNodeGetContent(n);
  std::string out = s ? reinterpret_cast<const char *>(s) : "";
  xmlFree(s);
  return out;
}

bool has_attr(const xmlNode *n, const char *name) {
  return xmlHasProp(n, reinterpret_cast<const xmlChar *>(name)) != nullptr;
}

std::string attr(const xmlNode *n, const char *name) {
  xmlChar *s = xmlGetProp(n, reinterpret_cast<const xmlChar *>(name));
  std::string out = s ? reinterpret_cast<const char *>(s) : "";
  xmlFree(s);
  return out;
}

// Text of the first child element `name`, "" when there is none.
std::string child_text(const xmlNode *n, const char *name) {
  for (xmlNode *c = n->children; c; c = c->next)
    if (is(c, name)) return content(c);
  return "";
}

long to_long(const std::string &text, const std::string &what) {
  std::size_t b = text.find_first_not_of(" \t\r\n");
  std::size_t e = text.find_last_not_of(" \t\r\n");
  const std::string t = b == std::string::npos ? "" : text.substr(b, e - b + 1);
  try {
    std::size_t used = 0;
    const long v = std::stol(t, &used);
    if (used == t.size()) return v;
  } catch (const std::exception &) {
  }
  bad(what + " is \"" + text + "\", not an integer");
}

int line_of(const xmlNode *n) { return static_cast<int>(xmlGetLineNo(n)); }

// The element's id: `id` on metrics/regions/cnodes, `Id` in the system tree
// (CubeLib's scanner accepts both spellings everywhere, so do we).
long id_of(const xmlNode *n) {
  const char *key = has_attr(n, "id") ? "id" : has_attr(n, "Id") ? "Id" : nullptr;
  if (!key)
    bad(std::string("<") + reinterpret_cast<const char *>(n->name) + "> on line " +
        std::to_string(line_of(n)) + " has no id");
  return to_long(attr(n, key), std::string("id of <") + reinterpret_cast<const char *>(n->name) +
                                   "> on line " + std::to_string(line_of(n)));
}

// CubeLib writes a few attributes without quotes (`<cubepl rowwise=false>`,
// `<cubeplaggr cubeplaggrtype=plus>`), which is not XML. Quote bare attribute
// values inside tags so libxml2 accepts Score-P files with derived metrics.
std::string quote_bare_attributes(const std::string &in) {
  std::string out;
  out.reserve(in.size() + 16);
  bool in_tag = false;
  char quote = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (!in_tag) {
      if (c == '<' && in.compare(i, 4, "<!--") == 0) {  // copy comments verbatim
        const std::size_t e = in.find("-->", i + 4);
        const std::size_t stop = e == std::string::npos ? in.size() : e + 3;
        out.append(in, i, stop - i);
        i = stop - 1;
        continue;
      }
      if (c == '<' && in.compare(i, 9, "<![CDATA[") == 0) {
        const std::size_t e = in.find("]]>", i + 9);
        const std::size_t stop = e == std::string::npos ? in.size() : e + 3;
        out.append(in, i, stop - i);
        i = stop - 1;
        continue;
      }
      if (c == '<') in_tag = true;
      out.push_back(c);
      continue;
    }
    if (quote) {
      if (c == quote) quote = 0;
      out.push_back(c);
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      out.push_back(c);
    } else if (c == '>') {
      in_tag = false;
      out.push_back(c);
    } else if (c == '=' && i + 1 < in.size() && in[i + 1] != '"' && in[i + 1] != '\'') {
      std::size_t e = i + 1;
      while (e < in.size() && !std::strchr(" \t\r\n>", in[e]) && in.compare(e, 2, "/>") != 0) ++e;
      out += "=\"";
      out.append(in, i + 1, e - i - 1);
      out.push_back('"');
      i = e - 1;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

void read_metrics(const xmlNode *metrics, Anchor &a) {
  // Iterative walk: entries are (element, parent file id).
  std::vector<std::pair<const xmlNode *, int>> stack;
  auto push_children = [&](const xmlNode *n, int parent) {
    auto kids = elements(n);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it)
      if (is(*it, "metric")) stack.push_back({*it, parent});
  };
  push_children(metrics, -1);
  while (!stack.empty()) {
    auto [n, parent] = stack.back();
    stack.pop_back();
    AnchorMetric m;
    m.file_id = static_cast<int>(id_of(n));
    m.parent_file_id = parent;
    m.type = attr(n, "type");
    m.dtype = child_text(n, "dtype");
    m.meta.disp_name = child_text(n, "disp_name");
    m.meta.uniq_name = child_text(n, "uniq_name");
    m.meta.uom = child_text(n, "uom");
    m.meta.url = child_text(n, "url");
    m.meta.descr = child_text(n, "descr");
    a.metrics.push_back(m);
    push_children(n, m.file_id);
  }
  std::sort(a.metrics.begin(), a.metrics.end(),
            [](const AnchorMetric &x, const AnchorMetric &y) { return x.file_id < y.file_id; });
  for (std::size_t i = 0; i < a.metrics.size(); ++i)
    if (a.metrics[i].file_id != static_cast<int>(i))
      bad("metric ids are not 0.." + std::to_string(a.metrics.size() - 1) + " (found id " +
          std::to_string(a.metrics[i].file_id) + " at position " + std::to_string(i) + ")");
}

void read_program(const xmlNode *program, Anchor &a) {
  Profile &p = a.skeleton;
  // Regions: ids are usually dense; compact them if a writer left gaps.
  std::map<long, int> region_index;
  std::vector<std::pair<long, Region>> regs;
  for (xmlNode *n : elements(program)) {
    if (!is(n, "region")) continue;
    Region r;
    r.file = attr(n, "mod");
    r.begin_line = has_attr(n, "begin") ? static_cast<int>(to_long(attr(n, "begin"), "region begin")) : -1;
    r.end_line = has_attr(n, "end") ? static_cast<int>(to_long(attr(n, "end"), "region end")) : -1;
    r.name = child_text(n, "name");
    r.mangled = child_text(n, "mangled_name");
    r.paradigm = child_text(n, "paradigm");
    r.role = child_text(n, "role");
    r.descr = child_text(n, "descr");
    regs.push_back({id_of(n), r});
  }
  std::sort(regs.begin(), regs.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
  for (std::size_t i = 0; i < regs.size(); ++i) {
    if (!region_index.emplace(regs[i].first, static_cast<int>(i)).second)
      bad("region id " + std::to_string(regs[i].first) + " defined twice");
    p.regions.push_back(regs[i].second);
  }
  if (!regs.empty() && (regs.front().first != 0 || regs.back().first != static_cast<long>(regs.size()) - 1))
    a.notes.push_back("region ids were not dense; renumbered in id order");

  // Call paths in document pre-order.
  struct Node {
    long file_id;
    int region;
    int parent;  // index into `doc`
  };
  std::vector<Node> doc;
  std::vector<std::pair<const xmlNode *, int>> stack;
  auto push_children = [&](const xmlNode *n, int parent) {
    auto kids = elements(n);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it)
      if (is(*it, "cnode")) stack.push_back({*it, parent});
  };
  push_children(program, -1);
  while (!stack.empty()) {
    auto [n, parent] = stack.back();
    stack.pop_back();
    if (!has_attr(n, "calleeId")) bad("<cnode> on line " + std::to_string(line_of(n)) + " has no calleeId");
    const long callee = to_long(attr(n, "calleeId"), "calleeId on line " + std::to_string(line_of(n)));
    auto r = region_index.find(callee);
    if (r == region_index.end())
      bad("<cnode> on line " + std::to_string(line_of(n)) + " calls region " + std::to_string(callee) +
          ", which is not defined");
    doc.push_back({id_of(n), r->second, parent});
    push_children(n, static_cast<int>(doc.size()) - 1);
  }

  // Keep the file's ids when they already have the model's properties
  // (dense, parent < child, siblings ascending in document order) — true for
  // our own files, so a round trip keeps ids. Otherwise number in document
  // pre-order, which has those properties by construction.
  const std::size_t nc = doc.size();
  bool keep = true;
  std::vector<char> seen(nc, 0);
  std::vector<long> last_child(nc + 1, -1);  // per parent (index nc = roots)
  for (std::size_t i = 0; i < nc && keep; ++i) {
    const long id = doc[i].file_id;
    if (id < 0 || static_cast<std::size_t>(id) >= nc || seen[static_cast<std::size_t>(id)]) {
      keep = false;
      break;
    }
    seen[static_cast<std::size_t>(id)] = 1;
    const int par = doc[i].parent;
    if (par >= 0 && doc[static_cast<std::size_t>(par)].file_id >= id) keep = false;
    long &prev = last_child[par < 0 ? nc : static_cast<std::size_t>(par)];
    if (prev >= id) keep = false;
    prev = id;
  }
  if (!keep) a.notes.push_back("call path ids renumbered in document order");
  p.cnodes.assign(nc, CallNode{});
  for (std::size_t i = 0; i < nc; ++i) {
    const std::size_t id = keep ? static_cast<std::size_t>(doc[i].file_id) : i;
    const int par = doc[i].parent;
    p.cnodes[id].region = doc[i].region;
    p.cnodes[id].parent = par < 0 ? -1 : (keep ? static_cast<int>(doc[static_cast<std::size_t>(par)].file_id) : par);
  }
}

// Host names are kept per rank for ranks below this (or 4 per location
// group, if more): 65536 x 32 bytes = 2 MiB.
constexpr std::size_t kDenseHostRanks = std::size_t(1) << 16;

// `max_rank`: a file of S bytes can describe at most S ranks, and a larger
// rank is refused (a rank is a number the views index by); the hosts per
// rank are kept densely only up to kDenseHostRanks (below).
void read_system(const xmlNode *system, Anchor &a, std::size_t max_rank) {
  Profile &p = a.skeleton;
  std::map<long, Location> locs;
  std::map<int, std::string> host_of_rank;
  bool machine_set = false;

  struct Item {
    const xmlNode *n;
    std::string host;  // name of the innermost enclosing systemtreenode
  };
  std::vector<Item> stack;
  auto push_children = [&](const xmlNode *n, const std::string &host) {
    auto kids = elements(n);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back({*it, host});
  };
  push_children(system, "");
  while (!stack.empty()) {
    Item it = stack.back();
    stack.pop_back();
    const xmlNode *n = it.n;
    if (is(n, "systemtreenode")) {
      const std::string name = child_text(n, "name");
      if (!machine_set) {
        p.machine = name;
        machine_set = true;
      }
      push_children(n, name);
    } else if (is(n, "locationgroup")) {
      const long rank_l = to_long(child_text(n, "rank"), "rank of location group on line " + std::to_string(line_of(n)));
      if (rank_l >= 0 && static_cast<unsigned long>(rank_l) >= max_rank)
        bad("rank " + std::to_string(rank_l) + " of location group on line " + std::to_string(line_of(n)) +
            " exceeds what anchor.xml of " + std::to_string(max_rank) + " bytes can describe");
      const int rank = rank_l < 0 ? -1 : static_cast<int>(rank_l);  // negative: validate() refuses it
      host_of_rank.emplace(rank, it.host);
      for (xmlNode *c : elements(n)) {
        if (!is(c, "location")) continue;
        const long id = id_of(c);
        Location loc;
        loc.name = child_text(c, "name");
        loc.rank = rank;
        loc.thread = static_cast<int>(to_long(child_text(c, "rank"), "rank of location on line " +
                                                                         std::to_string(line_of(c))));
        if (!locs.emplace(id, loc).second) bad("location Id " + std::to_string(id) + " defined twice");
      }
    } else if (is(n, "machine") || is(n, "node") || is(n, "process") || is(n, "thread")) {
      bad("system tree in the old CUBE 3 form (<" + std::string(reinterpret_cast<const char *>(n->name)) +
          ">) is not supported");
    }
    // <topologies> and unknown elements carry nothing the model holds.
  }
  long expect = 0;
  for (const auto &kv : locs) {
    if (kv.first != expect)
      bad("location Ids are not 0.." + std::to_string(locs.size() - 1) + " (missing " + std::to_string(expect) +
          "); they are the data columns, so the file cannot be read");
    p.locations.push_back(kv.second);
    ++expect;
  }
  if (p.locations.empty()) bad("no <location> in <system>");
  // Profile::hosts is indexed by rank: 32 bytes a rank, whether the file has
  // that rank or not. A rank far above the number of location groups (one
  // rank's own profile.rank-<r>.cubex, or a hostile <rank> of 30 million:
  // 1.14 GB) keeps its host name only below dense_ranks, which costs at
  // most 2 MiB or 128 bytes per group (each costs ~100 bytes of XML).
  // Nothing hcc-report shows reads host names; re-writing such a profile
  // names the host of those ranks "unknown host".
  const std::size_t dense_ranks = std::max<std::size_t>(kDenseHostRanks, 4 * host_of_rank.size());
  std::size_t dropped = 0;
  for (const auto &kv : host_of_rank) {
    if (kv.first < 0) continue;
    const auto rank = static_cast<std::size_t>(kv.first);
    if (rank >= dense_ranks) {
      ++dropped;
      continue;
    }
    if (p.hosts.size() <= rank) p.hosts.resize(rank + 1);
    p.hosts[rank] = kv.second;
  }
  if (dropped)
    a.notes.push_back("host names of " + std::to_string(dropped) + " location group(s) with ranks of " +
                      std::to_string(dense_ranks) + " or more not kept (ranks that sparse)");
}

struct FirstError {
  bool seen = false;
  int line = 0;
  std::string message;
  static void record(void *self, xmlErrorPtr e) {
    auto *f = static_cast<FirstError *>(self);
    if (f->seen || !e || e->level < XML_ERR_ERROR) return;
    f->seen = true;
    f->line = e->line;
    f->message = e->message ? e->message : "XML error";
  }
};

// A profile never needs a DTD: refusing the internal subset before libxml2
// reads its entity declarations makes entity expansion ("billion laughs")
// impossible, whatever the parser options. XML_PARSE_HUGE (needed for the
// call tree's nesting) then lifts nothing that an input can amplify: what
// remains costs a small multiple of the input's size.
// The parser context's _private points at the flag.
void refuse_dtd(void *ctx, const xmlChar *, const xmlChar *, const xmlChar *) {
  auto *c = static_cast<xmlParserCtxtPtr>(ctx);
  *static_cast<bool *>(c->_private) = true;
  xmlStopParser(c);
}

struct DocDeleter {
  void operator()(xmlDoc *d) const { xmlFreeDoc(d); }
};
struct CtxtDeleter {
  void operator()(xmlParserCtxt *c) const { xmlFreeParserCtxt(c); }
};

}  // namespace

Anchor parse_anchor(const std::string &raw) {
  const std::string xml = quote_bare_attributes(raw);
  std::unique_ptr<xmlParserCtxt, CtxtDeleter> ctxt(xmlNewParserCtxt());
  if (!ctxt) bad("out of memory creating the XML parser");
  // HUGE lifts the 256-level nesting limit to 2048 (the call tree nests).
  // No XML_PARSE_NOENT, XML_PARSE_DTDLOAD or DTD validation: entities are
  // never substituted, nothing external is read, and a DTD is refused below.
  const int opts = XML_PARSE_NONET | XML_PARSE_HUGE | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
  bool has_dtd = false;
  ctxt->_private = &has_dtd;
  ctxt->sax->internalSubset = &refuse_dtd;
  // libxml2 keeps going after the first error and reports follow-up errors
  // ("Premature end of data") last; the first one is the one that helps.
  // The structured-error hook is per thread in libxml2; restore it after.
  FirstError first;
  const xmlStructuredErrorFunc old_fn = xmlStructuredError;
  void *const old_ctx = xmlStructuredErrorContext;
  xmlSetStructuredErrorFunc(&first, &FirstError::record);
  std::unique_ptr<xmlDoc, DocDeleter> doc(
      xmlCtxtReadMemory(ctxt.get(), xml.data(), static_cast<int>(xml.size()), "anchor.xml", nullptr, opts));
  xmlSetStructuredErrorFunc(old_ctx, old_fn);
  if (has_dtd) bad("declares a DTD (<!DOCTYPE …>); a CUBE profile never has one, so it is refused unread");
  if (!doc || !ctxt->wellFormed) {
    std::string msg = first.seen ? first.message : "not well-formed XML";
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    bad("line " + std::to_string(first.line) + ": " + msg);
  }
  const xmlNode *root = xmlDocGetRootElement(doc.get());
  if (!is(root, "cube")) bad("root element is not <cube>");
  const std::string version = attr(root, "version");
  if (version.rfind("4.", 0) != 0) bad("CUBE version \"" + version + "\" is not 4.x");

  Anchor a;
  bool have_metrics = false, have_program = false, have_system = false;
  for (xmlNode *n : elements(root)) {
    if (is(n, "attr")) {
      a.skeleton.attrs.push_back({attr(n, "key"), attr(n, "value")});
    } else if (is(n, "metrics")) {
      read_metrics(n, a);
      have_metrics = true;
    } else if (is(n, "program")) {
      read_program(n, a);
      have_program = true;
    } else if (is(n, "system")) {
      read_system(n, a, raw.size());
      have_system = true;
    } else if (is(n, "severity") && n->children) {
      a.notes.push_back("embedded <severity> data (CUBE 3 style) ignored");
    }
  }
  if (!have_metrics) bad("no <metrics>");
  if (!have_program) bad("no <program>");
  if (!have_system) bad("no <system>");
  return a;
}

}  // namespace hcc::profile::detail
