// hcc-report on files nobody here wrote: every malformed or hostile profile
// is refused in every view with exit status 2, one line on stderr naming the
// problem, nothing on stdout and nothing written anywhere. Each run is
// bounded (virtual memory limit and a generous timeout), so a regression
// that makes the reader hang or balloon fails here instead of hanging CI.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>

#include "cubex.hpp"
#include "report_run.hpp"
#include "test_util.hpp"

using namespace hcc_test;

namespace {

using Result = ReportResult;

// hcc-report ARGS in `cwd`, at most 1 GiB of address space and 60 s:
// status 124 (timeout) or a failed allocation shows a reader out of bounds.
Result bounded_report(const std::string &args, const std::string &cwd) {
  const std::string errfile = cwd + "/stderr.txt";
  const std::string cmd = "cd " + quote(cwd) + " && ulimit -v 1048576 && timeout 60 " + quote(HCC_REPORT_EXE) + " " +
                          args + " 2>" + quote(errfile);
  return run_capturing(cmd, errfile);
}

const char *const kViews[] = {"", "--tree", "--json", "--summary"};

// Every view refuses `file` with one line that contains `says`.
void expect_refused(const TempDir &d, const std::string &file, const std::string &says) {
  for (const char *view : kViews) {
    SCOPED_TRACE(std::string("view '") + view + "'");
    const Result r = bounded_report(std::string(view) + " " + quote(file), d.path.string());
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("hcc-report: cannot read " + file + ": ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

std::string anchor_head() { return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"; }

TEST(HostileProfile, EntityBombIsRefusedUnread) {
  TempDir d;
  // "Billion laughs": ten levels of ten references, 10^9 copies of "lol".
  std::string dtd = "<!DOCTYPE cube [<!ENTITY a0 \"lol\">";
  for (int i = 1; i < 10; ++i) {
    dtd += "<!ENTITY a" + std::to_string(i) + " \"";
    for (int k = 0; k < 10; ++k) dtd += "&a" + std::to_string(i - 1) + ";";
    dtd += "\">";
  }
  dtd += "]>\n";
  const std::string xml = anchor_head() + dtd +
                          "<cube version=\"4.4\">\n<attr key=\"x\" value=\"&a9;\"/>\n"
                          "<metrics></metrics><program></program><system></system></cube>\n";
  ASSERT_LT(xml.size(), 1024u);
  put_file(d.file("bomb.cubex"), cubelib_style_tar({{"anchor.xml", xml}}));
  expect_refused(d, d.file("bomb.cubex"), "declares a DTD");
}

TEST(HostileProfile, AnyDtdIsRefusedEvenWithoutEntities) {
  TempDir d;
  const std::string xml = anchor_head() + "<!DOCTYPE cube SYSTEM \"http://127.0.0.1:9/cube.dtd\">\n"
                                          "<cube version=\"4.4\"><metrics/><program/><system/></cube>\n";
  put_file(d.file("dtd.cubex"), cubelib_style_tar({{"anchor.xml", xml}}));
  expect_refused(d, d.file("dtd.cubex"), "declares a DTD");
}

TEST(HostileProfile, EmptyRandomAndTruncatedFiles) {
  TempDir d;
  put_file(d.file("empty.cubex"), "");
  expect_refused(d, d.file("empty.cubex"), "not a .cubex file");
  std::string noise;
  for (int i = 0; i < 4096; ++i) noise += static_cast<char>((i * 2654435761u) >> 13);
  put_file(d.file("random.cubex"), noise);
  expect_refused(d, d.file("random.cubex"), "not a .cubex file");
  write_cubex(sample_profile(), d.file("good.cubex"));
  std::ifstream in(d.file("good.cubex"), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  put_file(d.file("cut.cubex"), bytes.substr(0, bytes.size() / 2 + 100));
  expect_refused(d, d.file("cut.cubex"), "");
}

TEST(HostileProfile, BadIndexAndShortData) {
  TempDir d;
  write_cubex(sample_profile(), d.file("p.cubex"));
  auto members = tar_members(d.file("p.cubex"));
  auto short_data = members;
  short_data["0.data"].resize(short_data["0.data"].size() - 3);
  put_file(d.file("short.cubex"), cubelib_style_tar({short_data.begin(), short_data.end()}));
  expect_refused(d, d.file("short.cubex"), "0.data: ");
  auto bad_index = members;
  // Sparse, 1 row, row number 99 of 4 call paths.
  bad_index["1.index"] = std::string("CUBEX.INDEX") + std::string("\x01\0\0\0\0\0\x01\x01\0\0\0\x63\0\0\0", 15);
  put_file(d.file("index.cubex"), cubelib_style_tar({bad_index.begin(), bad_index.end()}));
  expect_refused(d, d.file("index.cubex"), "1.index: ");
}

// Many call paths × many locations and no data: the dense model would need
// tens of GiB for a file of a few MiB.
TEST(HostileProfile, DeclaredSizesFarBeyondTheFileAreRefusedBeforeAllocating) {
  TempDir d;
  std::string xml = anchor_head() +
                    "<cube version=\"4.4\">\n<metrics><metric id=\"0\"><disp_name>t</disp_name><uniq_name>t</uniq_name>"
                    "<dtype>DOUBLE</dtype><uom>sec</uom></metric></metrics>\n<program>"
                    "<region id=\"0\" mod=\"m\" begin=\"1\" end=\"2\"><name>r</name></region>\n";
  for (int i = 0; i < 60000; ++i) xml += "<cnode id=\"" + std::to_string(i) + "\" calleeId=\"0\"/>";
  xml += "</program><system><systemtreenode Id=\"0\"><name>m</name><class>machine</class>"
         "<locationgroup Id=\"0\"><name>p</name><rank>0</rank><type>process</type>";
  for (int i = 0; i < 60000; ++i)
    xml += "<location Id=\"" + std::to_string(i) + "\"><name>t</name><rank>" + std::to_string(i) +
           "</rank><type>thread</type></location>";
  xml += "</locationgroup></systemtreenode></system></cube>\n";
  put_file(d.file("wide.cubex"), cubelib_style_tar({{"anchor.xml", xml}}));
  expect_refused(d, d.file("wide.cubex"), "refused as not a real profile");
}

// A valid profile of one call path nested `n` deep (a recursion 100 000
// levels deep that HCC_MAX_DEPTH allowed), written to `file`; returns n.
std::size_t write_deep_profile(const std::string &file) {
  Profile p = sample_profile();
  const std::size_t n = 100000;
  p.cnodes.clear();
  for (std::size_t c = 0; c < n; ++c) p.cnodes.push_back({static_cast<int>(c % 4), static_cast<int>(c) - 1});
  p.excl.assign(2, std::vector<double>(n * p.nloc(), 1.0));
  write_cubex(p, file);
  return n;
}

// A valid profile of a recursion 100 000 levels deep (HCC_MAX_DEPTH allows
// it): every view succeeds within the same bounds, and the tree's text grows
// linearly (indentation stops at 40 levels; deeper rows print their depth).
TEST(HostileProfile, HundredThousandNestedCallPathsStayBounded) {
  TempDir d;
  const std::size_t n = write_deep_profile(d.file("deep.cubex"));
  for (const char *view : kViews) {
    SCOPED_TRACE(std::string("view '") + view + "'");
    const Result r = bounded_report(std::string(view) + " " + quote(d.file("deep.cubex")), d.path.string());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_LT(r.out.size(), 200u * n) << "output grows faster than the tree";
  }
  const Result tree = bounded_report("--tree " + quote(d.file("deep.cubex")), d.path.string());
  EXPECT_NE(tree.out.find(std::string(80, ' ') + "[depth 99999] baz\n"), std::string::npos);
  EXPECT_NE(tree.out.find(std::string(80, ' ') + "[depth 41] foo\n"), std::string::npos) << tree.out.substr(0, 5000);
}

// The views for people and tools on the same 100 000-deep tree: folded
// stacks and the diff cut paths deeper than 64 frames ("[N frames]"), so
// their output stays linear; the HTML page is the JSON plus a fixed page.
TEST(HostileProfile, HundredThousandNestedCallPathsInFoldedDiffAndHtml) {
  TempDir d;
  const std::size_t n = write_deep_profile(d.file("deep.cubex"));
  const std::string f = quote(d.file("deep.cubex"));
  for (const std::string view : {"--folded --metric visits " + f, "--diff " + f + " " + f, "--html " + f}) {
    SCOPED_TRACE(view);
    const Result r = bounded_report(view, d.path.string());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_LT(r.out.size(), 1000u * n) << "output grows faster than the tree";
  }
  const Result folded = bounded_report("--folded --metric visits " + f, d.path.string());
  EXPECT_NE(folded.out.find(";[99936 frames];"), std::string::npos);
}

// Member names are only looked up, never used as paths: nothing is created
// outside (or inside) the working directory.
TEST(HostileProfile, MemberNamesThatClimbOutAreNeverWritten) {
  TempDir d;
  fs::create_directories(d.path / "a" / "b");
  write_cubex(sample_profile(), d.file("p.cubex"));
  auto members = tar_members(d.file("p.cubex"));
  std::vector<std::pair<std::string, std::string>> list(members.begin(), members.end());
  list.push_back({"../../escaped.txt", "owned\n"});
  list.push_back({"/tmp/hcc-escaped-absolute.txt", "owned\n"});
  put_file(d.file("climb.cubex"), cubelib_style_tar(list));
  const Result r = bounded_report("--json " + quote(d.file("climb.cubex")), (d.path / "a" / "b").string());
  EXPECT_EQ(r.status, 0) << r.err;  // the profile itself is fine
  EXPECT_FALSE(fs::exists(d.path / "escaped.txt"));
  EXPECT_FALSE(fs::exists(d.path / "a" / "escaped.txt"));
  EXPECT_FALSE(fs::exists("/tmp/hcc-escaped-absolute.txt"));
}

}  // namespace
