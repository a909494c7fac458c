// hcc-report --html rendered by a real headless Chromium: the C++ sample and
// an MPI + OpenMP run. The DOM is read with --dump-dom, a screenshot's
// colours are counted, and a click on a flame-graph box is made with real
// mouse events over the DevTools protocol (html_check.py).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>

#include "cubex.hpp"
#include "e2e_support.hpp"
#include "test_util.hpp"

using namespace hcc::e2e;

namespace {

const std::string kChromium = HCC_TEST_CHROMIUM;  // "" when not installed
const std::string kCheck = std::string("python3 ") + shell_quote(HCC_TEST_HTML_CHECK);

#define REQUIRE_CHROMIUM()                                                                              \
  if (kChromium.empty()) GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it)"

std::string chromium(const std::string &args) {
  // --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start.
  // A profile directory per test: scratch_dir empties it first, which must
  // never pull the files from under another test's Chromium.
  const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return "timeout 120 " + shell_quote(kChromium) + " --headless --no-sandbox --disable-gpu --no-first-run " +
         "--user-data-dir=" + shell_quote(scratch_dir("chromium-profile-" + test)) + " " + args;
}

// Writes the page of profile directory `out` and checks it refers to nothing
// outside itself.
std::string write_html(const std::string &out, const std::string &file) {
  const RunResult r = run(shell_quote(report_bin()) + " --html " + shell_quote(out) + " -o " + shell_quote(file));
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(file);
  for (const char *net : {"http:", "https:", "//cdn", "src=", "<link", "@import", "url(", "fetch(", "XMLHttpRequest",
                          "WebSocket"})
    EXPECT_EQ(page.find(net), std::string::npos) << file << " refers to the network: " << net;
  return page;
}

std::string dump_dom(const std::string &file) {
  const RunResult r = run(chromium("--virtual-time-budget=5000 --dump-dom " + shell_quote("file://" + file)));
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

// The flame-graph boxes in a dumped DOM: data-name of every .fg-node.
std::vector<std::string> boxes(const std::string &dom) {
  std::vector<std::string> out;
  const std::regex box("class=\"fg-node[^\"]*\" data-cp=\"-?[0-9]+\" data-name=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), box); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

bool has(const std::vector<std::string> &v, const std::string &prefix) {
  for (const auto &s : v)
    if (s.rfind(prefix, 0) == 0) return true;
  return false;
}

int colours(const std::string &file, const std::string &png) {
  const RunResult s = run(chromium("--window-size=1200,800 --screenshot=" + shell_quote(png) + " " +
                                   shell_quote("file://" + file)));
  EXPECT_EQ(s.status, 0) << s.err;
  const RunResult c = run(kCheck + " colours " + shell_quote(png));
  EXPECT_EQ(c.status, 0) << c.err;
  return c.status == 0 ? std::stoi(c.out) : 0;
}

}  // namespace

TEST(HtmlReport, CppSampleRendersFlameGraphTablesAndZooms) {
  REQUIRE_CHROMIUM();
  const std::string dir = scratch_dir("html-cpp");
  const std::string exe = dir + "/particles", out = dir + "/out";
  RunResult b = run(shell_quote(hcc_bin()) + " --hcc-functions=all -O2 -pthread " +
                    shell_quote(samples_dir() + "/cpp/particles.cpp") + " -o " + shell_quote(exe));
  ASSERT_EQ(b.status, 0) << b.err;
  // Every function timed, none sampled: the boxes wide enough for a name
  // are counted, and with sampling the tree and its widths depend on where
  // samples landed, which varies with the load (8 names, not more, in a
  // sampled run beside two CPU hogs); a throttled function's time would be
  // its samples' too. The marks of sampled times have their own test
  // (TimesFromSamplesAreHatchedAndMarked).
  ASSERT_EQ(run("HCC_SAMPLING=off HCC_THROTTLE=off HCC_OUTPUT_DIR=" + shell_quote(out) + " " + shell_quote(exe)).status,
            0);
  const std::string file = dir + "/report.html";
  const std::string page = write_html(out, file);
  EXPECT_NE(page.find("<script type=\"application/json\" id=\"hcc-data\">"), std::string::npos);

  const std::string dom = dump_dom(file);
  const auto names = boxes(dom);
  EXPECT_GT(names.size(), 8u) << dom.substr(0, 2000);
  EXPECT_TRUE(has(names, "main")) << dom.substr(0, 2000);
  EXPECT_TRUE(has(names, "double sim::simulate") || has(names, "sim::simulate") || has(names, "simulate"))
      << dom.substr(0, 4000);
  // Run facts, the flat table's rows, the spread table.
  EXPECT_NE(dom.find("5 = 1 rank \u00d7 5 threads"), std::string::npos);
  EXPECT_NE(dom.find("<td class=\"name\">main</td>"), std::string::npos);
  EXPECT_NE(dom.find("id=\"spread\""), std::string::npos);
  EXPECT_GT(colours(file, dir + "/shot.png"), 30);

  // A real click (mouse events through the DevTools protocol) on a box
  // narrower than the graph makes it span the whole width.
  const RunResult c = run(kCheck + " click " + shell_quote(kChromium) + " " + shell_quote(file) + " ''");
  ASSERT_EQ(c.status, 0) << c.err;
  const auto j = nlohmann::json::parse(c.out);
  ASSERT_FALSE(j.contains("error")) << c.out;
  const auto &before = j["before"], &after = j["after"];
  EXPECT_EQ(before["zoom"], -1) << c.out;
  EXPECT_EQ(after["zoom"], before["cp"]) << c.out;
  EXPECT_LT(before["width"].get<double>(), 0.9 * before["flame_width"].get<double>()) << c.out;
  EXPECT_NEAR(after["width"].get<double>(), after["flame_width"].get<double>(), 2.0) << c.out;
  ASSERT_TRUE(j["tooltip"].is_string()) << c.out;  // hovering showed the exact values
  EXPECT_NE(j["tooltip"].get<std::string>().find("inclusive"), std::string::npos) << c.out;
  // Search: the clicked box's region is marked, and the count is shown.
  const std::string name = before["name"];
  EXPECT_NE(j["search"]["info"].get<std::string>().find("match"), std::string::npos) << c.out;
  bool marked = false;
  for (const auto &m : j["search"]["marked"]) marked |= m == name;
  EXPECT_TRUE(marked) << c.out;
  // Metric selector: the top box shows the total number of visits.
  const auto p = Profile::load(out);
  long long visits = 0;
  for (const auto &cp : p.json()["callpaths"])
    for (const auto &v : cp["values"]["visits"]["excl"]) visits += v.get<long long>();
  EXPECT_EQ(j["visits_root"], "all (" + std::to_string(visits) + ")") << c.out;
}

// Times from samples (text_views/marks.hpp) on hybrid_profile() (bar
// counted, baz throttled, exp sampled): their flame-graph boxes are hatched
// and the legend shown; their flat-table times have `~` and say why in their
// tooltip; main's and foo's, timed, have neither.
TEST(HtmlReport, TimesFromSamplesAreHatchedAndMarked) {
  REQUIRE_CHROMIUM();
  const std::string dir = scratch_dir("html-marks");
  hcc::profile::write_cubex(hcc_test::hybrid_profile(), dir + "/profile.cubex");
  write_html(dir + "/profile.cubex", dir + "/page.html");
  const std::string dom = dump_dom(dir + "/page.html");
  std::set<std::string> hatched, plain;
  const std::regex box("class=\"fg-node([^\"]*)\" data-cp=\"([0-9]+)\" data-name=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), box); it != std::sregex_iterator(); ++it)
    ((*it)[1].str().find("fg-sampled") != std::string::npos ? hatched : plain).insert((*it)[3]);
  EXPECT_EQ(hatched, (std::set<std::string>{"bar", "baz", "exp"})) << dom.substr(0, 3000);
  EXPECT_EQ(plain, (std::set<std::string>{"main", "foo"})) << dom.substr(0, 3000);
  EXPECT_NE(dom.find("<p class=\"hint\" id=\"flame-legend\"><span class=\"swatch-sampled\">"), std::string::npos)
      << dom.substr(0, 3000);
  // Flat table: the region's kind, and its times marked with the reason.
  EXPECT_NE(dom.find("<td class=\"name\">bar [counted]</td><td class=\"\" title=\"time from samples: counted "
                     "(visits exact, no clock read)\">~44.000 s</td>"),
            std::string::npos)
      << dom.substr(dom.find("id=\"flat\""), 3000);
  EXPECT_NE(dom.find("<td class=\"name\">baz [throttled]</td><td class=\"\" title=\"time from samples: throttled"),
            std::string::npos);
  EXPECT_NE(dom.find("<td class=\"name\">exp</td><td class=\"\" title=\"time from samples: found by sampling "
                     "(not instrumented)\">~176.000 s</td>"),
            std::string::npos);
  EXPECT_NE(dom.find("<td class=\"name\">foo</td><td class=\"\">22.000 s</td><td class=\"\">242.000 s</td>"),
            std::string::npos);

  // Every region timed: no hatch, the legend hidden.
  hcc::profile::write_cubex(hcc_test::sample_profile(), dir + "/timed.cubex");
  write_html(dir + "/timed.cubex", dir + "/timed.html");
  const std::string timed = dump_dom(dir + "/timed.html");
  EXPECT_EQ(timed.find("class=\"fg-node fg-sampled"), std::string::npos);
  EXPECT_NE(timed.find("class=\"fg-node\""), std::string::npos);
  EXPECT_NE(timed.find("id=\"flame-legend\" hidden=\"\""), std::string::npos) << timed.substr(0, 3000);
}

// Control flow: a profile with predecessor lists (HCC_CFG, on by default)
// gets a table of them; one without (HCC_CFG=off) keeps the section hidden.
TEST(HtmlReport, PredecessorsShownWhenTheProfileHasThem) {
  REQUIRE_CHROMIUM();
  const std::string dir = scratch_dir("html-pred");
  const std::string exe = dir + "/views";
  ASSERT_EQ(run(shell_quote(hcc_bin()) + " --hcc-functions=all -O1 " + shell_quote(programs_dir() + "/views.c") +
                " -o " + shell_quote(exe))
                .status,
            0);
  ASSERT_EQ(run("HCC_CFG=off HCC_OUTPUT_DIR=" + shell_quote(dir + "/off") + " " + shell_quote(exe) + " 10").status, 0);
  write_html(dir + "/off", dir + "/off.html");
  EXPECT_NE(dump_dom(dir + "/off.html").find("<section id=\"cflow-section\" hidden=\"\">"), std::string::npos);

  ASSERT_EQ(run("HCC_OUTPUT_DIR=" + shell_quote(dir + "/on") + " " + shell_quote(exe) + " 10").status, 0);
  write_html(dir + "/on", dir + "/on.html");
  const std::string dom = dump_dom(dir + "/on.html");
  ASSERT_NE(dom.find("<section id=\"cflow-section\">"), std::string::npos) << dom.substr(0, 2000);
  // callsvia ran once, right after fib returned (its sibling predecessor);
  // fib was entered once from main and 21890 times after itself (folded).
  EXPECT_NE(dom.find("<td class=\"name\">main \u2192 callsvia</td><td class=\"name\">main \u2192 fib (1)</td>"),
            std::string::npos)
      << dom.substr(dom.find("cflow-section"), 1500);
  EXPECT_NE(dom.find("<td class=\"name\">main \u2192 fib</td><td class=\"name\">main (1); main \u2192 fib (21890)</td>"),
            std::string::npos)
      << dom.substr(dom.find("cflow-section"), 1500);
}

// The findings come first (issue 42): before the call tree, the first of
// them the OpenMP sample's imbalanced loop, with its evidence and meaning.
TEST(HtmlReport, FindingsComeFirstWithTheOpenMPSamplesImbalance) {
  REQUIRE_CHROMIUM();
  const std::string dir = scratch_dir("html-findings");
  const std::string exe = dir + "/imbalance", out = dir + "/out";
  ASSERT_EQ(run(shell_quote(hcc_bin()) + " --hcc-compiler=gcc -fopenmp -O2 " +
                shell_quote(samples_dir() + "/openmp/imbalance.c") + " -o " + shell_quote(exe))
                .status,
            0);
  ASSERT_EQ(run("OMP_NUM_THREADS=2 OMP_DYNAMIC=false HCC_OUTPUT_DIR=" + shell_quote(out) + " " + shell_quote(exe)).status,
            0);
  write_html(out, dir + "/report.html");
  const std::string dom = dump_dom(dir + "/report.html");
  const auto findings = dom.find("<section id=\"findings-section\">"), tree = dom.find("<section id=\"flame-section\">");
  ASSERT_NE(findings, std::string::npos) << dom.substr(0, 2000);
  ASSERT_NE(tree, std::string::npos);
  EXPECT_LT(findings, tree);
  const auto first = dom.find("<li class=\"finding\"", findings);
  ASSERT_NE(first, std::string::npos) << dom.substr(findings, 2000);
  const std::string item = dom.substr(first, dom.find("</li>", dom.find("finding-evidence", first)) - first);
  EXPECT_NE(item.find("data-kind=\"openmp.imbalance\""), std::string::npos) << item;
  EXPECT_NE(item.find("load imbalance in the loop at imbalance.c:"), std::string::npos) << item;
  EXPECT_NE(item.find("waiting at the implicit barrier (s): thread 0 "), std::string::npos) << item;
  EXPECT_NE(item.find("finished last"), std::string::npos) << item;
}

#ifdef HCC_TEST_MPICC
TEST(HtmlReport, MpiOpenMpRunShowsBothSections) {
  REQUIRE_CHROMIUM();
  const std::string dir = scratch_dir("html-hybrid");
  const std::string exe = dir + "/hybrid", out = dir + "/out";
  RunResult b = run(shell_quote(hcc_bin()) + " --hcc-functions=all " + shell_quote(HCC_TEST_MPICC) + " -fopenmp -O1 " +
                    shell_quote(std::string(HCC_TEST_MPI_PROGRAMS) + "/hybrid.c") + " -o " + shell_quote(exe));
  ASSERT_EQ(b.status, 0) << b.err;
  const RunResult r = run("OMP_NUM_THREADS=2 HCC_OUTPUT_DIR=" + shell_quote(out) +
                          " OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " +
                          shell_quote(HCC_TEST_MPIRUN) + " --oversubscribe -np 2 " + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string file = dir + "/report.html";
  write_html(out, file);
  const std::string dom = dump_dom(file);
  const auto names = boxes(dom);
  // MPI_Init_thread takes nearly all the time: the other boxes are too
  // narrow to draw; every region is in the flat table.
  EXPECT_TRUE(has(names, "main")) << dom.substr(0, 2000);
  EXPECT_TRUE(has(names, "MPI_Init_thread")) << dom.substr(0, 2000);
  for (const char *region : {"MPI_Allreduce", "!$omp parallel @hybrid.c:16", "!$omp for @hybrid.c:16", "work"})
    EXPECT_NE(dom.find(std::string("<td class=\"name\">") + region + "</td>"), std::string::npos) << region;
  EXPECT_NE(dom.find("4 = 2 ranks \u00d7 2 threads"), std::string::npos);
  // The sections are shown (not hidden) and hold the text views' tables.
  EXPECT_NE(dom.find("<section id=\"openmp-section\">"), std::string::npos);
  EXPECT_NE(dom.find("<section id=\"mpi-section\">"), std::string::npos);
  // The text views' tables become HTML tables (a head cell per column).
  EXPECT_NE(dom.find("<th class=\"\">execT</th>"), std::string::npos);
  EXPECT_NE(dom.find("<th class=\"\">MPITime s</th>"), std::string::npos);
  EXPECT_NE(dom.find("<td class=\"name\">main \u2192 MPI_Allreduce</td>"), std::string::npos);
  EXPECT_GT(colours(file, dir + "/shot.png"), 30);
}

// Text views a person can read: a one-rank MPI run carries 16 MPI/IO metrics
// that are all zero; they get no columns, and OpenMP region names carry the
// file's base name as lambdas do.
TEST(TextViews, ZeroMetricColumnsLeftOutAndOpenMpNamesUseBaseNames) {
  const std::string dir = scratch_dir("text-one-rank");
  const std::string exe = dir + "/hybrid", out = dir + "/out";
  ASSERT_EQ(run(shell_quote(hcc_bin()) + " " + shell_quote(HCC_TEST_MPICC) + " -fopenmp -O1 " +
                shell_quote(std::string(HCC_TEST_MPI_PROGRAMS) + "/hybrid.c") + " -o " + shell_quote(exe))
                .status,
            0);
  // HCC_SAMPLING=off: the header's width below is that of these metrics;
  // sampling adds two nonzero ones (samples, sampled_cpu), rightly shown.
  const RunResult r = run("OMP_NUM_THREADS=2 HCC_SAMPLING=off HCC_OUTPUT_DIR=" + shell_quote(out) +
                          " OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " +
                          shell_quote(HCC_TEST_MPIRUN) + " -np 1 " + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  const Profile p = Profile::load(out);
  // Metrics with a nonzero value somewhere; the others must not be columns.
  std::set<std::string> nonzero;
  for (const auto &c : p.json()["callpaths"])
    for (auto it = c["values"].begin(); it != c["values"].end(); ++it)
      for (const auto &v : it.value()["excl"])
        if (v.is_number() && v.get<double>() != 0) nonzero.insert(it.key());
  ASSERT_GE(p.json()["metrics"].size(), nonzero.size() + 2) << "expected all-zero MPI metrics (messages, I/O bytes)";
  const std::string text = run(shell_quote(report_bin()) + " " + shell_quote(out)).out;
  const std::string header = text.substr(text.find("%Time"), text.find('\n', text.find("%Time")) - text.find("%Time"));
  for (const auto &m : p.json()["metrics"]) {
    const std::string name = m["name"];
    if (name == "time" || name == "visits") continue;
    EXPECT_EQ(header.find(name + " excl") != std::string::npos, nonzero.count(name) == 1) << name << "\n" << header;
  }
  EXPECT_LT(header.size(), 200u) << header;
  for (const auto &reg : p.json()["regions"]) {
    const std::string n = reg["name"];
    if (n.rfind("!$omp", 0) == 0) {
      EXPECT_EQ(n.find('/'), std::string::npos) << n;
      EXPECT_NE(n.find("@hybrid.c:"), std::string::npos) << n;
    }
  }
}
#endif
