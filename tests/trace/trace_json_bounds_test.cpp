// hcc-report --trace-json bounded by its input (issue 40, item 3): an event
// file cut at one of its 1 MiB chunk boundaries made libotf2's global event
// reader start over and over (1.47 GB of JSON in 40 s), and a FIFO anywhere
// in the archive made it wait for a writer for ever. Now a damaged archive
// ends with one line and status 2 after at most as much output as the whole
// archive gives, and a file of the archive that is not a regular file (a
// directory for traces/) is refused before OTF2 opens anything.
//
// The archives are written here with OTF2's own writer (synthetic_archive),
// so every count is known. Limits are of work, not of wall time: a CPU
// limit (ulimit -t), a file size limit (ulimit -f) and `head -c` on the
// output turn the old endless loop into a failure quickly; the timeout only
// catches a hang (a FIFO).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "report_run.hpp"
#include "synthetic_archive.hpp"

using hcc_test::quote;
using hcc_test::ReportResult;
using hcc_test::run_capturing;
using hcc::trace_test::SyntheticArchive;
using hcc::trace_test::write_synthetic_archive;
namespace fs = std::filesystem;

namespace {

// 120 000 visits on one location: an event file of about 2.9 MB, three
// chunks of 1 MiB, so both cuts of the issue fall inside it.
constexpr uint64_t kVisits = 120000;

struct Dir {
  fs::path path;
  Dir() {
    std::string t = (fs::temp_directory_path() / "hcc-trace-bounds-XXXXXX").string();
    if (!::mkdtemp(t.data())) throw std::runtime_error("mkdtemp");
    path = t;
  }
  ~Dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string file(const std::string &name) const { return (path / name).string(); }
};

struct Outcome {
  int status = -1;  // of hcc-report itself; 137 = killed by the timeout, 152 = CPU limit
  std::uint64_t out_bytes = 0;
  long x_events = 0;  // lines with a complete ("X") event
  std::string err;
};

// hcc-report ARGS with 30 s of CPU, 1 GiB of address space and files of
// 256 MiB at most (a file -o names), killed after `timeout` seconds; stdout
// is counted (bytes, X events), never kept, and cut after `max_out` bytes.
Outcome report(const Dir &d, const std::string &args, std::uint64_t max_out, int timeout = 120) {
  const std::string err = d.file("stderr.txt"), status = d.file("status.txt"), out = d.file("stdout.txt");
  const std::string cmd = "(ulimit -t 30; ulimit -v 1048576; ulimit -f 262144; timeout -s KILL " +
                          std::to_string(timeout) + " " + quote(HCC_REPORT_EXE) + " " + args + " 2>" +
                          quote(err) + "; echo $? >" + quote(status) + ") | head -c " + std::to_string(max_out) +
                          " >" + quote(out);
  const ReportResult r = run_capturing(cmd, err);
  Outcome o;
  o.err = r.err;
  std::ifstream s(status);
  s >> o.status;
  std::ifstream f(out);
  for (std::string line; std::getline(f, line);) {
    o.out_bytes += line.size() + 1;
    o.x_events += line.find("\"ph\":\"X\"") != std::string::npos;
  }
  return o;
}

long lines(const std::string &s) { return std::count(s.begin(), s.end(), '\n'); }

std::uint64_t size_of(const std::string &path) { return fs::file_size(path); }

// The JSON of the whole archive: its size bounds what any cut of it may give.
std::uint64_t whole_output(const SyntheticArchive &a, const Dir &d) {
  const Outcome o = report(d, "--trace-json " + quote(a.anchor), std::uint64_t(1) << 30);
  EXPECT_EQ(o.status, 0) << o.err;
  return o.out_bytes;
}

TEST(TraceJsonBounds, WholeArchiveGivesOneEventPerVisit) {
  Dir d;
  const SyntheticArchive a = write_synthetic_archive(d.path.string(), 2, kVisits);
  ASSERT_GT(size_of(a.events), std::uint64_t(2) << 20);
  const Outcome o = report(d, "--trace-json " + quote(d.path.string()), std::uint64_t(1) << 30);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.err, "");
  EXPECT_EQ(o.x_events, static_cast<long>(a.visits));
}

// Where the event file is cut, in bytes: at the two sizes (100 bytes
// into the second chunk; exactly two chunks) and at half the file.
class TraceJsonCutEventFile : public ::testing::TestWithParam<const char *> {};

TEST_P(TraceJsonCutEventFile, StopsWithOneLineAfterAtMostTheWholeOutput) {
  Dir d;
  const SyntheticArchive a = write_synthetic_archive(d.path.string(), 1, kVisits);
  const std::uint64_t whole = whole_output(a, d);
  const std::string at = GetParam();
  const std::uint64_t cut = at == "half" ? size_of(a.events) / 2 : std::stoull(at);
  ASSERT_LT(cut, size_of(a.events));
  fs::resize_file(a.events, cut);
  // Before: endless output; `head -c` stops it at twice the whole output.
  const Outcome o = report(d, "--trace-json " + quote(a.anchor), 2 * whole);
  EXPECT_EQ(o.status, 2) << "141: the output reached twice the whole archive's; 152: the CPU limit\n" << o.err;
  EXPECT_LE(o.out_bytes, whole);
  EXPECT_LT(o.x_events, static_cast<long>(a.visits));
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_EQ(o.err.rfind("hcc-report: " + a.anchor + ": ", 0), 0u) << o.err;
  EXPECT_NE(o.err.find("damaged or truncated"), std::string::npos) << o.err;
}

INSTANTIATE_TEST_SUITE_P(Trace, TraceJsonCutEventFile, ::testing::Values("1048676", "2097152", "half"),
                         [](const ::testing::TestParamInfo<const char *> &i) {
                           return std::string(i.param == std::string("half") ? "Half" : "At") +
                                  (i.param == std::string("half") ? "" : i.param);
                         });

// Every event at one time: the reader starting a chunk over never goes back
// in time, so what stops it is the budget: no more records than half the
// event files' bytes (each record is at least 2 bytes), checked after each
// batch of 65536 records.
TEST(TraceJsonBounds, LoopWithoutTimeGoingBackStopsAtTheEventFilesBudget) {
  Dir d;
  const SyntheticArchive a = write_synthetic_archive(d.path.string(), 1, 400000, 0);
  ASSERT_GT(size_of(a.events), std::uint64_t(2) << 20);
  fs::resize_file(a.events, 1048676);
  const std::uint64_t budget = size_of(a.events) / 2;
  const Outcome o = report(d, "--trace-json " + quote(a.anchor), std::uint64_t(1) << 30);
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_LE(o.x_events, static_cast<long>((budget + 65536) / 2));  // a visit is two records
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find("damaged or truncated archive: more than the " + std::to_string(budget) + " records that " +
                       std::to_string(size_of(a.events)) + " bytes can hold were read"),
            std::string::npos)
      << o.err;
}

// With -o, a damaged archive leaves nothing at the name (and no temporary).
TEST(TraceJsonBounds, DamagedArchiveWithOutputFileWritesNothing) {
  Dir d;
  const SyntheticArchive a = write_synthetic_archive(d.path.string(), 1, kVisits);
  fs::resize_file(a.events, 1048676);
  fs::create_directory(d.file("json"));
  const Outcome o = report(d, "--trace-json " + quote(a.anchor) + " -o " + quote(d.file("json/t.json")), 1 << 20);
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_TRUE(fs::is_empty(d.file("json")));
}

// A FIFO (a directory for traces/) at each name of the archive.
class TraceJsonFifoInArchive : public ::testing::TestWithParam<const char *> {};

TEST_P(TraceJsonFifoInArchive, IsRefusedAtOnce) {
  Dir d;
  const SyntheticArchive a = write_synthetic_archive(d.path.string(), 1, 100);
  const std::string name = d.file(GetParam());
  fs::remove_all(name);
  ASSERT_EQ(::mkfifo(name.c_str(), 0600), 0);
  // PATH as the anchor and as the run directory (the scan in locate.cpp
  // took a FIFO named traces.otf2 as a tagged trace).
  for (const std::string &path : {a.anchor, d.path.string()}) {
    SCOPED_TRACE(path);
    const Outcome o = report(d, "--trace-json " + quote(path), 1 << 20, 20);
    EXPECT_EQ(o.status, 2) << "137: hcc-report waited for a writer on the FIFO\n" << o.err;
    EXPECT_EQ(o.out_bytes, 0u);
    const bool dir = std::string(GetParam()) == "traces";
    EXPECT_EQ(o.err, "hcc-report: " + name + ": is a FIFO, not a " + (dir ? "directory" : "regular file") + "\n");
  }
}

INSTANTIATE_TEST_SUITE_P(Trace, TraceJsonFifoInArchive,
                         ::testing::Values("traces.otf2", "traces.def", "traces", "traces/0.evt", "traces/0.def"),
                         [](const ::testing::TestParamInfo<const char *> &i) {
                           std::string n;
                           for (const char *c = i.param; *c; ++c) n += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
                           return n;
                         });

// An event file that is a link to /dev/zero (endless bytes) is refused, as
// a link: no file of an archive hcc writes is one.
TEST(TraceJsonBounds, EventFileLinkedToDevZeroIsRefused) {
  Dir d;
  const SyntheticArchive a = write_synthetic_archive(d.path.string(), 1, 100);
  fs::remove(a.events);
  fs::create_symlink("/dev/zero", a.events);
  const Outcome o = report(d, "--trace-json " + quote(a.anchor), 1 << 20);
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(o.out_bytes, 0u);
  EXPECT_EQ(o.err, "hcc-report: " + a.events + ": is a symbolic link, not a regular file\n");
}

// PATH itself a link to /dev/zero: refused like a FIFO (the anchor a user
// names may be a link; what it leads to must be a regular file).
TEST(TraceJsonBounds, AnchorLinkedToDevZeroIsRefused) {
  Dir d;
  const std::string anchor = d.file("traces.otf2");
  fs::create_symlink("/dev/zero", anchor);
  const Outcome o = report(d, "--trace-json " + quote(anchor), 1 << 20);
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(o.err, "hcc-report: " + anchor + ": is a character device, not a regular file\n");
}

}  // namespace
