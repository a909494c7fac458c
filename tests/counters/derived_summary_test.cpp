// The summary derives IPC, MFLOP/s and miss ratios from counters when their
// inputs are in the profile (hardware counters are not available on the test
// machines, so the profile is made by hand).
#include <gtest/gtest.h>

#include "summary.hpp"

namespace hcc::profile {
namespace {

Metric counter(const std::string &name) {
  Metric m;
  m.uniq_name = m.disp_name = name;
  m.uom = "#";
  m.dtype = DType::UInt64;
  m.cube_type = CubeType::Inclusive;
  return m;
}

// main (2 s excl) → kernel (1 s excl); values per call path, exclusive.
Profile make(const std::vector<std::string> &counters, const std::vector<std::vector<double>> &values) {
  Profile p;
  Metric time;
  time.uniq_name = "time";
  time.uom = "sec";
  time.cube_type = CubeType::Inclusive;
  Metric visits;
  visits.uniq_name = "visits";
  visits.dtype = DType::UInt64;
  p.metrics = {time, visits};
  for (const auto &c : counters) p.metrics.push_back(counter(c));
  p.regions = {Region{"main"}, Region{"kernel"}};
  p.cnodes = {{0, -1}, {1, 0}};
  p.locations = {{"thread 0", 0, 0}};
  p.excl = {{2.0, 1.0}, {1, 1}};
  for (const auto &v : values) p.excl.push_back(v);
  return p;
}

TEST(DerivedMetrics, IpcMflopsAndMissRatioFromTheirInputs) {
  const Profile p = make({"PAPI_TOT_INS", "PAPI_TOT_CYC", "PAPI_FP_OPS", "PAPI_L1_DCM", "PAPI_L1_DCA"},
                         {{1000, 3000}, {1000, 1000}, {0, 5e6}, {10, 50}, {1000, 500}});
  const std::string s = summary_text(p);
  ASSERT_NE(s.find("DERIVED METRICS"), std::string::npos) << s;
  EXPECT_NE(s.find("IPC = PAPI_TOT_INS / PAPI_TOT_CYC"), std::string::npos) << s;
  // kernel: IPC 3, 5 MFLOP/s, L1 miss ratio 0.1; main: IPC 1, 0 MFLOP/s, 0.01.
  // whole program (inclusive): IPC 4000/2000 = 2, 5e6 flop / 3 s, 60/1500.
  auto row = [&](const std::string &name) {
    const auto end = s.find("  " + name + "\n", s.find("DERIVED METRICS"));
    EXPECT_NE(end, std::string::npos) << name << "\n" << s;
    const auto begin = s.rfind('\n', end);
    return s.substr(begin + 1, end - begin - 1);
  };
  EXPECT_EQ(row("kernel"), "  3        5            0.1") << s;
  EXPECT_EQ(row("main"), "  1        0           0.01") << s;
  EXPECT_EQ(row("(whole program, inclusive)"), "  2    1.667           0.04") << s;
}

TEST(DerivedMetrics, NothingWithoutBothInputs) {
  const Profile p = make({"PAPI_TOT_INS", "perf::PAGE-FAULTS"}, {{1000, 3000}, {3, 25600}});
  EXPECT_EQ(summary_text(p).find("DERIVED METRICS"), std::string::npos);
}

}  // namespace
}  // namespace hcc::profile
