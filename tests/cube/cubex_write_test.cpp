// The CUBE4 writer: exact bytes CubeLib's scanner needs, row orders in the
// data members, the 512-byte rule, atomic replacement and error messages.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <regex>

#include "cubex.hpp"
#include "test_util.hpp"

using namespace hcc_test;

namespace {

std::vector<std::string> names_in(const fs::path &dir) {
  std::vector<std::string> out;
  for (const auto &e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(CubexWrite, ContainerHoldsAnchorAndIndexDataPerMetric) {
  TempDir d;
  write_cubex(sample_profile(), d.file("p.cubex"));
  const auto m = tar_members(d.file("p.cubex"));
  std::vector<std::string> names;
  for (const auto &kv : m) names.push_back(kv.first);
  EXPECT_EQ(names, (std::vector<std::string>{"0.data", "0.index", "1.data", "1.index", "anchor.xml"}));
  // Dense index: marker, uint32 1, uint16 0, uint8 3 -- 18 bytes.
  const std::string idx = m.at("0.index");
  ASSERT_EQ(idx.size(), 18u);
  EXPECT_EQ(idx, std::string("CUBEX.INDEX\x01\x00\x00\x00\x00\x00\x03", 18));
  EXPECT_EQ(m.at("0.data").substr(0, 10), "CUBEX.DATA");
  EXPECT_EQ(m.at("0.data").size(), 10u + 4 * 2 * 8);
}

TEST(CubexWrite, AnchorStartsWithTheExactBytesTheScannerMatches) {
  const std::string a = anchor_xml(sample_profile());
  const std::string head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cube version=\"4.4\">\n";
  ASSERT_GE(a.size(), head.size());
  EXPECT_EQ(a.substr(0, head.size()), head);
  EXPECT_NE(a.find("<attr key=\"program\" value=\"app\"/>"), std::string::npos) << a;
  EXPECT_NE(a.find("<metric id=\"0\" type=\"INCLUSIVE\">"), std::string::npos) << a;
  EXPECT_NE(a.find("<metric id=\"1\" type=\"EXCLUSIVE\">"), std::string::npos);
  EXPECT_NE(a.find("<region id=\"3\" mod=\"lib.c\" begin=\"5\" end=\"9\">"), std::string::npos);
  EXPECT_NE(a.find("<cnode id=\"0\" calleeId=\"0\">"), std::string::npos);
  EXPECT_NE(a.find("<dtype>UINT64</dtype>"), std::string::npos);
  EXPECT_NE(a.find("<class>machine</class>"), std::string::npos);
  EXPECT_NE(a.find("<locationgroup Id=\"0\">"), std::string::npos);
  EXPECT_NE(a.find("<name>rank 0</name>"), std::string::npos);
  EXPECT_NE(a.find("<location Id=\"1\">"), std::string::npos);
  // The scanner has no rule for empty tags like <url/>: only <attr .../> may be one.
  EXPECT_FALSE(std::regex_search(a, std::regex("<(?!attr )[a-z_]+( [^>]*)?/>"))) << a;
  EXPECT_NE(a.find("<url></url>"), std::string::npos);  // region url is empty
  // Top-level order: attrs, metrics, program, system.
  EXPECT_LT(a.find("<attr "), a.find("<metrics>"));
  EXPECT_LT(a.find("<metrics>"), a.find("<program>"));
  EXPECT_LT(a.find("<program>"), a.find("<system>"));
  EXPECT_LT(a.rfind("<region "), a.find("<cnode "));
  EXPECT_EQ(a.substr(a.size() - 8), "</cube>\n");
}

TEST(CubexWrite, SystemTreeIsMachineNodeRankThreadWithIdsInDocumentOrder) {
  Profile p = sample_profile();
  // rank 1 listed first, two hosts, rank 0's threads reversed.
  p.hosts = {"alpha", "beta"};
  p.locations = {{"r1t0", 1, 0}, {"r0t1", 0, 1}, {"r0t0", 0, 0}};
  for (auto &v : p.excl) v.assign(p.cnodes.size() * 3, 1.0);
  EXPECT_EQ(location_file_order(p), (std::vector<int>{2, 1, 0}));
  const std::string a = anchor_xml(p);
  const auto pos = [&](const std::string &s) {
    const auto q = a.find(s);
    EXPECT_NE(q, std::string::npos) << s << " in\n" << a;
    return q;
  };
  EXPECT_LT(pos("<name>testbox</name>\n      <class>machine</class>"), pos("<name>alpha</name>\n        <class>node</class>"));
  EXPECT_LT(pos("<name>alpha</name>"), pos("<locationgroup Id=\"0\">\n          <name>rank 0</name>"));
  EXPECT_LT(pos("<name>rank 0</name>"), pos("<location Id=\"0\">\n            <name>r0t0</name>\n            <rank>0</rank>"));
  EXPECT_LT(pos("<location Id=\"0\">"), pos("<location Id=\"1\">\n            <name>r0t1</name>\n            <rank>1</rank>"));
  EXPECT_LT(pos("<location Id=\"1\">"), pos("<systemtreenode Id=\"2\">\n        <name>beta</name>"));
  EXPECT_LT(pos("<name>beta</name>"), pos("<locationgroup Id=\"1\">\n          <name>rank 1</name>\n          <rank>1</rank>\n          <type>process</type>"));
  EXPECT_LT(pos("<name>rank 1</name>"), pos("<location Id=\"2\">\n            <name>r1t0</name>"));
}

TEST(CubexWrite, DataColumnsFollowTheLocationIdsWritten) {
  Profile p = sample_profile();
  p.locations = {{"r0t1", 0, 1}, {"r0t0", 0, 0}};  // written as Id 0 = r0t0, Id 1 = r0t1
  TempDir d;
  write_cubex(p, d.file("p.cubex"));
  const std::string data = tar_members(d.file("p.cubex")).at("1.data");  // visits
  // main: model location 0 (r0t1) has 1, location 1 (r0t0) has 2
  EXPECT_EQ(le64(data, 10 + 0 * 8), 2u);
  EXPECT_EQ(le64(data, 10 + 1 * 8), 1u);
  const Profile back = read_cubex(d.file("p.cubex"));
  EXPECT_EQ(back.locations[0].name, "r0t0");
  EXPECT_EQ(back.at(1, 0, 0), 2);
  EXPECT_EQ(back.at(1, 3, 1), 1000);
}

TEST(CubexWrite, NestedMetricsNestInAnchor) {
  Profile p = sample_profile();
  p.metrics.push_back(metric("comp", "sec", DType::Double, CubeType::Inclusive, 0));
  p.excl.push_back(std::vector<double>(8, 0.5));
  const std::string a = anchor_xml(p);
  const auto child = a.find("<metric id=\"2\"");
  ASSERT_NE(child, std::string::npos);
  EXPECT_LT(a.find("<metric id=\"0\""), child);
  EXPECT_LT(child, a.find("</metric>"));                // inside time
  EXPECT_LT(a.find("</metric>"), a.find("<metric id=\"1\""));
}

TEST(CubexWrite, InclusiveMetricRowsAreBreadthWiseWithInclusiveValues) {
  TempDir d;
  write_cubex(sample_profile(), d.file("p.cubex"));
  const std::string data = tar_members(d.file("p.cubex")).at("0.data");  // time, INCLUSIVE
  ASSERT_EQ(data.size(), 10u + 4 * 2 * 8);
  // rows main, foo, baz, bar; inclusive values 15, 6, 8, 4 (location 1: x10)
  const double want[4] = {15, 6, 8, 4};
  for (std::size_t r = 0; r < 4; ++r) {
    EXPECT_DOUBLE_EQ(le_double(data, 10 + (r * 2 + 0) * 8), want[r]) << "row " << r;
    EXPECT_DOUBLE_EQ(le_double(data, 10 + (r * 2 + 1) * 8), 10 * want[r]) << "row " << r;
  }
}

TEST(CubexWrite, ExclusiveMetricRowsArePreorderWithExclusiveValues) {
  Profile p = sample_profile();
  // main=0 foo=1 baz=2 bar=3: pre-order is main foo bar baz = ids 0 1 3 2.
  p.regions = {region("main", "a.c", 1, 2), region("foo", "a.c", 3, 4), region("baz", "a.c", 5, 6),
               region("bar", "a.c", 7, 8)};
  p.cnodes = {{0, -1}, {1, 0}, {2, 0}, {3, 1}};
  TempDir d;
  write_cubex(p, d.file("p.cubex"));
  const std::string data = tar_members(d.file("p.cubex")).at("1.data");  // visits, UINT64 EXCLUSIVE
  const std::uint64_t want[4] = {1, 10, 1000, 100};                      // values of ids 0 1 3 2
  for (std::size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(le64(data, 10 + (r * 2 + 0) * 8), want[r]) << "row " << r;
    EXPECT_EQ(le64(data, 10 + (r * 2 + 1) * 8), want[r] + 1) << "row " << r;
  }
}

TEST(CubexWrite, NoMemberIsAMultipleOf512EvenWhenAnchorWouldBe) {
  Profile p = sample_profile();
  // Grow a region name until anchor.xml is exactly 512*k bytes.
  const std::size_t len = anchor_xml(p).size();
  p.regions[3].name += std::string((512 - len % 512) % 512 + 512, 'x');
  const std::size_t exact = anchor_xml(p).size();
  ASSERT_EQ(exact % 512, 0u) << "test set-up: anchor should be a multiple of 512";

  TempDir d;
  write_cubex(p, d.file("p.cubex"));
  const auto members = tar_members(d.file("p.cubex"));
  ASSERT_EQ(members.size(), 5u);
  for (const auto &[name, bytes] : members) EXPECT_NE(bytes.size() % 512, 0u) << name << " is " << bytes.size();
  EXPECT_EQ(members.at("anchor.xml").size(), exact + 1);
  EXPECT_EQ(members.at("anchor.xml").back(), '\n');
  // A reader using CubeLib's skip rule sees every member with the same bytes.
  EXPECT_EQ(cubelib_walk(d.file("p.cubex")), members);
  // And the values after anchor.xml are intact.
  const Profile back = read_cubex(d.file("p.cubex"));
  EXPECT_EQ(back.regions[3].name, p.regions[3].name);
  EXPECT_DOUBLE_EQ(back.at(1, 3, 1), 1001);
}

TEST(CubexWrite, DataMembersOfAnySizeAvoidTheRule) {
  // 10 + 8k is never a multiple of 512; check sizes around 512*k anyway.
  for (std::size_t nloc : {1u, 3u, 63u, 64u, 65u, 127u, 128u}) {
    Profile p = sample_profile();
    p.locations.clear();
    for (std::size_t l = 0; l < nloc; ++l) p.locations.push_back({"t", 0, static_cast<int>(l)});
    for (auto &v : p.excl) v.assign(p.cnodes.size() * nloc, 1.0);
    TempDir d;
    write_cubex(p, d.file("p.cubex"));
    EXPECT_EQ(cubelib_walk(d.file("p.cubex")).size(), 5u) << nloc;
    for (const auto &[name, bytes] : tar_members(d.file("p.cubex"))) EXPECT_NE(bytes.size() % 512, 0u) << name;
  }
}

TEST(CubexWrite, AtomicWriteLeavesNoTemporaryFile) {
  TempDir d;
  put_file(d.file("p.cubex"), "old contents");
  write_cubex(sample_profile(), d.file("p.cubex"));
  EXPECT_EQ(names_in(d.path), (std::vector<std::string>{"p.cubex"}));
  EXPECT_EQ(tar_members(d.file("p.cubex")).size(), 5u);  // replaced, not appended
}

// A link planted at the temporary name (it is predictable: <name>.tmp.<pid>)
// must not make the writer truncate or fill the file it points to.
TEST(CubexWrite, PlantedLinkAtTheTemporaryNameIsNotFollowed) {
  TempDir d;
  put_file(d.file("victim"), "precious");
  const std::string planted = d.file("p.cubex") + ".tmp." + std::to_string(::getpid());
  ASSERT_EQ(::symlink(d.file("victim").c_str(), planted.c_str()), 0);
  write_cubex(sample_profile(), d.file("p.cubex"));
  std::ifstream in(d.file("victim"));
  std::string victim((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(victim, "precious");
  EXPECT_TRUE(fs::is_symlink(planted));
  EXPECT_EQ(tar_members(d.file("p.cubex")).size(), 5u);
}

// The profile is created with mode 0666 less the umask, like any file the user writes.
TEST(CubexWrite, FilesFollowTheUmask) {
  TempDir d;
  const mode_t old = ::umask(002);
  write_cubex(sample_profile(), d.file("p.cubex"));
  ::umask(old);
  struct stat st;
  ASSERT_EQ(::stat(d.file("p.cubex").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0664u);
}

TEST(CubexWrite, FailureToCreateNamesThePathAndReason) {
  TempDir d;
  put_file(d.file("file"), "x");
  const std::string target = d.file("file") + "/profile.cubex";  // parent is not a directory
  try {
    write_cubex(sample_profile(), target);
    FAIL() << "expected an exception";
  } catch (const std::runtime_error &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(target), std::string::npos) << msg;
    EXPECT_NE(msg.find("Not a directory"), std::string::npos) << msg;
  }
  EXPECT_EQ(names_in(d.path), (std::vector<std::string>{"file"}));
}

TEST(CubexWrite, UnwritableDirectoryThrowsWithPath) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions; covered by the other failure tests";
  TempDir d;
  fs::create_directory(d.path / "ro");
  fs::permissions(d.path / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  const std::string target = (d.path / "ro" / "profile.cubex").string();
  try {
    write_cubex(sample_profile(), target);
    FAIL() << "expected an exception";
  } catch (const std::runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find(target), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Permission denied"), std::string::npos) << e.what();
  }
}

TEST(CubexWrite, FailedRenameRemovesTheTemporaryFile) {
  TempDir d;
  fs::create_directories(d.path / "p.cubex" / "occupied");  // rename onto a non-empty directory fails
  try {
    write_cubex(sample_profile(), d.file("p.cubex"));
    FAIL() << "expected an exception";
  } catch (const std::runtime_error &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(d.file("p.cubex")), std::string::npos) << msg;
    EXPECT_NE(msg.find("cannot rename"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Is a directory"), std::string::npos) << msg;
  }
  EXPECT_EQ(names_in(d.path), (std::vector<std::string>{"p.cubex"}));  // no *.tmp.* left
}

TEST(CubexWrite, InvalidProfileIsRefusedWithPath) {
  TempDir d;
  Profile p = sample_profile();
  p.excl[0].pop_back();
  try {
    write_cubex(p, d.file("p.cubex"));
    FAIL();
  } catch (const std::runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find(d.file("p.cubex")), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("metric 'time'"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(names_in(d.path).empty());
}

TEST(CubexWrite, TextIsEscapedAndControlCharactersBecomeSpaces) {
  Profile p = sample_profile();
  p.regions[1].name = "operator<<(std::ostream&, \"q\")";
  p.regions[2].name = "tab\there\nnl";
  p.regions[3].name = std::string("bad\xff") + "utf8 caf\xc3\xa9";
  const std::string a = anchor_xml(p);
  // libxml2 also escapes '"' in text; CubeLib unescapes all five named entities.
  EXPECT_NE(a.find("<name>operator&lt;&lt;(std::ostream&amp;, &quot;q&quot;)</name>"), std::string::npos) << a;
  EXPECT_NE(a.find("<name>tab here nl</name>"), std::string::npos);
  EXPECT_NE(a.find("<name>bad?utf8 caf\xc3\xa9</name>"), std::string::npos);
  EXPECT_EQ(a.find("&#"), std::string::npos);  // the scanner knows no numeric references
}
