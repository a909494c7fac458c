// hcc-report, the built binary: JSON shape and values, text views, how it
// finds the profile, and its errors (exit code 2, naming what is wrong).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cubex.hpp"
#include "report_run.hpp"
#include "test_util.hpp"

using namespace hcc_test;
using nlohmann::json;

namespace {

using Result = ReportResult;

// Runs hcc-report with `args` in directory `cwd`.
Result report(const std::string &args, const std::string &cwd = ".") {
  TempDir errdir;
  const std::string errfile = errdir.file("stderr");
  const std::string cmd = "cd " + quote(cwd) + " && " + quote(HCC_REPORT_EXE) + " " + args + " 2>" + quote(errfile);
  return run_capturing(cmd, errfile);
}

}  // namespace

TEST(Report, JsonShapeAndValues) {
  TempDir d;
  write_cubex(sample_profile(), d.file("profile.cubex"));
  const Result r = report("--json " + quote(d.file("profile.cubex")));
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);

  // Keys in the documented order.
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::string>{"callpaths", "locations", "metrics", "regions", "version"}));
  EXPECT_LT(r.out.find("\"version\""), r.out.find("\"metrics\""));
  EXPECT_LT(r.out.find("\"regions\""), r.out.find("\"callpaths\""));
  EXPECT_EQ(j["version"], 1);

  EXPECT_EQ(j["metrics"], json::parse(R"([{"name":"time","unit":"s"},{"name":"visits","unit":"occ"}])"));
  EXPECT_EQ(j["locations"], json::parse(R"([{"id":0,"rank":0,"thread":0,"name":"thread 0"},
                                            {"id":1,"rank":0,"thread":1,"name":"thread 1"}])"));
  ASSERT_EQ(j["regions"].size(), 4u);
  EXPECT_EQ(j["regions"][3], json::parse(R"({"id":3,"name":"baz","file":"lib.c","line":5,"end_line":9,"kind":"function","time_from":"clock"})"));

  ASSERT_EQ(j["callpaths"].size(), 4u);
  const json &main = j["callpaths"][0];
  EXPECT_EQ(main["id"], 0);
  EXPECT_EQ(main["parent"], -1);
  EXPECT_EQ(main["region"], 0);
  EXPECT_EQ(j["callpaths"][2]["parent"], 1);
  EXPECT_EQ(j["callpaths"][2]["region"], 2);
  // time: floating seconds; visits: integers; incl = subtree sums.
  EXPECT_DOUBLE_EQ(main["values"]["time"]["incl"][0].get<double>(), 15.0);
  EXPECT_DOUBLE_EQ(main["values"]["time"]["incl"][1].get<double>(), 150.0);
  EXPECT_DOUBLE_EQ(main["values"]["time"]["excl"][1].get<double>(), 10.0);
  EXPECT_TRUE(main["values"]["time"]["excl"][0].is_number_float());
  EXPECT_TRUE(main["values"]["visits"]["excl"][0].is_number_integer());
  EXPECT_EQ(main["values"]["visits"]["excl"], json::parse("[1, 2]"));
  EXPECT_EQ(main["values"]["visits"]["incl"], json::parse("[1111, 1115]"));
  EXPECT_EQ(j["callpaths"][3]["values"]["visits"]["excl"], json::parse("[1000, 1001]"));
}

TEST(Report, JsonCarriesEveryMetricAndRestrictsToALocation) {
  TempDir d;
  Profile p = sample_profile();
  p.metrics.push_back(metric("bytes_sent", "bytes", DType::UInt64, CubeType::Exclusive));
  p.excl.push_back({0, 0, 0, 0, 512, 1024, 0, 0});
  write_cubex(p, d.file("profile.cubex"));
  const Result r = report("--json --location 1 " + quote(d.file("profile.cubex")));
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["metrics"][2], json::parse(R"({"name":"bytes_sent","unit":"bytes"})"));
  ASSERT_EQ(j["locations"].size(), 1u);
  EXPECT_EQ(j["locations"][0]["id"], 1);
  EXPECT_EQ(j["callpaths"][2]["values"]["bytes_sent"]["excl"], json::parse("[1024]"));
  EXPECT_EQ(j["callpaths"][0]["values"]["bytes_sent"]["incl"], json::parse("[1024]"));
}

TEST(Report, DefaultViewIsTheFlatProfileAndTreeIsTheTree) {
  TempDir d;
  write_cubex(sample_profile(), d.file("profile.cubex"));
  const Result flat = report(quote(d.file("profile.cubex")));
  ASSERT_EQ(flat.status, 0) << flat.err;
  EXPECT_NE(flat.out.find("FLAT PROFILE"), std::string::npos) << flat.out;
  EXPECT_NE(flat.out.find("Exclusive msec"), std::string::npos);
  EXPECT_EQ(flat.out.find("CALL TREE"), std::string::npos);
  const Result tree = report("--tree " + quote(d.file("profile.cubex")));
  ASSERT_EQ(tree.status, 0) << tree.err;
  EXPECT_NE(tree.out.find("CALL TREE"), std::string::npos) << tree.out;
  EXPECT_NE(tree.out.find("      bar"), std::string::npos) << tree.out;  // depth 2
}

TEST(Report, DirectoryArgumentAndNewestRunDirectory) {
  TempDir d;
  fs::create_directory(d.path / "hcc-old");
  fs::create_directory(d.path / "hcc-new");
  fs::create_directory(d.path / "other");
  Profile older = sample_profile();
  older.regions[0].name = "old_main";
  write_cubex(older, (d.path / "hcc-old" / "profile.cubex").string());
  write_cubex(sample_profile(), (d.path / "hcc-new" / "profile.cubex").string());
  fs::last_write_time(d.path / "hcc-old", fs::file_time_type::clock::now() - std::chrono::hours(1));
  fs::last_write_time(d.path / "hcc-new", fs::file_time_type::clock::now());

  const Result dir = report("--json " + quote((d.path / "hcc-old").string()));
  ASSERT_EQ(dir.status, 0) << dir.err;
  EXPECT_EQ(json::parse(dir.out)["regions"][0]["name"], "old_main");

  const Result newest = report("--json", d.path.string());
  ASSERT_EQ(newest.status, 0) << newest.err;
  EXPECT_EQ(json::parse(newest.out)["regions"][0]["name"], "main");
}

// The runtime writes a later run into the same HCC_OUTPUT_DIR beside the
// earlier one (profile-1.cubex …): a directory means its newest profile.
TEST(Report, DirectoryWithSeveralRunsReadsTheNewestAndSaysSo) {
  TempDir d;
  fs::create_directory(d.path / "out");
  Profile first = sample_profile();
  first.regions[0].name = "first_main";
  write_cubex(first, (d.path / "out" / "profile.cubex").string());
  write_cubex(sample_profile(), (d.path / "out" / "profile-1.cubex").string());
  fs::last_write_time(d.path / "out" / "profile.cubex", fs::file_time_type::clock::now() - std::chrono::hours(1));
  const Result r = report("--json " + quote((d.path / "out").string()));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["regions"][0]["name"], "main");
  EXPECT_NE(r.err.find("holds 2 profiles (one per run); reading the newest, profile-1.cubex"), std::string::npos)
      << r.err;
  // A file named explicitly is read, whatever is newer.
  const Result f = report("--json " + quote((d.path / "out" / "profile.cubex").string()));
  ASSERT_EQ(f.status, 0) << f.err;
  EXPECT_EQ(json::parse(f.out)["regions"][0]["name"], "first_main");
  EXPECT_EQ(f.err, "");
}

TEST(Report, BadInputExitsWith2AndNamesIt) {
  TempDir d;
  const Result missing = report(quote(d.file("nope.cubex")));
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find(d.file("nope.cubex")), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("No such file"), std::string::npos) << missing.err;
  EXPECT_TRUE(missing.out.empty());

  put_file(d.file("text.cubex"), "just text\n");
  const Result notcube = report(quote(d.file("text.cubex")));
  EXPECT_EQ(notcube.status, 2);
  EXPECT_NE(notcube.err.find("not a .cubex file"), std::string::npos) << notcube.err;

  fs::create_directory(d.path / "emptydir");
  const Result nodir = report(quote((d.path / "emptydir").string()));
  EXPECT_EQ(nodir.status, 2);
  EXPECT_NE(nodir.err.find("emptydir contains no profile.cubex"), std::string::npos) << nodir.err;

  const Result norun = report("", (d.path / "emptydir").string());
  EXPECT_EQ(norun.status, 2);
  EXPECT_NE(norun.err.find("no hcc-* directory"), std::string::npos) << norun.err;

  write_cubex(sample_profile(), d.file("profile.cubex"));
  const Result badloc = report("--location 7 " + quote(d.file("profile.cubex")));
  EXPECT_EQ(badloc.status, 2);
  EXPECT_NE(badloc.err.find("no location 7"), std::string::npos) << badloc.err;

  const Result badopt = report("--frobnicate");
  EXPECT_EQ(badopt.status, 2);
}

// An MPI job that did not reach MPI_Finalize together leaves one
// profile.rank-<r>.cubex per rank that could still write, each naming its
// rank, the job's size and the job: a directory of them reads the lowest
// rank's and names the ranks without one, also when an earlier job's files
// share the directory and the names' suffixes (wrappers/src/mpi_finalize.cpp).
TEST(Report, PerRankProfilesNameTheRanksThatWroteNone) {
  TempDir d;
  const fs::path out = d.path / "out";
  fs::create_directory(out);
  const auto rank_file = [&](const std::string &name, int rank, int size, const std::string &job, int age_s) {
    Profile p = sample_profile();
    p.regions[0].name = job + "_main_" + std::to_string(rank);
    p.attrs.push_back({"mpi rank", std::to_string(rank)});
    p.attrs.push_back({"mpi ranks", std::to_string(size)});
    p.attrs.push_back({"mpi job", job});
    write_cubex(p, (out / name).string());
    fs::last_write_time(out / name, fs::file_time_type::clock::now() - std::chrono::seconds(age_s));
  };
  // An earlier job of 2 ranks, both written; then a job of 16 whose ranks
  // 0 and 1 came second to their names and 2, 5-9 wrote nothing.
  rank_file("profile.rank-0.cubex", 0, 2, "early", 3600);
  rank_file("profile.rank-1.cubex", 1, 2, "early", 3600);
  rank_file("profile-1.rank-0.cubex", 0, 16, "late", 2);
  rank_file("profile-1.rank-1.cubex", 1, 16, "late", 1);
  for (int r : {3, 4, 10, 11, 12, 13, 14, 15}) rank_file("profile.rank-" + std::to_string(r) + ".cubex", r, 16, "late", 1);

  const Result dir = report("--json " + quote(out.string()));
  ASSERT_EQ(dir.status, 0) << dir.err;
  EXPECT_EQ(json::parse(dir.out)["regions"][0]["name"], "late_main_0");
  EXPECT_NE(dir.err.find("the MPI job of 16 ranks did not reach MPI_Finalize together"), std::string::npos) << dir.err;
  EXPECT_NE(dir.err.find("no profile from ranks 2 and 5-9 (6 of 16 ranks"), std::string::npos) << dir.err;
  EXPECT_NE(dir.err.find("Reading rank 0's, profile-1.rank-0.cubex"), std::string::npos) << dir.err;

  const Result one = report("--json " + quote((out / "profile.rank-12.cubex").string()));
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(json::parse(one.out)["regions"][0]["name"], "late_main_12");
  EXPECT_NE(one.err.find("profile.rank-12.cubex is rank 12's own profile of an MPI job of 16 ranks"), std::string::npos)
      << one.err;
  EXPECT_NE(one.err.find("no profile from ranks 2 and 5-9 (6 of 16 ranks"), std::string::npos) << one.err;

  // The earlier job, named by one of its files: complete.
  const Result early = report("--json " + quote((out / "profile.rank-1.cubex").string()));
  ASSERT_EQ(early.status, 0) << early.err;
  EXPECT_NE(early.err.find("all 2 ranks wrote one"), std::string::npos) << early.err;

  // A merged profile newer than the per-rank files is the run to read.
  write_cubex(sample_profile(), (out / "profile.cubex").string());
  const Result merged = report("--json " + quote(out.string()));
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(json::parse(merged.out)["regions"][0]["name"], "main");
  EXPECT_EQ(merged.err, "");
}

// Per-rank files of an hcc that did not record the job: the ranks found.
TEST(Report, PerRankProfilesWithoutTheJobSizeListTheRanksFound) {
  TempDir d;
  write_cubex(sample_profile(), d.file("profile.rank-0.cubex"));
  write_cubex(sample_profile(), d.file("profile.rank-2.cubex"));
  const Result r = report(quote(d.path.string()));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("ranks 0 and 2 wrote one (the job's size is not in the file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Reading rank 0's, profile.rank-0.cubex"), std::string::npos) << r.err;
}
