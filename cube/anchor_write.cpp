// hcc — anchor.xml, the definitions part of a .cubex file.
//
// CubeLib reads anchor.xml with a flex scanner that matches literal text, not
// with an XML parser. libxml2's xmlTextWriter gives us correct escaping and
// nesting, and its byte output happens to be what the scanner needs as long as
// we stay inside these rules (checked byte for byte by tests/cube):
//  - StartDocument("UTF-8") writes exactly `<?xml version="1.0" encoding="UTF-8"?>`
//    with double quotes; attributes are written in call order, so `key` comes
//    before `value` and `id` is the first attribute of a metric.
//  - The scanner knows `<name>`, `<url>` ... only as `<name>` + `</name>`;
//    it has no rule for an empty tag `<url/>`. Every element except <attr>
//    is therefore closed with FullEndElement.
//  - Indentation is written by us (capped), not by xmlTextWriter, whose
//    indent grows with depth: quadratic size for deep recursion.
//  - The scanner understands only the five named entities; libxml2 would
//    write control characters as `&#10;` etc. We replace control characters
//    by spaces and invalid UTF-8 by '?' before handing text to libxml2, so
//    the only escapes written are &amp; &lt; &gt; &quot;.
#include <libxml/xmlwriter.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cube_format.hpp"
#include "cubex.hpp"

namespace hcc::profile {
namespace {

// Makes `s` safe for the CubeLib scanner and for XML 1.0: printable UTF-8
// only. Control characters (including tab and newline) become spaces.
std::string clean(const std::string &s) {
  std::string out;
  out.reserve(s.size());
  const auto *b = reinterpret_cast<const unsigned char *>(s.data());
  const std::size_t n = s.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = b[i];
    if (c < 0x80) {
      out.push_back(c < 0x20 || c == 0x7f ? ' ' : static_cast<char>(c));
      ++i;
      continue;
    }
    // Length and minimum code point of a UTF-8 sequence led by c.
    std::size_t len = 0;
    std::uint32_t cp = 0, min = 0;
    if ((c & 0xe0) == 0xc0) len = 2, cp = c & 0x1f, min = 0x80;
    else if ((c & 0xf0) == 0xe0) len = 3, cp = c & 0x0f, min = 0x800;
    else if ((c & 0xf8) == 0xf0) len = 4, cp = c & 0x07, min = 0x10000;
    bool ok = len != 0 && i + len <= n;
    for (std::size_t k = 1; ok && k < len; ++k) {
      if ((b[i + k] & 0xc0) != 0x80) ok = false;
      else cp = (cp << 6) | (b[i + k] & 0x3f);
    }
    ok = ok && cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) &&
         cp != 0xfffe && cp != 0xffff;
    if (ok) {
      out.append(s, i, len);
      i += len;
    } else {
      out.push_back('?');
      ++i;
    }
  }
  return out;
}

// Thin RAII wrapper that turns libxml2's "-1 on error" into exceptions.
class Writer {
 public:
  Writer() : buf_(xmlBufferCreate()) {
    if (!buf_) throw std::runtime_error("anchor.xml: out of memory (xmlBufferCreate)");
    w_ = xmlNewTextWriterMemory(buf_, 0);
    if (!w_) {
      xmlBufferFree(buf_);
      throw std::runtime_error("anchor.xml: cannot create xmlTextWriter");
    }
  }
  ~Writer() {
    if (w_) xmlFreeTextWriter(w_);
    xmlBufferFree(buf_);
  }
  Writer(const Writer &) = delete;
  Writer &operator=(const Writer &) = delete;

  void start_document() { check(xmlTextWriterStartDocument(w_, nullptr, "UTF-8", nullptr), "StartDocument"); }
  // Indentation is ours, not xmlTextWriter's: its indent grows without
  // bound, which makes a 100000-deep call tree (deep recursion) a quadratic,
  // gigabyte-sized anchor.xml. We cap the indent at kMaxIndent levels.
  void start(const char *name) {
    if (!open_.empty()) {
      open_.back() = true;  // the parent now has element children
      newline(open_.size());
    }
    check(xmlTextWriterStartElement(w_, x(name)), name);
    open_.push_back(false);
  }
  void attr(const char *name, const std::string &value) {
    check(xmlTextWriterWriteAttribute(w_, x(name), x(clean(value).c_str())), name);
  }
  void attr(const char *name, long long value) { attr(name, std::to_string(value)); }
  // Closes with an explicit end tag, also when empty (see file comment).
  void end() {
    const bool had_children = open_.back();
    open_.pop_back();
    if (had_children) newline(open_.size());
    check(xmlTextWriterFullEndElement(w_), "FullEndElement");
  }
  // Closes as `<x .../>`; only for <attr>, which CubeLib itself writes so.
  void end_empty() {
    open_.pop_back();
    check(xmlTextWriterEndElement(w_), "EndElement");
  }
  void text_element(const char *name, const std::string &text) {
    start(name);
    const std::string t = clean(text);
    if (!t.empty()) check(xmlTextWriterWriteString(w_, x(t.c_str())), name);
    end();
  }
  std::string finish() {
    check(xmlTextWriterEndDocument(w_), "EndDocument");
    check(xmlTextWriterFlush(w_), "Flush");
    return std::string(reinterpret_cast<const char *>(xmlBufferContent(buf_)),
                       static_cast<std::size_t>(xmlBufferLength(buf_)));
  }

 private:
  static constexpr std::size_t kMaxIndent = 24;
  void newline(std::size_t depth) {
    const std::string ws = "\n" + std::string(2 * std::min(depth, kMaxIndent), ' ');
    check(xmlTextWriterWriteRaw(w_, x(ws.c_str())), "indentation");
  }
  static const xmlChar *x(const char *s) { return reinterpret_cast<const xmlChar *>(s); }
  static void check(int rc, const char *what) {
    if (rc < 0) throw std::runtime_error(std::string("anchor.xml: libxml2 failed writing ") + what);
  }
  xmlBufferPtr buf_ = nullptr;
  xmlTextWriterPtr w_ = nullptr;
  std::vector<bool> open_;  // per open element: has it element children yet?
};

void write_metric(Writer &w, const Profile &p, const std::vector<std::vector<int>> &kids, int m) {
  const Metric &met = p.metrics[static_cast<std::size_t>(m)];
  w.start("metric");
  w.attr("id", m);  // must be the first attribute
  w.attr("type", detail::cube_type_name(met.cube_type));
  w.text_element("disp_name", met.disp_name.empty() ? met.uniq_name : met.disp_name);
  w.text_element("uniq_name", met.uniq_name);
  w.text_element("dtype", detail::dtype_name(met.dtype));
  w.text_element("uom", met.uom);
  w.text_element("url", met.url);
  w.text_element("descr", met.descr);
  for (int child : kids[static_cast<std::size_t>(m)]) write_metric(w, p, kids, child);
  w.end();
}

void write_metrics(Writer &w, const Profile &p) {
  std::vector<std::vector<int>> kids(p.metrics.size());
  std::vector<int> top;
  for (std::size_t m = 0; m < p.metrics.size(); ++m) {
    const int parent = p.metrics[m].parent;
    (parent < 0 ? top : kids[static_cast<std::size_t>(parent)]).push_back(static_cast<int>(m));
  }
  w.start("metrics");
  for (int m : top) write_metric(w, p, kids, m);
  w.end();
}

void write_program(Writer &w, const Profile &p) {
  w.start("program");
  for (std::size_t r = 0; r < p.regions.size(); ++r) {
    const Region &reg = p.regions[r];
    w.start("region");
    w.attr("id", static_cast<long long>(r));
    w.attr("mod", reg.file);
    w.attr("begin", reg.begin_line);
    w.attr("end", reg.end_line);
    w.text_element("name", reg.name);
    w.text_element("mangled_name", reg.mangled);
    w.text_element("paradigm", reg.paradigm);
    w.text_element("role", reg.role);
    w.text_element("url", "");
    w.text_element("descr", reg.descr);
    w.end();
  }
  // Nested cnodes: a cnode element stays open while its subtree is written.
  walk_preorder(
      p,
      [&](int n) {
        w.start("cnode");
        w.attr("id", n);
        w.attr("calleeId", p.cnodes[static_cast<std::size_t>(n)].region);
      },
      [&](int) { w.end(); });
  w.end();
}

// machine -> node (one per distinct host) -> locationgroup (one per rank)
// -> location (thread), walked in location_file_order(): that order is
// grouped by host and rank, so a change of host opens a new node and a change
// of rank a new location group. CubeLib numbers system tree nodes and location
// groups in document order whatever Id we write, and its copying tools pair
// data columns with locations in document order, so every Id we write is the
// document position (location Id i = data column i).
void write_system(Writer &w, const Profile &p) {
  auto host_of = [&](int rank) -> std::string {
    const auto r = static_cast<std::size_t>(rank);
    if (rank >= 0 && r < p.hosts.size() && !p.hosts[r].empty()) return p.hosts[r];
    return "unknown host";
  };
  w.start("system");
  w.start("systemtreenode");
  w.attr("Id", 0);
  w.text_element("name", p.machine.empty() ? "machine" : p.machine);
  w.text_element("class", "machine");
  int node_id = 0, group_id = 0, loc_id = 0;
  bool node_open = false, group_open = false;
  std::string host;
  int rank = 0;
  for (int l : location_file_order(p)) {
    const Location &loc = p.locations[static_cast<std::size_t>(l)];
    const bool new_node = !node_open || host_of(loc.rank) != host;
    const bool new_group = new_node || !group_open || loc.rank != rank;
    if (new_group && group_open) w.end();
    if (new_node && node_open) w.end();
    if (new_node) {
      host = host_of(loc.rank);
      w.start("systemtreenode");
      w.attr("Id", ++node_id);
      w.text_element("name", host);
      w.text_element("class", "node");
      node_open = true;
    }
    if (new_group) {
      rank = loc.rank;
      w.start("locationgroup");
      w.attr("Id", group_id++);
      w.text_element("name", "rank " + std::to_string(rank));
      w.text_element("rank", std::to_string(rank));
      w.text_element("type", "process");
      group_open = true;
    }
    w.start("location");
    w.attr("Id", loc_id++);
    w.text_element("name", loc.name.empty() ? "thread " + std::to_string(loc.thread) : loc.name);
    w.text_element("rank", std::to_string(loc.thread));
    w.text_element("type", "thread");
    w.end();
  }
  if (group_open) w.end();
  if (node_open) w.end();
  w.end();  // machine
  w.end();  // system
}

}  // namespace

std::string anchor_xml(const Profile &p) {
  validate_definitions(p);
  Writer w;
  w.start_document();
  w.start("cube");
  w.attr("version", "4.4");
  for (const auto &kv : p.attrs) {
    w.start("attr");
    w.attr("key", kv.first);  // the scanner wants key before value
    w.attr("value", kv.second);
    w.end_empty();
  }
  write_metrics(w, p);
  write_program(w, p);
  write_system(w, p);
  w.end();  // cube
  return w.finish();
}

}  // namespace hcc::profile
