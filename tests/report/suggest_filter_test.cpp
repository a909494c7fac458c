// hcc-report --suggest-filter on profiles with known times: which regions are
// suggested and which are kept as the program's work follows from the
// numbers alone (pair cost 20 ns, 10 ns of it inside the region), so every
// decision near the line is checked exactly, without a timed run. The rule
// and its guards are checked with the budget off (budget<100); the budget's
// choices on the same numbers last.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "cubex.hpp"
#include "report_run.hpp"
#include "test_util.hpp"

using namespace hcc_test;

namespace {

// main -> work -> dot, main -> fragile -> dot, main -> leaf_heavy; `work`
// and `fragile` make 10 dot calls per visit, so their exclusive time holds
// 10 x (20 - 10) ns of callee pairs and 10 ns of their own pair per visit
// besides their own work.
constexpr double kNs = 1e-9;
enum : size_t { kMain, kWork, kFragile, kDot, kLeafHeavy };

Profile pathtracer_like(double process_cpu_s, const char *pair_ns = "20.00", const char *inside_ns = "10.00",
                        double leaf_heavy_ns = 19) {
  Profile p;
  p.attrs = {{"program", "app"}, {"hcc.pair_cost_ns", pair_ns}, {"hcc.pair_inside_ns", inside_ns}};
  if (process_cpu_s > 0) p.attrs.push_back({"hcc.process_cpu_s", std::to_string(process_cpu_s)});
  p.hosts = {"node"};
  p.metrics = {metric("time", "sec", DType::Double, CubeType::Inclusive),
               metric("visits", "occ", DType::UInt64, CubeType::Exclusive)};
  p.regions = {region("main", "a.cpp", 1, 2), region("work(int)", "a.cpp", 3, 4), region("fragile(int)", "a.cpp", 5, 6),
               region("dot(int)", "a.cpp", 7, 8), region("leaf_heavy(int)", "a.cpp", 9, 10)};
  p.cnodes = {{kMain, -1}, {kWork, 0}, {kDot, 1}, {kFragile, 0}, {kDot, 3}, {kLeafHeavy, 0}};
  p.locations = {{"thread 0", 0, 0}};
  p.excl.assign(2, std::vector<double>(p.cnodes.size(), 0.0));
  // Exclusive time per visit = own pair part + callees' rest + own work:
  //   work:       10 + 10 x 10 + 30 ns (clearly work)
  //   fragile:    10 + 10 x 10 +  5 ns (small, but within the margin of
  //               its 100 ns of callee pairs: 25% of them is 25 ns)
  //   dot:        10 + 1 ns (an accessor)
  //   leaf_heavy: 10 + 9 ns (below 0.5 x 20 ns, but not by the margin
  //               of its own pair part: 9 + 2.5 > 10)
  const double visits[] = {1, 1000, 10000, 1000, 10000, 5000};
  const double per_visit_ns[] = {1e6, 140, 11, 115, 11, leaf_heavy_ns};
  for (size_t c = 0; c < p.cnodes.size(); ++c) {
    p.at(0, c, 0) = visits[c] * per_visit_ns[c] * kNs;
    p.at(1, c, 0) = visits[c];
  }
  return p;
}

struct Suggestion {
  std::set<std::string> excluded, counted;
  std::string text;
  // Whether the output has `part` at or after `from`; shows the output when not.
  testing::AssertionResult shows(const std::string &part, size_t from = 0) const {
    if (text.find(part, from) != std::string::npos) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "no \"" << part << "\" in:\n" << text;
  }
};

Suggestion suggest(const Profile &p, const TempDir &d, const std::string &rule = "calls>100,budget<100") {
  write_cubex(p, d.file("p.cubex"));
  const ReportResult r = run_capturing(quote(HCC_REPORT_EXE) + " --suggest-filter --rule '" + rule + "' " +
                                           quote(d.file("p.cubex")) + " 2>" + quote(d.file("err")),
                                       d.file("err"));
  EXPECT_EQ(r.status, 0) << r.err;
  Suggestion s{{}, {}, r.out};
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("exclude ", 0) == 0) s.excluded.insert(line.substr(8));
    if (line.rfind("count ", 0) == 0) s.counted.insert(line.substr(6));
  }
  return s;
}

}  // namespace

TEST(SuggestFilterNumbers, WorkAndRegionsWithinTheMarginAreKeptAccessorsSuggested) {
  TempDir d;
  const Suggestion s = suggest(pathtracer_like(0), d);
  EXPECT_EQ(s.excluded, (std::set<std::string>{"dot(int)"})) << s.text;
  // The own work printed is the central estimate (fragile's 5 ns, though it
  // is kept); usec/call is inclusive; the saving calls x (pair + own work).
  EXPECT_TRUE(s.shows("#   20000        0.011      1.0        0.0004      dot(int)\n"));
  const size_t kept = s.text.find("# kept, their own work per visit is above 0.5 x the pair cost");
  ASSERT_NE(kept, std::string::npos) << s.text;
  EXPECT_TRUE(s.shows("#   1000         0.250      30.0       -           work(int)\n", kept));
  EXPECT_TRUE(s.shows("#   1000         0.225      5.0        -           fragile(int)\n", kept));
  EXPECT_TRUE(s.shows("#   5000         0.019      9.0        -           leaf_heavy(int)\n", kept));
  EXPECT_EQ(s.text.find("scaled"), std::string::npos) << s.text;
}

// A process that ran on the CPU half the measured time (it waited for one):
// every time is halved, dot's to 5.5 ns a visit, which then also bounds the
// pair (11 ns, 5.5 inside); the header says both.
TEST(SuggestFilterNumbers, WaitingForACpuScalesTimesAndSaysSo) {
  Profile p = pathtracer_like(0);
  double total = 0;
  for (size_t c = 0; c < p.cnodes.size(); ++c) total += p.at(0, c, 0);
  TempDir d;
  const Suggestion s = suggest(pathtracer_like(total / 2), d);
  EXPECT_TRUE(s.shows("# cost of one enter/exit pair: 11.0 ns, measured at the end of the run; 5.5 ns of it inside"));
  EXPECT_TRUE(s.shows("# measured times scaled by 0.500 (process CPU time 0.001 s / measured 0.002 s"));
  EXPECT_EQ(s.excluded, (std::set<std::string>{"dot(int)", "leaf_heavy(int)"})) << s.text;
  EXPECT_TRUE(s.shows("#   1000         0.250      9.5        -           work(int)\n"));
}

// The end-of-run timing twice the run's real pair (40 ns, 20 inside, timed
// while the core was shared): dot's 11 ns a visit shows at most 11 ns lie
// inside a region, so the pair is taken as 22 ns, 11 inside. Unscaled, work's
// 140 ns would hold no own work (10 x 20 + 20 > 140) and be suggested.
TEST(SuggestFilterNumbers, APairTimedSlowerThanTheCheapestLeafIsScaledDown) {
  TempDir d;
  const Suggestion s = suggest(pathtracer_like(0, "40.00", "20.00"), d);
  EXPECT_TRUE(s.shows("# cost of one enter/exit pair: 22.0 ns, measured at the end of the run; 11.0 ns of it inside "
                      "the region\n# (scaled down to the cheapest measured leaf's exclusive time per visit, dot(int):"));
  // leaf_heavy's 19 ns: 8 of own work, 10.75 with the margin, against 11.
  EXPECT_EQ(s.excluded, (std::set<std::string>{"dot(int)", "leaf_heavy(int)"})) << s.text;
  EXPECT_TRUE(s.shows("#   1000         0.250      19.0       -           work(int)\n"));
}

// An inside part above the whole pair (a profile whose runtime averaged a
// preempted calibration: 50 ns of a 20 ns pair) is taken as the whole pair
// before the leaf bound scales both to dot's 11 ns.
TEST(SuggestFilterNumbers, AnInsidePartAboveThePairIsTakenAsThePair) {
  TempDir d;
  const Suggestion s = suggest(pathtracer_like(0, "20.00", "50.00"), d);
  EXPECT_TRUE(s.shows("# cost of one enter/exit pair: 11.0 ns, measured at the end of the run; 11.0 ns of it inside"));
}

namespace {

// main -> solve -> dot (2 per solve visit) and main -> rare: solve makes
// 1 ns of its own work a visit (31 ns exclusive: 10 of its pair, 2 x 10 of
// dot's) but holds 21% of the run with a measured child: the trunk.
Profile trunk_like(double rare_visits) {
  Profile p;
  p.attrs = {{"program", "app"}, {"hcc.pair_cost_ns", "20.00"}, {"hcc.pair_inside_ns", "10.00"}};
  p.hosts = {"node"};
  p.metrics = {metric("time", "sec", DType::Double, CubeType::Inclusive),
               metric("visits", "occ", DType::UInt64, CubeType::Exclusive)};
  p.regions = {region("main", "a.cpp", 1, 2), region("solve(int)", "a.cpp", 3, 4), region("dot(int)", "a.cpp", 7, 8),
               region("rare(int)", "a.cpp", 9, 10)};
  p.cnodes = {{0, -1}, {1, 0}, {2, 1}, {3, 0}};
  p.locations = {{"thread 0", 0, 0}};
  p.excl.assign(2, std::vector<double>(p.cnodes.size(), 0.0));
  const double visits[] = {1, 1000, 2000, rare_visits};
  const double per_visit_ns[] = {2e5, 31, 11, 11};
  for (size_t c = 0; c < p.cnodes.size(); ++c) {
    p.at(0, c, 0) = visits[c] * per_visit_ns[c] * kNs;
    p.at(1, c, 0) = visits[c];
  }
  return p;
}

ReportResult plan_of(const std::vector<std::string> &files, const TempDir &d) {
  std::string args;
  for (const std::string &f : files) args += " " + quote(f);
  return run_capturing(quote(HCC_REPORT_EXE) + " --rule 'calls>100,budget<100' --plan" + args + " 2>" + quote(d.file("err")),
                       d.file("err"));
}

}  // namespace

TEST(SuggestFilterNumbers, ARegionHoldingTheTrunkIsKept) {
  TempDir d;
  const Suggestion s = suggest(trunk_like(0), d);
  EXPECT_EQ(s.excluded, (std::set<std::string>{"dot(int)"})) << s.text;
  const size_t kept = s.text.find("# kept, they hold the call-path trunk (>= 10% of the time, with measured children):\n");
  ASSERT_NE(kept, std::string::npos) << s.text;
  EXPECT_TRUE(s.shows("solve(int)\n", kept));
}

// Two runs: each region judged on the sum. rare's 60 visits a run are under
// the rule's 100, their 120 above it; dot's calls and saving add up.
TEST(PlanNumbers, SeveralProfilesAreJudgedOnTheirSum) {
  TempDir d;
  write_cubex(trunk_like(60), d.file("a.cubex"));
  write_cubex(trunk_like(60), d.file("b.cubex"));
  const ReportResult one = plan_of({d.file("a.cubex")}, d);
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out.find("rare"), std::string::npos) << one.out;
  const ReportResult both = plan_of({d.file("a.cubex"), d.file("b.cubex")}, d);
  ASSERT_EQ(both.status, 0) << both.err;
  const std::string &t = both.out;
  EXPECT_NE(t.find("# hcc plan written by hcc-report --plan from " + d.file("a.cubex") + " + " + d.file("b.cubex")),
            std::string::npos)
      << t;
  // dot: 11 ns inclusive a call, 10 of it its pair's inside part: 1 ns of
  // own work; saving 4000 x (20 + 1) ns.
  EXPECT_NE(t.find("# left out dot(int): 11 ns per call over 4000 calls in " + d.file("a.cubex") + " + " +
                   d.file("b.cubex") + "; measuring it costs 20 ns per call, own work 1 ns; saves about 8.4e-05 s\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("# left out rare(int): 11 ns per call over 120 calls in "), std::string::npos) << t;
  EXPECT_NE(t.find("# kept solve(int): it holds the call-path trunk (21% of the time in "), std::string::npos) << t;
  EXPECT_NE(t.find("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE MANGLED _Zdot(int)\n  EXCLUDE MANGLED _Zrare(int)\nSCOREP_REGION_NAMES_END\n"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("main"), std::string::npos) << t;  // never judged
  // The plan is a filter file hcc reads: no line is anything else.
  std::istringstream lines(t);
  for (std::string line; std::getline(lines, line);)
    EXPECT_TRUE(line.empty() || line[0] == '#' || line.rfind("SCOREP_REGION_NAMES_", 0) == 0 ||
                line.rfind("  EXCLUDE ", 0) == 0)
        << line;
}

TEST(PlanNumbers, AProfileThatCannotBeReadIsNamed) {
  TempDir d;
  write_cubex(trunk_like(0), d.file("a.cubex"));
  const ReportResult r = plan_of({d.file("a.cubex"), d.file("missing.cubex")}, d);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("missing.cubex"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

// --- The budget ----------------------------------------------------------
// pathtracer_like's numbers: 1.57 ms measured, 0.54 ms of it the pairs of
// the judged regions, so 1.03 ms of the program's own; the regions kept
// timed (work 1000, fragile 1000, leaf_heavy 5000 visits) cost 140 us of
// pairs, 13.6 % of it. Counting a region takes 15 of its 20 ns a visit off
// (kCountPairNs 5 ns). Least own work first, the trunk (work and fragile
// each hold > 10 % with a measured child) last: leaf_heavy (9 ns) brings it
// to 6.3 %, fragile (5 ns) to 4.9 %, work (30 ns) to 3.4 %; at 3 % counting
// is not enough, so leaf_heavy, the counted region that is not the trunk,
// is left out (1.0 %), and work, no longer needed, is timed again: 2.4 %.
TEST(SuggestFilterNumbers, OverTheBudgetRegionsAreCountedLeastOwnWorkFirstTheTrunkLast) {
  TempDir d;
  const Suggestion ten = suggest(pathtracer_like(0), d, "calls>100,budget<10");
  EXPECT_EQ(ten.excluded, (std::set<std::string>{"dot(int)"})) << ten.text;
  EXPECT_EQ(ten.counted, (std::set<std::string>{"leaf_heavy(int)"})) << ten.text;
  EXPECT_TRUE(ten.shows("# budget: the regions kept timed cost 13.6% of the run, over the 10% budget: 1 counted "
                        "instead of timed, 0 left out; now 6.3%\n"));
  EXPECT_TRUE(ten.shows("#   5000         0.019      9.0        0.0001      leaf_heavy(int)\n"));
  const Suggestion five = suggest(pathtracer_like(0), d, "calls>100,budget<5%");
  EXPECT_EQ(five.counted, (std::set<std::string>{"leaf_heavy(int)", "fragile(int)"})) << five.text;
  EXPECT_EQ(five.excluded, (std::set<std::string>{"dot(int)"})) << five.text;
  const Suggestion deflt = suggest(pathtracer_like(0), d, "calls>100");
  EXPECT_EQ(deflt.counted, (std::set<std::string>{"fragile(int)"})) << deflt.text;
  EXPECT_EQ(deflt.excluded, (std::set<std::string>{"dot(int)", "leaf_heavy(int)"})) << deflt.text;
  EXPECT_TRUE(deflt.shows("over the 3% budget: 1 counted instead of timed, 1 left out; now 2.4%\n"));
  EXPECT_TRUE(deflt.shows("#   5000         0.019      9.0        0.0001      leaf_heavy(int) (left out)\n"));
  // The budget counts regions the rule does not match too (fragile has
  // 1000 calls): counting hides nothing.
  const Suggestion few = suggest(pathtracer_like(0), d, "calls>2000");
  EXPECT_EQ(few.counted, (std::set<std::string>{"fragile(int)"})) << few.text;
  EXPECT_EQ(few.excluded, (std::set<std::string>{"dot(int)", "leaf_heavy(int)"})) << few.text;
}

// The counted pair the run timed (hcc.count_pair_ns) prices counting, but
// never below 5 ns: at 2 ns the choices are the 5 ns ones, at 8 ns each
// counted region takes only 12 ns a visit off, so after leaf_heavy (7.8 %)
// and fragile (6.6 %) even work (5.4 %) is not enough: leaf_heavy is left
// out (1.6 %), and work is timed again (2.7 %).
TEST(SuggestFilterNumbers, TheRunsCountedPairPricesCountingNeverBelowFiveNs) {
  TempDir d;
  for (const char *timed : {"2.00", "8.00"}) {
    Profile p = pathtracer_like(0);
    p.attrs.push_back({"hcc.count_pair_ns", timed});
    const Suggestion s = suggest(p, d, "calls>100");
    EXPECT_EQ(s.counted, (std::set<std::string>{"fragile(int)"})) << s.text;
    EXPECT_EQ(s.excluded, (std::set<std::string>{"dot(int)", "leaf_heavy(int)"})) << s.text;
    if (std::string(timed) == "2.00") {
      EXPECT_TRUE(s.shows("10.0 ns of it inside the region; a counted pair 2.0 ns (priced at 5)\n"));
    } else {
      EXPECT_TRUE(s.shows("a counted pair 8.0 ns (priced at 8)\n"));
      EXPECT_TRUE(s.shows("over the 3% budget: 1 counted instead of timed, 1 left out; now 2.7%\n"));
    }
  }
}

namespace {
// main (10 ms of its own) -> rec (1000 visits) -> rec (3000 visits), 60 ns
// a visit each: 2.3 % of the run, not the trunk, recursive.
Profile recursive_like() {
  Profile p;
  p.attrs = {{"program", "app"}, {"hcc.pair_cost_ns", "20.00"}, {"hcc.pair_inside_ns", "10.00"}};
  p.hosts = {"node"};
  p.metrics = {metric("time", "sec", DType::Double, CubeType::Inclusive),
               metric("visits", "occ", DType::UInt64, CubeType::Exclusive)};
  p.regions = {region("main", "a.cpp", 1, 2), region("rec(int)", "a.cpp", 3, 4)};
  p.cnodes = {{0, -1}, {1, 0}, {1, 1}};
  p.locations = {{"thread 0", 0, 0}};
  p.excl.assign(2, std::vector<double>(p.cnodes.size(), 0.0));
  const double visits[] = {1, 1000, 3000};
  const double per_visit_ns[] = {1e7, 60, 60};
  for (size_t c = 0; c < p.cnodes.size(); ++c) {
    p.at(0, c, 0) = visits[c] * per_visit_ns[c] * kNs;
    p.at(1, c, 0) = visits[c];
  }
  return p;
}
}  // namespace

// Counting a recursive region would cost a timed pair (count mode hands
// recursion mode to the timed paths): over the budget it is left out.
TEST(SuggestFilterNumbers, OverTheBudgetARecursiveRegionIsLeftOutNotCounted) {
  TempDir d;
  const Suggestion within = suggest(recursive_like(), d, "calls>100");
  EXPECT_TRUE(within.excluded.empty() && within.counted.empty()) << within.text;
  EXPECT_TRUE(within.shows("# budget: the regions kept timed cost 0.8% of the run (budget 3%)\n"));
  const Suggestion tight = suggest(recursive_like(), d, "calls>100,budget<0.5");
  EXPECT_EQ(tight.excluded, (std::set<std::string>{"rec(int)"})) << tight.text;
  EXPECT_TRUE(tight.counted.empty()) << tight.text;
  EXPECT_TRUE(tight.shows("#   4000         0.060      42.5       0.0001      rec(int) (left out)\n"));
}

// A region whose own work per visit is at least 10 pairs is a kernel: the
// budget keeps it timed (its pair is under a tenth of its time) and spends
// itself on the rest. With leaf_heavy doing 200 ns of its own per visit (210
// measured, 10 of it its pair's inside part) the regions kept timed cost
// 7.1 % of the run, 5000 x 20 ns of it leaf_heavy's; without those the rest
// (work, fragile: 40 us) is within 3 %, so nothing is counted or left out
// beyond the rule's dot. At 199 ns of own work it is no kernel: counted
// after fragile (least own work first; work holds the trunk, last), which
// brings the run to 2.5 %.
TEST(SuggestFilterNumbers, OverTheBudgetAKernelOfTenPairsOwnWorkStaysTimed) {
  TempDir d;
  const Suggestion s = suggest(pathtracer_like(0, "20.00", "10.00", 210), d, "calls>100");
  EXPECT_EQ(s.excluded, (std::set<std::string>{"dot(int)"})) << s.text;
  EXPECT_TRUE(s.counted.empty()) << s.text;
  EXPECT_TRUE(s.shows("# budget: the regions kept timed cost 7.1% of the run (budget 3%)\n"
                      "# over the budget, kept timed: regions whose own work per visit is at least 10 pairs"));
  const Suggestion below = suggest(pathtracer_like(0, "20.00", "10.00", 209), d, "calls>100");
  EXPECT_EQ(below.counted, (std::set<std::string>{"fragile(int)", "leaf_heavy(int)"})) << below.text;
  EXPECT_TRUE(below.shows("over the 3% budget: 2 counted instead of timed, 0 left out; now 2.5%\n"));
  EXPECT_EQ(below.text.find("# over the budget, kept timed"), std::string::npos) << below.text;
}

TEST(SuggestFilterNumbers, ABudgetThatIsNoPercentageIsRefusedNamingIt) {
  TempDir d;
  write_cubex(trunk_like(0), d.file("p.cubex"));
  for (const char *bad : {"budget<0", "budget>3", "budget<101", "budget<x"}) {
    const ReportResult r = run_capturing(quote(HCC_REPORT_EXE) + " --suggest-filter --rule '" + bad + "' " +
                                             quote(d.file("p.cubex")) + " 2>" + quote(d.file("err")),
                                         d.file("err"));
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("budget"), std::string::npos) << bad << ": " << r.err;
  }
}

// A count the run stopped (HCC_COUNT_STOP, cube/profile.hpp's description):
// its visits are a lower bound and its time per call, 5 us over them, an
// upper one, so the rule cannot judge it; counting it cost more than 2% of
// the run, so it is left out whatever the rule says, and the plan says why.
// Its saving is what its visits cost the run: 5000 timed pairs of 20 ns (no
// hcc.throttled_calls: every visit priced at the pair), not its own work.
TEST(PlanNumbers, ARegionWhoseCountStoppedIsLeftOutAndSaysWhy) {
  TempDir d;
  Profile p = pathtracer_like(0, "20.00", "10.00", 5000);
  p.regions[kLeafHeavy].descr = kCountStoppedRegionDescr;
  write_cubex(p, d.file("a.cubex"));
  const ReportResult r = plan_of({d.file("a.cubex")}, d);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("# left out leaf_heavy(int): its count stopped (counting cost more than 2% of the run) after "
                       "5000 calls in " + d.file("a.cubex") + ", at most 5e+03 ns per call (time from samples); "
                       "measuring those cost about 0.0001 s\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  EXCLUDE MANGLED _Zleaf_heavy(int)\n"), std::string::npos) << r.out;
  // Without the stop, 5 us a call is work: kept.
  p.regions[kLeafHeavy].descr = kThrottledRegionDescr;
  write_cubex(p, d.file("b.cubex"));
  const ReportResult kept = plan_of({d.file("b.cubex")}, d);
  ASSERT_EQ(kept.status, 0) << kept.err;
  EXPECT_EQ(kept.out.find("EXCLUDE MANGLED _Zleaf_heavy(int)"), std::string::npos) << kept.out;
}

// The pair as the run paid it: leaf_heavy's call path holds 0.5 ms of
// measurement_cpu over its 5000 visits (100 ns a visit, five times the 20 ns
// timed at exit, as among cache misses) at 10 kHz sampling (5 samples'
// worth, above the 4 needed). Priced so, its 9 ns of own work is no longer
// above half a pair: left out, and the line says where the price came from.
// At 100 Hz the same 0.5 ms is under one sample: the timed pair prices it
// and it is kept, as without the metric.
TEST(PlanNumbers, ThePairAsTheRunPaidItPricesARegionWhenEnoughSamplesSaySo) {
  TempDir d;
  auto with_measurement = [](const char *sampling) {
    Profile p = pathtracer_like(0);
    p.attrs.push_back({"hcc.sampling", sampling});
    p.metrics.push_back(metric("measurement_cpu", "sec", DType::Double, CubeType::Exclusive));
    p.excl.push_back(std::vector<double>(p.cnodes.size(), 0.0));
    p.at(2, 5, 0) = 5000 * 100 * kNs;  // leaf_heavy's call path
    return p;
  };
  write_cubex(with_measurement("10000 Hz of each thread's CPU time"), d.file("a.cubex"));
  const ReportResult r = plan_of({d.file("a.cubex")}, d);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("# left out leaf_heavy(int): 19 ns per call over 5000 calls in " + d.file("a.cubex") +
                       "; measuring it costs 100 ns per call (100 ns a call in the run's measurement_cpu), own work"
                       " 9 ns;"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  EXCLUDE MANGLED _Zleaf_heavy(int)\n"), std::string::npos) << r.out;
  write_cubex(with_measurement("100 Hz of each thread's CPU time"), d.file("b.cubex"));
  const ReportResult kept = plan_of({d.file("b.cubex")}, d);
  ASSERT_EQ(kept.status, 0) << kept.err;
  EXPECT_EQ(kept.out.find("EXCLUDE MANGLED _Zleaf_heavy(int)"), std::string::npos) << kept.out;
  EXPECT_EQ(kept.out.find("measurement_cpu)"), std::string::npos) << kept.out;
}

// A sample in the enter hook before the push (or the exit's after the pop)
// lands on the caller's call path: main's measurement_cpu, 20 ns for each of
// its own and its children's 7001 visits, is split in proportion to them.
// leaf_heavy's 5000 visits take 0.1 ms of it (10 samples' worth at 100 kHz):
// 20 ns a call, the timed pair's price, so it stays kept and says so; work's
// and fragile's 1000 each take 0.02 ms, under the 4 samples needed: their
// lines show no in-run price.
TEST(PlanNumbers, AParentsMeasurementIsSplitOverItsChildrensVisits) {
  TempDir d;
  Profile p = pathtracer_like(0);
  p.attrs.push_back({"hcc.sampling", "100000 Hz of each thread's CPU time"});
  p.metrics.push_back(metric("measurement_cpu", "sec", DType::Double, CubeType::Exclusive));
  p.excl.push_back(std::vector<double>(p.cnodes.size(), 0.0));
  p.at(2, 0, 0) = 7001 * 20 * kNs;  // main's call path
  write_cubex(p, d.file("a.cubex"));
  const ReportResult r = plan_of({d.file("a.cubex")}, d);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("# kept leaf_heavy(int): its own work, 9 ns per call over 5000 calls in " + d.file("a.cubex") +
                       ", is above 0.5 x the 20 ns pair (20 ns a call in the run's measurement_cpu) (or within"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("# kept work(int): its own work, 30 ns per call over 1000 calls in " + d.file("a.cubex") +
                       ", is above 0.5 x the 20 ns pair (or within"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("# kept fragile(int): its own work, 5 ns per call over 1000 calls in " + d.file("a.cubex") +
                       ", is above 0.5 x the 20 ns pair (or within"),
            std::string::npos)
      << r.out;
}
