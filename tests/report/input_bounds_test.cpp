// hcc-report bounded by its input (issue 28): a file of S bytes may cost at
// most 64·S + 64 MiB of memory (plus the program's own baseline) and a few
// seconds of CPU, in every view; when a size the file declares would need
// more, the answer is status 2 and one line naming the file and what exceeds
// the bound. Never a signal or an abort, and never a hang on a path that is
// not a regular file. Bounds are enforced with setrlimit (ulimit -v, -t:
// amounts of memory and of CPU work, not wall time); a generous timeout only
// turns a hang into a failure.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cubex.hpp"
#include "report_run.hpp"
#include "test_util.hpp"

using namespace hcc_test;

namespace {

// hcc-report's own address space before it reads anything (shared
// libraries, heap arenas): it needs 44 MiB to start on x86-64 Debian 12
// (ulimit -v 42000 fails to load the libraries, 45000 runs every view on a
// small profile); the allowance leaves room for a library update.
constexpr std::uint64_t kBaseline = std::uint64_t(64) << 20;

std::uint64_t file_size(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
}

// The memory budget for reading `bytes` bytes of input.
std::uint64_t budget(std::uint64_t bytes) { return 64 * bytes + (std::uint64_t(64) << 20) + kBaseline; }

struct Bounded {
  int status = -1;  // exit status; 128+N when killed by signal N (SIGXCPU 152, SIGABRT 134, timeout 124)
  std::string out, err;
};

// hcc-report ARGS under an address-space limit of `memory` bytes and
// `cpu_seconds` of CPU; stdout through `filter` (a shell pipe stage, e.g.
// "wc -c") when the view's output is large.
Bounded bounded(const TempDir &d, const std::string &args, std::uint64_t memory, int cpu_seconds,
            const std::string &filter = "") {
  const std::string errfile = d.file("stderr.txt");
  const std::string status = d.file("status.txt");
  std::string cmd = "cd " + quote(d.path.string()) + " && (ulimit -v " + std::to_string(memory >> 10) + " && ulimit -t " +
                    std::to_string(cpu_seconds) + " && timeout -s KILL 300 " + quote(HCC_REPORT_EXE) + " " + args +
                    " 2>" + quote(errfile) + "; echo $? >" + quote(status) + ")";
  if (!filter.empty()) cmd += " | " + filter;
  const ReportResult r = run_capturing(cmd, errfile);
  Bounded out;
  out.out = r.out;
  out.err = r.err;
  std::ifstream s(status);
  s >> out.status;
  return out;
}

int lines(const std::string &s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

// Status 2, nothing on stdout, one line starting "hcc-report: " that names
// `file` and contains `says`.
void expect_refused(const Bounded &r, const std::string &file, const std::string &says) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("hcc-report: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
}

std::string head() { return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cube version=\"4.4\">\n"; }

std::string metric_xml(int id, const std::string &inner = "") {
  return "<metric id=\"" + std::to_string(id) + "\"><disp_name>M</disp_name><uniq_name>m" + std::to_string(id) +
         "</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom>" + inner + "</metric>";
}

// One region, `cnodes` call paths (all roots), one location of `rank`.
std::string program_and_system(int cnodes, const std::string &rank = "0") {
  std::string x = "<program><region id=\"0\" mod=\"m.c\" begin=\"1\" end=\"2\"><name>r</name></region>\n";
  for (int i = 0; i < cnodes; ++i) x += "<cnode id=\"" + std::to_string(i) + "\" calleeId=\"0\"/>";
  x += "</program>\n<system><systemtreenode Id=\"0\"><name>node</name><class>machine</class>"
       "<locationgroup Id=\"0\"><name>p</name><rank>" +
       rank +
       "</rank><type>process</type><location Id=\"0\"><name>t</name><rank>0</rank><type>thread</type>"
       "</location></locationgroup></systemtreenode></system></cube>\n";
  return x;
}

// An old-GNU sparse member ('S'): `stored` bytes in the archive that stand
// for the last bytes of a member of `real_size` bytes, the rest one hole.
std::string gnu_sparse_tar(const std::string &name, const std::string &stored, std::uint64_t real_size) {
  std::string out = tar_header(name, stored.size(), 'S', [&](char *h) {
    std::snprintf(h + 386, 12, "%011lo", static_cast<unsigned long>(real_size - stored.size()));  // sparse[0].offset
    std::snprintf(h + 398, 12, "%011lo", static_cast<unsigned long>(stored.size()));              // sparse[0].numbytes
    std::snprintf(h + 483, 12, "%011lo", static_cast<unsigned long>(real_size));                  // realsize
  });
  out += stored;
  out.append((512 - stored.size() % 512) % 512, '\0');
  out.append(1024, '\0');
  return out;
}

// A 2 GB member in a file of 2.5 KB: refused from its header, not expanded
// (it took 4.6 GB).
TEST(InputBounds, SparseTarMemberWithHugeDeclaredSizeIsRefused) {
  TempDir d;
  const std::string f = d.file("sparse.cubex");
  put_file(f, gnu_sparse_tar("anchor.xml", std::string(512, ' '), std::uint64_t(2) << 30));
  ASSERT_LT(file_size(f), 4096u);
  const Bounded r = bounded(d, quote(f), budget(file_size(f)), 20);
  expect_refused(r, f, "member anchor.xml declares 2147483648 bytes, more than the whole file");
}

// <rank>100000000</rank> in a 1 KB file: the hosts per rank would be 10^8
// strings (it took 3.1 GB).
TEST(InputBounds, HugeRankIsRefused) {
  TempDir d;
  const std::string f = d.file("rank.cubex");
  put_file(f, cubelib_style_tar({{"anchor.xml", head() + "<metrics>" + metric_xml(0) + "</metrics>\n" +
                                                    program_and_system(1, "100000000")}}));
  for (const char *view : {"", "--mpi", "--json"}) {
    SCOPED_TRACE(view);
    const Bounded r = bounded(d, std::string(view) + " " + quote(f), budget(file_size(f)), 20);
    expect_refused(r, f, "rank 100000000 of location group on line");
  }
}

// Ranks far apart but each named by the file: the MPI view indexes the ranks
// present, so rank 900 (in a file that can describe it) costs one row.
TEST(InputBounds, MpiViewSizesByRanksPresentNotLargestRank) {
  TempDir d;
  Profile p = sample_profile();
  p.regions.push_back(region("MPI_Send", "", -1, -1));
  p.regions.back().paradigm = "mpi";
  p.cnodes.push_back({4, 0});
  p.locations = {{"rank 0", 0, 0}, {"rank 900", 900, 0}};
  p.hosts.assign(901, "node-a");
  p.excl.assign(2, std::vector<double>(p.cnodes.size() * p.nloc(), 1.0));
  const std::string f = d.file("far.cubex");
  write_cubex(p, f);
  const Bounded r = bounded(d, "--mpi " + quote(f), budget(file_size(f)), 20);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\n   900  "), std::string::npos) << r.out;  // the row of rank 900
  EXPECT_NE(r.out.find("\n     0  "), std::string::npos) << r.out;
  // Two ranks, so every row is shown: no ranks 1..899 that are not there.
  EXPECT_EQ(r.out.find("ranks: the 10 with most"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\n     1  "), std::string::npos) << r.out;
}

// 2.2 MB of "0 0" lines in hcc_cfg.txt with 1000 locations: one count per
// location per line would be 4.4 GB (it took > 6 GB).
TEST(InputBounds, ManyControlFlowLinesAreRefusedBeforeAllocating) {
  TempDir d;
  Profile p = sample_profile();
  p.locations.clear();
  for (int l = 0; l < 1000; ++l) p.locations.push_back({"thread " + std::to_string(l), 0, l});
  p.excl.assign(2, std::vector<double>(p.cnodes.size() * p.nloc(), 1.0));
  const std::string good = d.file("good.cubex");
  write_cubex(p, good);
  auto members = tar_members(good);
  std::string cfg = "hcc-cfg 1\n";
  while (cfg.size() < 2200000) cfg += "1 0\n";
  members["hcc_cfg.txt"] = cfg;
  const std::string f = d.file("cfg.cubex");
  put_file(f, cubelib_style_tar({members.begin(), members.end()}));
  for (const char *view : {"--cfg", "--json"}) {
    SCOPED_TRACE(view);
    const Bounded r = bounded(d, std::string(view) + " " + quote(f), budget(file_size(f)), 20);
    expect_refused(r, f, "lines of hcc_cfg.txt would need");
  }
}

// An anchor of about 10 MB (a padding attribute) whose one location group
// has rank 9 999 000: below the size bound, so read, but the host names
// indexed by rank took 32 bytes a rank, 369 MB here (1.14 GB at 30 MB).
// Ranks that sparse keep no host name (nothing shown reads it): 66 MB.
TEST(InputBounds, OneHugeRankCostsNoMemoryPerRank) {
  TempDir d;
  const std::size_t pad = 10000000;
  const std::string f = d.file("rank.cubex");
  put_file(f, cubelib_style_tar({{"anchor.xml", head() + "<attr key=\"pad\" value=\"" + std::string(pad, 'x') +
                                                    "\"/>\n<metrics>" + metric_xml(0) + "</metrics>\n" +
                                                    program_and_system(1, "9999000")}}));
  for (const char *view : {"", "--json", "--mpi"}) {
    SCOPED_TRACE(view);
    const Bounded r = bounded(d, std::string(view) + " " + quote(f), kBaseline + (std::uint64_t(64) << 20) + 8 * pad, 20,
                              "wc -c");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
  }
  const Bounded json = bounded(d, "--json " + quote(f), budget(file_size(f)), 20, "grep -o '\"rank\": *[0-9]*'");
  EXPECT_EQ(json.out, "\"rank\":9999000\n");
}

// The largest model a 10 MB file may declare (32 bytes per byte, plus 32
// MiB): 2 metrics x `cnodes` call paths x 1000 locations and no stored
// value, call paths in chains of 100. With the old 64 bytes per byte a
// file of 43 000 call paths was read and its --json and --diff took 1.4 GB;
// now it is refused, and what is read fits every view in a gigabyte.
std::string wide_file(const TempDir &d, int cnodes, const std::string &name) {
  std::string xml = head() + "<metrics>" + metric_xml(0) + metric_xml(1) + "</metrics>\n<program>" +
                    "<region id=\"0\" mod=\"m.c\" begin=\"1\" end=\"2\"><name>r</name></region>\n";
  for (int c = 0; c < cnodes; ++c) {
    xml += "<cnode id=\"" + std::to_string(c) + "\" calleeId=\"0\">";
    if (c % 100 == 99 || c + 1 == cnodes)
      for (int k = 0; k <= c % 100; ++k) xml += "</cnode>";
  }
  xml += "</program>\n<system><systemtreenode Id=\"0\"><name>node</name><class>machine</class><locationgroup "
         "Id=\"0\"><name>p</name><rank>0</rank><type>process</type>";
  for (int l = 0; l < 1000; ++l)
    xml += "<location Id=\"" + std::to_string(l) + "\"><name>t</name><rank>" + std::to_string(l) +
           "</rank><type>thread</type></location>";
  xml += "</locationgroup></systemtreenode></system></cube>\n";
  const std::size_t target = 10000000;
  if (xml.size() < target) xml.insert(xml.find("<metrics>"), "<attr key=\"pad\" value=\"" + std::string(target - xml.size(), 'x') + "\"/>\n");
  std::vector<std::pair<std::string, std::string>> members = {{"anchor.xml", xml}};
  for (int m = 0; m < 2; ++m) {
    std::string index = "CUBEX.INDEX";
    put_le(index, 1, 4);              // endianness mark
    index += std::string("\0\0", 2);  // version
    index += '\x01';                  // sparse
    put_le(index, 0, 4);              // no rows
    members.push_back({std::to_string(m) + ".index", index});
    members.push_back({std::to_string(m) + ".data", "CUBEX.DATA"});
  }
  const std::string f = d.file(name);
  put_file(f, cubelib_style_tar(members));
  return f;
}

TEST(InputBounds, LargestModelOfATenMegabyteFileFitsEveryViewInAGigabyte) {
  TempDir d;
  const std::string over = wide_file(d, 43000, "over.cubex");
  expect_refused(bounded(d, "--json " + quote(over), budget(file_size(over)), 20), over,
                 "2 metrics x 43000 call paths x 1000 locations would need 656 MiB for a file of 9765 KiB");
  const std::string f = wide_file(d, 22000, "wide.cubex");
  ASSERT_LT(file_size(f), std::uint64_t(10) << 20);
  const std::uint64_t gigabyte = std::uint64_t(1) << 30;
  // CPU: 0.1-1.2 s each, measured; 20 s is a hang guard, not a speed check.
  for (const std::string view : {"", "--json", "--html", "--gprof", "--callgraph dot", "--plan", "--findings"}) {
    SCOPED_TRACE(view);
    const Bounded r = bounded(d, view + " " + quote(f), gigabyte, 20, "wc -c");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_GT(std::stoul(r.out), 0u);
  }
  // Two profiles read at once.
  const Bounded diff = bounded(d, "--diff " + quote(f) + " " + quote(f) + " --json", gigabyte, 20, "wc -c");
  EXPECT_EQ(diff.status, 0) << diff.err;
  EXPECT_GT(std::stoul(diff.out), 0u);
}

// The deepest call tree a 10 MB file holds (65 000 frames, one chain) in
// --diff --json, which spells out a row's path while writing it: 1.6 s of
// CPU and 107 MB, measured (10^6 frames, 154 MB of file: 23 s, 1.5 GB).
TEST(InputBounds, DeepestTreeOfATenMegabyteFileInDiffJsonFitsInAGigabyte) {
  TempDir d;
  const std::size_t n = 65000;
  Profile p = sample_profile();
  p.locations = {{"thread 0", 0, 0}};
  p.cnodes.clear();
  for (std::size_t c = 0; c < n; ++c) p.cnodes.push_back({static_cast<int>(c % 4), static_cast<int>(c) - 1});
  p.excl.assign(2, std::vector<double>(n, 1.0));
  const std::string f = d.file("deep.cubex");
  write_cubex(p, f);
  ASSERT_LT(file_size(f), std::uint64_t(10) << 20);
  const Bounded r =
      bounded(d, "--diff " + quote(f) + " " + quote(f) + " --json", std::uint64_t(1) << 30, 30, "tail -c 1000");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"... " + std::to_string(n - 64) + " frames ...\""), std::string::npos) << r.out;
}

// 10^5 metrics side by side (each without data members, read as zeros): the
// unique-name check is a hash lookup, not a pairwise comparison (> 60 s).
TEST(InputBounds, HundredThousandFlatMetricsAreRead) {
  TempDir d;
  std::string xml = head() + "<metrics>";
  for (int i = 0; i < 100000; ++i) xml += metric_xml(i);
  xml += "</metrics>\n" + program_and_system(1);
  const std::string f = d.file("flat.cubex");
  put_file(f, cubelib_style_tar({{"anchor.xml", xml}}));
  for (const char *view : {"", "--json"}) {
    SCOPED_TRACE(view);
    const Bounded r = bounded(d, std::string(view) + " " + quote(f), budget(file_size(f)), 6, "tail -c 200");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
  }
  const Bounded json = bounded(d, "--json " + quote(f), budget(file_size(f)), 6, "tail -c 60");
  EXPECT_NE(json.out.find("\"m99999\":{\"incl\":[0.0],\"excl\":[0.0]}},\"predecessors\":[]}]}\n"), std::string::npos)
      << json.out;
}

// A metric tree 4·10^4 deep: the cycle check walks each metric's ancestors
// once in all, not once per metric (16 s).
TEST(InputBounds, FortyThousandDeepMetricTreeIsRead) {
  TempDir d;
  const int n = 40000;
  std::string xml = head() + "<metrics>";
  for (int i = 0; i < n; ++i)
    xml += "<metric id=\"" + std::to_string(i) + "\"><disp_name>M</disp_name><uniq_name>m" + std::to_string(i) +
           "</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom>";
  for (int i = 0; i < n; ++i) xml += "</metric>";
  xml += "</metrics>\n" + program_and_system(1);
  const std::string f = d.file("deep-metrics.cubex");
  put_file(f, cubelib_style_tar({{"anchor.xml", xml}}));
  // 0.2 s of CPU now, 5.8 s before (measured once each).
  const Bounded r = bounded(d, "--json " + quote(f), budget(file_size(f)), 3, "tail -c 200");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"m39999\":{\"incl\":[0.0],\"excl\":[0.0]}"), std::string::npos) << r.out;
}

// A chain of 4·10^4 derived metrics (no stored data, left out) with 4·10^4
// kept metrics under its deepest link: each kept one hangs under its nearest
// kept ancestor (time), found by a memoized walk, not one walk up the chain
// per metric (0.45 s of CPU now, 9.4 s before).
TEST(InputBounds, KeptMetricsUnderADeepChainOfSkippedOnesAreRead) {
  TempDir d;
  const int chain = 40000, kept = 40000;
  std::string xml = head() + "<metrics>";
  xml += "<metric id=\"0\"><disp_name>T</disp_name><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom>";
  for (int i = 1; i <= chain; ++i)
    xml += "<metric id=\"" + std::to_string(i) + "\" type=\"POSTDERIVED\"><disp_name>M</disp_name><uniq_name>m" +
           std::to_string(i) + "</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom>";
  for (int i = chain + 1; i <= chain + kept; ++i) xml += metric_xml(i);
  for (int i = 0; i <= chain; ++i) xml += "</metric>";
  xml += "</metrics>\n" + program_and_system(1);
  const std::string f = d.file("skipped.cubex");
  put_file(f, cubelib_style_tar({{"anchor.xml", xml}}));
  const Bounded r = bounded(d, "--json " + quote(f), budget(file_size(f)), 4, "cut -c 1-200");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\"version\":1,\"metrics\":[{\"name\":\"time\",\"unit\":\"s\"},{\"name\":\"m40001\"", 0), 0u)
      << r.out;
}

// A recursion 10^5 deep of distinct functions where every call path made
// recursive calls: pairing them walks the chain once (30 s), and the gprof
// call graph looks up each function's arcs instead of scanning all of them.
TEST(InputBounds, GprofAndCallgraphOnHundredThousandDeepChainWithRecursiveCalls) {
  TempDir d;
  const std::size_t n = 100000;
  Profile p;
  p.metrics = {metric("time", "sec", DType::Double, CubeType::Exclusive),
               metric("visits", "occ", DType::UInt64, CubeType::Exclusive),
               metric("recursive_visits", "occ", DType::UInt64, CubeType::Exclusive),
               metric("recursive_calls", "occ", DType::UInt64, CubeType::Exclusive)};
  p.locations = {{"thread 0", 0, 0}};
  for (std::size_t c = 0; c < n; ++c) {
    p.regions.push_back(region("f" + std::to_string(c), "a.c", 1, 2));
    p.cnodes.push_back({static_cast<int>(c), static_cast<int>(c) - 1});
  }
  p.excl.assign(4, std::vector<double>(n, 1.0));
  p.excl[2].assign(n, 0.0);
  p.excl[2][0] = 5;  // the root received recursive visits
  const std::string f = d.file("chain.cubex");
  write_cubex(p, f);
  const Bounded gprof = bounded(d, "--gprof " + quote(f), budget(file_size(f)), 20, "grep -c '^-----'");
  EXPECT_EQ(gprof.status, 0) << gprof.err;
  EXPECT_EQ(gprof.out, std::to_string(n) + "\n");  // one call graph entry (and separator) per function
  const Bounded dot = bounded(d, "--callgraph dot " + quote(f), budget(file_size(f)), 20, "grep -c -- '->'");
  EXPECT_EQ(dot.status, 0) << dot.err;
  // n-1 call arcs and n-1 recursive arcs f_c -> f0 (f0 -> f0 among them).
  EXPECT_EQ(dot.out, std::to_string(2 * (n - 1) + 1) + "\n");
}

// --diff of a tree 10^6 deep with itself: every row's path is spelled out
// while it is written (at most 64 names), never all rows' paths at once.
TEST(InputBounds, DiffOfMillionDeepTreeIsStreamed) {
  TempDir d;
  const std::size_t n = 1000000;
  Profile p = sample_profile();
  p.locations = {{"thread 0", 0, 0}};
  p.cnodes.clear();
  for (std::size_t c = 0; c < n; ++c) p.cnodes.push_back({static_cast<int>(c % 4), static_cast<int>(c) - 1});
  p.excl.assign(2, std::vector<double>(n, 1.0));
  const std::string f = d.file("deep.cubex");
  write_cubex(p, f);
  // Reading a profile this deep takes about 5 bytes per byte of the file
  // (libxml2's tree); the diff adds a constant per row. 16 bytes per input
  // byte (4.8 GB here), well inside the 64·S budget, fails when every row
  // keeps its path (6.2 GB resident before; 1.5 GB now).
  const std::uint64_t memory = 16 * 2 * file_size(f);
  const Bounded text = bounded(d, "--diff " + quote(f) + " " + quote(f), memory, 60, "wc -l");
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_EQ(text.out, std::to_string(n + 4) + "\n");  // title, A:, B:, the header, one line per call path
  const Bounded json = bounded(d, "--diff " + quote(f) + " " + quote(f) + " --json", memory, 60, "tail -c 1000");
  EXPECT_EQ(json.status, 0) << json.err;
  EXPECT_NE(json.out.find("\"... 999936 frames ...\""), std::string::npos) << json.out;
}

// 100 metrics x 20 000 call paths and no stored values (sparse indexes of
// no rows): a 0.7 MB file inside the model's budget, whose JSON once took
// 1.6 GB. The JSON is written call path by call path.
TEST(InputBounds, JsonAndHtmlOfManyValuesAreStreamed) {
  TempDir d;
  const int nm = 100, nc = 20000;
  std::string xml = head() + "<metrics>";
  for (int m = 0; m < nm; ++m) xml += metric_xml(m);
  xml += "</metrics>\n" + program_and_system(nc);
  std::vector<std::pair<std::string, std::string>> members = {{"anchor.xml", xml}};
  for (int m = 0; m < nm; ++m) {
    std::string index = "CUBEX.INDEX";
    put_le(index, 1, 4);             // endianness mark
    index += std::string("\0\0", 2);  // version
    index += '\x01';                  // sparse
    put_le(index, 0, 4);              // no rows
    members.push_back({std::to_string(m) + ".index", index});
    members.push_back({std::to_string(m) + ".data", "CUBEX.DATA"});
  }
  const std::string f = d.file("wide.cubex");
  put_file(f, cubelib_style_tar(members));
  ASSERT_LT(file_size(f), 1000000u);
  const Bounded json = bounded(d, "--json " + quote(f), budget(file_size(f)), 20, "cat > out.json");
  EXPECT_EQ(json.status, 0) << json.err;
  std::ifstream in(d.file("out.json"));
  const auto doc = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  ASSERT_EQ(doc["callpaths"].size(), static_cast<std::size_t>(nc));
  EXPECT_EQ(doc["callpaths"][nc - 1]["values"]["m99"]["excl"][0].get<double>(), 0.0);
  const Bounded html = bounded(d, "--html " + quote(f), budget(file_size(f)), 20, "wc -c");
  EXPECT_EQ(html.status, 0) << html.err;
  EXPECT_GT(std::stoul(html.out), 1000000u);
}

// A FIFO as PATH used to block in open() forever; a link to /dev/zero spun
// at 100 % CPU. Both are refused at once (the timeout only catches a hang).
TEST(InputBounds, FifoAsPathIsRefusedAtOnce) {
  TempDir d;
  const std::string f = d.file("fifo.cubex");
  ASSERT_EQ(::mkfifo(f.c_str(), 0600), 0);
  const std::string errfile = d.file("err.txt");
  const ReportResult r =
      run_capturing("timeout -s KILL 20 " + quote(HCC_REPORT_EXE) + " " + quote(f) + " 2>" + quote(errfile), errfile);
  EXPECT_EQ(r.status, 2) << "137 is the timeout: hcc-report blocked on the FIFO\n" << r.err;
  EXPECT_EQ(r.err, "hcc-report: cannot read " + f + ": is a FIFO, not a regular file\n");
}

TEST(InputBounds, LinkToDevZeroAsPathIsRefusedAtOnce) {
  TempDir d;
  const std::string f = d.file("zero.cubex");
  fs::create_symlink("/dev/zero", f);
  const std::string errfile = d.file("err.txt");
  for (const char *view : {"", "--json", "--html"}) {
    SCOPED_TRACE(view);
    const ReportResult r = run_capturing("timeout -s KILL 20 " + quote(HCC_REPORT_EXE) + " " + view + " " + quote(f) +
                                             " 2>" + quote(errfile),
                                         errfile);
    EXPECT_EQ(r.status, 2) << "137 is the timeout: hcc-report read /dev/zero for ever\n" << r.err;
    EXPECT_EQ(r.err, "hcc-report: cannot read " + f + ": is a device, not a regular file\n");
  }
}

// A profile named with a Latin-1 byte (a program's name becomes its run
// directory): every JSON-producing view succeeds, the byte shown as U+FFFD,
// instead of aborting on nlohmann's type_error.316. (Names inside the file
// are UTF-8 by then: libxml2 converts or refuses them.)
TEST(InputBounds, PathsThatAreNotUtf8BecomeReplacementCharacters) {
  TempDir d;
  const std::string f = d.file("caf\xe9.cubex");
  write_cubex(sample_profile(), f);
  const std::string shown = d.file("caf\xef\xbf\xbd.cubex");
  for (const std::string &view : {"--html " + quote(f), "--diff " + quote(f) + " " + quote(f) + " --json"}) {
    SCOPED_TRACE(view);
    const Bounded r = bounded(d, view, budget(file_size(f)), 20);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find(shown), std::string::npos);
    EXPECT_EQ(r.out.find(f), std::string::npos);
  }
  const Bounded diff = bounded(d, "--diff " + quote(f) + " " + quote(f) + " --json", budget(file_size(f)), 20);
  const auto doc = nlohmann::json::parse(diff.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  EXPECT_EQ(doc["a"], shown);
  EXPECT_EQ(doc["callpaths"].size(), 4u);
  const Bounded json = bounded(d, "--json " + quote(f), budget(file_size(f)), 20);
  EXPECT_EQ(json.status, 0) << json.err;
  EXPECT_FALSE(nlohmann::json::parse(json.out, nullptr, false).is_discarded());
}

// A view's error is one line naming the file, with status 2, like a
// reader's error; before, it lacked the file (or aborted the program).
TEST(InputBounds, ViewErrorsAreOneLineNamingTheFile) {
  TempDir d;
  const std::string f = d.file("p.cubex");
  write_cubex(sample_profile(), f);
  const Bounded r = bounded(d, "--callgraph dot --callgraph-focus 'no\nsuch' " + quote(f), budget(file_size(f)), 20);
  expect_refused(r, f, "--callgraph-focus: no function named 'no such'");
  EXPECT_EQ(r.err.rfind("hcc-report: " + f + ": ", 0), 0u) << r.err;
}

}  // namespace
