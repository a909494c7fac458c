// The CUBE4 reader: round trips of our own files, files shaped like
// Score-P's (hand-built here, byte by byte), and error messages.
#include <gtest/gtest.h>

#include <cmath>

#include "cubex.hpp"
#include "test_util.hpp"

using namespace hcc_test;

namespace {

void expect_same(const Profile &a, const Profile &b) {
  EXPECT_EQ(a.attrs, b.attrs);
  EXPECT_EQ(a.machine, b.machine);
  EXPECT_EQ(a.hosts, b.hosts);
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (std::size_t m = 0; m < a.metrics.size(); ++m) {
    const Metric &x = a.metrics[m], &y = b.metrics[m];
    EXPECT_EQ(x.uniq_name, y.uniq_name);
    EXPECT_EQ(x.disp_name, y.disp_name);
    EXPECT_EQ(x.uom, y.uom);
    EXPECT_EQ(x.descr, y.descr);
    EXPECT_EQ(x.url, y.url);
    EXPECT_EQ(x.dtype, y.dtype) << x.uniq_name;
    EXPECT_EQ(x.cube_type, y.cube_type) << x.uniq_name;
    EXPECT_EQ(x.parent, y.parent) << x.uniq_name;
  }
  ASSERT_EQ(a.regions.size(), b.regions.size());
  for (std::size_t r = 0; r < a.regions.size(); ++r) {
    const Region &x = a.regions[r], &y = b.regions[r];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.mangled, y.mangled);
    EXPECT_EQ(x.file, y.file);
    EXPECT_EQ(x.begin_line, y.begin_line);
    EXPECT_EQ(x.end_line, y.end_line);
    EXPECT_EQ(x.paradigm, y.paradigm);
    EXPECT_EQ(x.role, y.role);
    EXPECT_EQ(x.descr, y.descr);
  }
  ASSERT_EQ(a.cnodes.size(), b.cnodes.size());
  for (std::size_t c = 0; c < a.cnodes.size(); ++c) {
    EXPECT_EQ(a.cnodes[c].region, b.cnodes[c].region) << c;
    EXPECT_EQ(a.cnodes[c].parent, b.cnodes[c].parent) << c;
  }
  ASSERT_EQ(a.locations.size(), b.locations.size());
  for (std::size_t l = 0; l < a.locations.size(); ++l) {
    EXPECT_EQ(a.locations[l].name, b.locations[l].name);
    EXPECT_EQ(a.locations[l].rank, b.locations[l].rank);
    EXPECT_EQ(a.locations[l].thread, b.locations[l].thread);
  }
  ASSERT_EQ(a.excl.size(), b.excl.size());
  for (std::size_t m = 0; m < a.excl.size(); ++m) {
    ASSERT_EQ(a.excl[m].size(), b.excl[m].size());
    for (std::size_t i = 0; i < a.excl[m].size(); ++i) {
      if (a.metrics[m].dtype == DType::UInt64 || a.metrics[m].dtype == DType::Int64)
        EXPECT_EQ(a.excl[m][i], b.excl[m][i]) << a.metrics[m].uniq_name << "[" << i << "]";
      else  // inclusive storage: exclusive = incl - children, exact up to rounding
        EXPECT_NEAR(a.excl[m][i], b.excl[m][i], 1e-12 * (1 + std::fabs(a.excl[m][i])))
            << a.metrics[m].uniq_name << "[" << i << "]";
    }
  }
}

Profile rich_profile() {
  Profile p = sample_profile();
  p.attrs.push_back({"odd <key>", "a \"quoted\" & value"});
  p.machine = "cluster";
  p.hosts = {"alpha", "beta"};
  p.metrics.push_back(metric("bytes_sent", "bytes", DType::UInt64, CubeType::Exclusive));
  p.metrics.push_back(metric("comp", "sec", DType::Double, CubeType::Inclusive, 0));  // nested under time
  p.metrics.push_back(metric("balance", "#", DType::Int64, CubeType::Exclusive));
  p.regions.push_back(region("std::vector<int>::push_back(int&&)", "/usr/include/c++/12/bits/stl_vector.h", 1276, 1280));
  p.regions.back().paradigm = "user";
  p.regions.back().role = "loop";
  p.regions.back().descr = "caf\xc3\xa9 <&>";
  p.regions.back().mangled = "";
  p.regions[0].begin_line = -1;
  p.regions[0].end_line = -1;
  p.regions[0].file = "";
  // cnodes: 0 main, 1 foo, 2 bar, 3 baz, 4 vec under bar, 5 second root (vec), 6 foo under 5
  p.cnodes.push_back({4, 2});
  p.cnodes.push_back({4, -1});
  p.cnodes.push_back({1, 5});
  p.locations = {{"r0 master", 0, 0}, {"r0 worker", 0, 1}, {"r1 master", 1, 0}};
  const std::size_t nc = p.cnodes.size(), nl = 3;
  p.excl.assign(p.metrics.size(), std::vector<double>(nc * nl));
  for (std::size_t m = 0; m < p.metrics.size(); ++m)
    for (std::size_t c = 0; c < nc; ++c)
      for (std::size_t l = 0; l < nl; ++l) {
        const double k = static_cast<double>(1 + m * 100 + c * 10 + l);
        switch (p.metrics[m].dtype) {
          case DType::UInt64: p.excl[m][c * nl + l] = k * 1000003; break;
          case DType::Int64: p.excl[m][c * nl + l] = (c % 2 ? -1 : 1) * k; break;
          default: p.excl[m][c * nl + l] = k * 0.001 + 1e-7 * static_cast<double>(l); break;
        }
      }
  return p;
}

std::string read_error(const std::string &path) {
  try {
    read_cubex(path);
  } catch (const std::runtime_error &e) {
    return e.what();
  }
  return "(no error)";
}

// anchor.xml in the shape Score-P/CubeLib write it: indentation, <doc>,
// nested metrics, a derived metric with CubeLib's unquoted attributes,
// types we can and cannot read, cnode ids not in document order.
std::string scorep_anchor() {
  return R"(<?xml version="1.0" encoding="UTF-8"?>

<cube version="4.5">
  <attr key="CUBE_CT_AGGR" value="SUM"/>
  <doc>
    <mirrors>
      <murl>http://apps.fz-juelich.de/scalasca/releases/scalasca/2.6/help/</murl>
    </mirrors>
  </doc>
  <metrics>
    <metric id="0" type="EXCLUSIVE">
      <disp_name>Visits</disp_name>
      <uniq_name>visits</uniq_name>
      <dtype>UINT64</dtype>
      <uom>occ</uom>
      <url>@mirror@scorep_metrics.html#visits</url>
      <descr>Number of visits</descr>
    </metric>
    <metric id="1" type="INCLUSIVE">
      <disp_name>Time</disp_name>
      <uniq_name>time</uniq_name>
      <dtype>DOUBLE</dtype>
      <uom>sec</uom>
      <url></url>
      <descr>Total CPU allocation time</descr>
      <metric id="2" type="INCLUSIVE">
        <disp_name>Computation</disp_name>
        <uniq_name>comp</uniq_name>
        <dtype>DOUBLE</dtype>
        <uom>sec</uom>
        <url></url>
        <descr></descr>
      </metric>
      <metric id="3" type="POSTDERIVED">
        <disp_name>Derived</disp_name>
        <uniq_name>derived</uniq_name>
        <dtype>DOUBLE</dtype>
        <uom>sec</uom>
        <url></url>
        <descr></descr>
        <cubepl rowwise=false>${time}[${calculation::callpath::id}] &lt; 3</cubepl>
        <cubeplaggr cubeplaggrtype=plus>arg1 + arg2</cubeplaggr>
        <metric id="6" type="EXCLUSIVE">
          <disp_name>Under derived</disp_name>
          <uniq_name>under_derived</uniq_name>
          <dtype>INT64</dtype>
          <uom>#</uom>
          <url></url>
          <descr></descr>
        </metric>
      </metric>
    </metric>
    <metric id="4" type="EXCLUSIVE">
      <disp_name>Min</disp_name>
      <uniq_name>min_time</uniq_name>
      <dtype>MINDOUBLE</dtype>
      <uom>sec</uom>
      <url></url>
      <descr></descr>
    </metric>
    <metric id="5" type="EXCLUSIVE">
      <disp_name>Atomic</disp_name>
      <uniq_name>atomic</uniq_name>
      <dtype>TAU_ATOMIC</dtype>
      <uom>#</uom>
      <url></url>
      <descr></descr>
    </metric>
  </metrics>
  <program>
    <region id="0" mod="/src/a.c" begin="3" end="30">
      <name>main</name>
      <mangled_name>main</mangled_name>
      <paradigm>compiler</paradigm>
      <role>function</role>
      <url></url>
      <descr></descr>
    </region>
    <region id="1" mod="/src/a.c" begin="32" end="40">
      <name>foo</name>
      <mangled_name>foo</mangled_name>
      <paradigm>compiler</paradigm>
      <role>function</role>
      <url></url>
      <descr></descr>
    </region>
    <region id="2" mod="MPI" begin="-1" end="-1">
      <name>MPI_Send</name>
      <mangled_name>MPI_Send</mangled_name>
      <paradigm>mpi</paradigm>
      <role>point2point</role>
      <url></url>
      <descr></descr>
    </region>
    <cnode id="0" calleeId="0">
      <cnode id="2" line="12" mod="/src/a.c" calleeId="1">
        <parameter partype="numeric" parkey="n" parvalue="4"/>
        <cnode id="3" calleeId="2">
        </cnode>
      </cnode>
      <cnode id="1" calleeId="2">
      </cnode>
    </cnode>
  </program>
  <system>
    <systemtreenode Id="0">
      <name>Linux</name>
      <class>machine</class>
      <systemtreenode Id="1">
        <name>nodeA</name>
        <class>node</class>
        <locationgroup Id="0">
          <name>MPI Rank 0</name>
          <rank>0</rank>
          <type>process</type>
          <location Id="0">
            <name>Master thread</name>
            <rank>0</rank>
            <type>thread</type>
          </location>
        </locationgroup>
      </systemtreenode>
      <systemtreenode Id="2">
        <name>nodeB</name>
        <class>node</class>
        <locationgroup Id="1">
          <name>MPI Rank 1</name>
          <rank>1</rank>
          <type>process</type>
          <location Id="1">
            <name>Master thread</name>
            <rank>0</rank>
            <type>thread</type>
          </location>
        </locationgroup>
      </systemtreenode>
    </systemtreenode>
    <topologies>
    </topologies>
  </system>
</cube>
)";
}

std::string index_header(std::uint8_t format) {
  std::string s = "CUBEX.INDEX";
  put_le(s, 1, 4);
  put_le(s, 0, 2);
  put_le(s, format, 1);
  return s;
}

}  // namespace

TEST(CubexRead, RoundTripPreservesEverything) {
  TempDir d;
  const Profile p = sample_profile();
  write_cubex(p, d.file("p.cubex"));
  expect_same(p, read_cubex(d.file("p.cubex")));
}

TEST(CubexRead, RoundTripOfARichProfile) {
  TempDir d;
  const Profile p = rich_profile();
  write_cubex(p, d.file("p.cubex"));
  const Profile back = read_cubex(d.file("p.cubex"));
  expect_same(p, back);
  // And once more: what we read, we write identically.
  write_cubex(back, d.file("q.cubex"));
  EXPECT_EQ(tar_members(d.file("p.cubex")), tar_members(d.file("q.cubex")));
}

TEST(CubexRead, RoundTripOfAnEmptyCallTree) {
  TempDir d;
  Profile p = sample_profile();
  p.cnodes.clear();
  p.regions.clear();
  for (auto &v : p.excl) v.clear();
  write_cubex(p, d.file("p.cubex"));
  expect_same(p, read_cubex(d.file("p.cubex")));
}

TEST(CubexRead, ScorePShapedFileWithSparseIndexAndCubeLibPadding) {
  // Call tree in the file: main(0){ foo(id 2){ MPI_Send(id 3) }, MPI_Send(id 1) }
  // Ids are not in document order, so the reader renumbers in document
  // order: main 0, foo 1, send-under-foo 2, send-under-main 3.
  // Rows: exclusive pre-order = main, foo, send/foo, send/main;
  //       inclusive (time)     = main, foo, send/main, send/foo.
  std::vector<std::pair<std::string, std::string>> m;
  m.push_back({"anchor.xml", scorep_anchor()});
  // visits: dense UINT64
  std::string v = "CUBEX.DATA";
  for (std::uint64_t x : {1, 1, 4, 4, 40, 41, 7, 8}) put_le(v, x, 8);  // rows main foo send/foo send/main
  m.push_back({"0.index", index_header(3)});
  m.push_back({"0.data", v});
  // time: sparse, rows 0, 1, 3 stored (row 2 = send/main reads 0)
  std::string ti = index_header(1);
  put_le(ti, 3, 4);
  for (std::uint32_t r : {0u, 1u, 3u}) put_le(ti, r, 4);
  std::string td = "CUBEX.DATA";
  for (double x : {10.0, 20.0, 6.0, 12.0, 2.5, 5.0}) put_double(td, x);  // main, foo, send/foo inclusive
  m.push_back({"1.index", ti});
  m.push_back({"1.data", td});
  // comp (nested under time): no members at all -> zeros, like CubeLib
  // min_time: MINDOUBLE exclusive, dense; a data member of 10 + 64 bytes
  std::string mi = "CUBEX.DATA";
  for (double x : {0.5, 0.25, 0.125, 1.0, 2.0, 3.0, 4.0, 5.0}) put_double(mi, x);
  m.push_back({"4.index", index_header(3)});
  m.push_back({"4.data", mi});
  // atomic: has data, but TAU_ATOMIC is not representable
  m.push_back({"5.index", index_header(3)});
  m.push_back({"5.data", std::string("CUBEX.DATA") + std::string(512 - 10, '\0')});  // 512 bytes: CubeLib pads a whole block
  // under_derived: INT64, sparse with a negative value
  std::string ui = index_header(1);
  put_le(ui, 1, 4);
  put_le(ui, 2, 4);
  std::string ud = "CUBEX.DATA";
  put_le(ud, static_cast<std::uint64_t>(-3), 8);
  put_le(ud, 9, 8);
  m.push_back({"6.index", ui});
  m.push_back({"6.data", ud});
  // A member that is not ours, to be ignored.
  m.push_back({"scorep.cfg", "SCOREP_ENABLE_PROFILING=true\n"});

  TempDir d;
  put_file(d.file("scorep.cubex"), cubelib_style_tar(m));
  const Profile p = read_cubex(d.file("scorep.cubex"));

  // Definitions
  ASSERT_EQ(p.regions.size(), 3u);
  EXPECT_EQ(p.regions[2].name, "MPI_Send");
  EXPECT_EQ(p.regions[2].role, "point2point");
  EXPECT_EQ(p.regions[2].begin_line, -1);
  ASSERT_EQ(p.cnodes.size(), 4u);
  EXPECT_EQ(p.cnodes[1].region, 1);
  EXPECT_EQ(p.cnodes[2].region, 2);
  EXPECT_EQ(p.cnodes[2].parent, 1);
  EXPECT_EQ(p.cnodes[3].region, 2);
  EXPECT_EQ(p.cnodes[3].parent, 0);
  ASSERT_EQ(p.locations.size(), 2u);
  EXPECT_EQ(p.locations[1].rank, 1);
  EXPECT_EQ(p.locations[1].thread, 0);
  EXPECT_EQ(p.machine, "Linux");
  EXPECT_EQ(p.hosts, (std::vector<std::string>{"nodeA", "nodeB"}));

  // Metrics kept: visits, time, comp, min_time, under_derived (parent: time,
  // the nearest kept ancestor of the skipped derived metric).
  std::vector<std::string> names;
  for (const auto &mm : p.metrics) names.push_back(mm.uniq_name);
  EXPECT_EQ(names, (std::vector<std::string>{"visits", "time", "comp", "min_time", "under_derived"}));
  EXPECT_EQ(p.metrics[2].parent, 1);
  EXPECT_EQ(p.metrics[4].parent, 1);
  EXPECT_EQ(p.metrics[3].dtype, DType::MinDouble);
  EXPECT_EQ(p.metrics[4].dtype, DType::Int64);

  // visits (exclusive, pre-order rows)
  EXPECT_EQ(p.at(0, 0, 0), 1);
  EXPECT_EQ(p.at(0, 1, 1), 4);
  EXPECT_EQ(p.at(0, 2, 0), 40);
  EXPECT_EQ(p.at(0, 3, 1), 8);
  // time: inclusive rows main, foo, send/main(missing), send/foo
  // -> exclusive main = 10 - 6 - 0 = 4, foo = 6 - 2.5 = 3.5, send/foo 2.5
  EXPECT_DOUBLE_EQ(p.at(1, 0, 0), 4);
  EXPECT_DOUBLE_EQ(p.at(1, 0, 1), 8);
  EXPECT_DOUBLE_EQ(p.at(1, 1, 0), 3.5);
  EXPECT_DOUBLE_EQ(p.at(1, 2, 0), 2.5);
  EXPECT_DOUBLE_EQ(p.at(1, 3, 0), 0);
  EXPECT_DOUBLE_EQ(p.at(2, 0, 0), 0);                     // comp: no data
  EXPECT_DOUBLE_EQ(p.at(3, 2, 0), 2.0);                   // min_time row 2 = send/foo
  EXPECT_DOUBLE_EQ(p.at(4, 2, 0), -3);                    // under_derived: row 2 = send/foo
  EXPECT_DOUBLE_EQ(p.at(4, 2, 1), 9);

  // Notes say what was skipped or defaulted.
  std::string notes;
  for (const auto &kv : p.attrs)
    if (kv.first == "hcc.note") notes += kv.second + "\n";
  EXPECT_NE(notes.find("'derived' (id 3) skipped: derived metric"), std::string::npos) << notes;
  EXPECT_NE(notes.find("'atomic' (id 5) skipped: data type TAU_ATOMIC"), std::string::npos) << notes;
  EXPECT_NE(notes.find("'comp' (id 2) has no data members"), std::string::npos) << notes;
  EXPECT_NE(notes.find("renumbered"), std::string::npos) << notes;
  EXPECT_EQ(p.attrs.front(), (std::pair<std::string, std::string>{"CUBE_CT_AGGR", "SUM"}));
}

TEST(CubexRead, MissingFileNamesPathAndReason) {
  const std::string msg = read_error("/nonexistent/dir/profile.cubex");
  EXPECT_NE(msg.find("/nonexistent/dir/profile.cubex"), std::string::npos) << msg;
  EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;
}

TEST(CubexRead, NotATarArchive) {
  TempDir d;
  put_file(d.file("x.cubex"), "hello, this is not a tar file\n");
  const std::string msg = read_error(d.file("x.cubex"));
  EXPECT_NE(msg.find(d.file("x.cubex")), std::string::npos) << msg;
  EXPECT_NE(msg.find("not a .cubex file"), std::string::npos) << msg;
  put_file(d.file("empty.cubex"), "");
  EXPECT_NE(read_error(d.file("empty.cubex")).find("not a .cubex file"), std::string::npos)
      << read_error(d.file("empty.cubex"));
}

TEST(CubexRead, DirectoryIsRejected) {
  TempDir d;
  EXPECT_NE(read_error(d.path.string()).find("is a directory"), std::string::npos);
}

TEST(CubexRead, TarWithoutAnchor) {
  TempDir d;
  put_file(d.file("x.cubex"), cubelib_style_tar({{"0.data", "CUBEX.DATA"}}));
  EXPECT_NE(read_error(d.file("x.cubex")).find("no anchor.xml"), std::string::npos) << read_error(d.file("x.cubex"));
}

TEST(CubexRead, BrokenAnchorSaysWhere) {
  TempDir d;
  put_file(d.file("x.cubex"),
           cubelib_style_tar({{"anchor.xml", "<?xml version=\"1.0\"?>\n<cube version=\"4.4\">\n<metrics>\n"
                                             "<metric id=\"0\">\n</metrics>\n</cube>\n"}}));
  const std::string msg = read_error(d.file("x.cubex"));
  EXPECT_NE(msg.find(d.file("x.cubex") + ": anchor.xml: line 5: "), std::string::npos) << msg;
  EXPECT_NE(msg.find("mismatch"), std::string::npos) << msg;
}

TEST(CubexRead, TruncatedDataIsAnErrorNamingTheMember) {
  TempDir d;
  write_cubex(sample_profile(), d.file("p.cubex"));
  auto members = tar_members(d.file("p.cubex"));
  members["1.data"].resize(members["1.data"].size() - 8);
  std::vector<std::pair<std::string, std::string>> list(members.begin(), members.end());
  put_file(d.file("bad.cubex"), cubelib_style_tar(list));
  const std::string msg = read_error(d.file("bad.cubex"));
  EXPECT_NE(msg.find("1.data: 66 bytes, expected 74"), std::string::npos) << msg;
}

// Control flow (Profile::preds) travels in the member hcc_cfg.txt: read back
// exactly, in list order, per location; CubeLib's own walk of the archive
// still sees every member (the 512 rule holds), and a file without the
// member reads with no lists.
TEST(CubexCfg, PredecessorListsRoundTripInTheirOwnMember) {
  TempDir d;
  Profile p = sample_profile();
  p.preds.assign(p.cnodes.size(), {});
  p.preds[1] = {{0, {1, 1}}, {3, {19, 0}}};  // foo: main (parent), baz (a sibling)
  p.preds[2] = {{1, {20, 7}}};
  p.preds[3] = {{0, {0, 2}}, {1, {5, 0}}};
  write_cubex(p, d.file("p.cubex"));
  const auto members = cubelib_walk(d.file("p.cubex"));
  ASSERT_EQ(members.count("hcc_cfg.txt"), 1u);
  EXPECT_EQ(members.at("hcc_cfg.txt"), "hcc-cfg 1\n1 0 0:1 1:1\n1 3 0:19\n2 1 0:20 1:7\n3 0 1:2\n3 1 0:5\n");
  EXPECT_EQ(members.count("anchor.xml"), 1u);
  EXPECT_EQ(members.count("1.data"), 1u);
  const Profile back = read_cubex(d.file("p.cubex"));
  ASSERT_EQ(back.preds.size(), p.preds.size());
  for (std::size_t c = 0; c < p.preds.size(); ++c) {
    ASSERT_EQ(back.preds[c].size(), p.preds[c].size()) << c;
    for (std::size_t k = 0; k < p.preds[c].size(); ++k) {
      EXPECT_EQ(back.preds[c][k].callpath, p.preds[c][k].callpath);
      EXPECT_EQ(back.preds[c][k].count, p.preds[c][k].count);
    }
  }
  // Without control-flow data there is no member and no lists.
  p.preds.clear();
  write_cubex(p, d.file("q.cubex"));
  EXPECT_EQ(tar_members(d.file("q.cubex")).count("hcc_cfg.txt"), 0u);
  EXPECT_TRUE(read_cubex(d.file("q.cubex")).preds.empty());
}

TEST(CubexCfg, ABadControlFlowMemberIsAnErrorNamingItsLine) {
  TempDir d;
  const Profile p = sample_profile();
  write_cubex(p, d.file("p.cubex"));
  auto members = tar_members(d.file("p.cubex"));
  std::vector<std::pair<std::string, std::string>> list(members.begin(), members.end());
  list.emplace_back("hcc_cfg.txt", "hcc-cfg 1\n1 0 0:1\n1 99 0:1\n");
  put_file(d.file("bad.cubex"), cubelib_style_tar(list));
  try {
    read_cubex(d.file("bad.cubex"));
    FAIL() << "a predecessor id out of range was accepted";
  } catch (const std::runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find("hcc_cfg.txt line 3: call path id out of range"), std::string::npos)
        << e.what();
  }
}
