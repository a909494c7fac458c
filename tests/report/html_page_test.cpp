// hcc-report --html and --folded on profiles made in the test (no browser):
// names that look like markup stay data, frame separators are replaced, the
// page names its data, and the page refers to nothing outside itself.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cubex.hpp"
#include "report_run.hpp"
#include "test_util.hpp"

using namespace hcc_test;

namespace {

std::pair<int, std::string> report(const std::string &args) {
  const std::string cmd = quote(HCC_REPORT_EXE) + " " + args + " 2>&1";
  std::string out;
  FILE *f = ::popen(cmd.c_str(), "r");
  if (!f) return {-1, ""};
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const int st = ::pclose(f);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

std::size_t count(const std::string &s, const std::string &what) {
  std::size_t n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

TEST(HtmlPage, MarkupInRegionNamesStaysInsideTheData) {
  TempDir d;
  auto p = sample_profile();
  p.regions[1].name = "</script><script>alert(1)</script><!--";
  p.attrs.push_back({"program", "a<b>&c"});
  write_cubex(p, d.file("profile.cubex"));
  const auto [status, page] = report("--html " + quote(d.file("profile.cubex")));
  ASSERT_EQ(status, 0) << page;
  // The page's own two script elements end; nothing in the data ends one.
  EXPECT_EQ(count(page, "</script>"), 2u);
  EXPECT_EQ(count(page, "<script"), 2u);
  EXPECT_EQ(page.find("<!--"), std::string::npos);
  EXPECT_NE(page.find("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)"), std::string::npos);
  // The data element holds the documented object.
  const std::string open = "<script type=\"application/json\" id=\"hcc-data\">";
  const auto b = page.find(open) + open.size();
  const auto data = nlohmann::json::parse(page.substr(b, page.find("</script>", b) - b));
  EXPECT_EQ(data["profile"]["version"], 1);
  EXPECT_EQ(data["profile"]["regions"][1]["name"], "</script><script>alert(1)</script><!--");
  EXPECT_EQ(data["program"], "app");  // the first "program" attribute
  EXPECT_DOUBLE_EQ(data["total_time"].get<double>(), 165.0);  // main's inclusive 15 + 150 s
  for (const char *net : {"http:", "https:", "//cdn", "src=", "<link", "url("})
    EXPECT_EQ(page.find(net), std::string::npos) << net;
}

TEST(FoldedPage, SeparatorsInNamesAreReplacedAndTimeIsMicroseconds) {
  TempDir d;
  auto p = sample_profile();
  p.regions[1].name = "operator;(a;b)";
  write_cubex(p, d.file("profile.cubex"));
  const auto [status, out] = report("--folded " + quote(d.file("profile.cubex")));
  ASSERT_EQ(status, 0) << out;
  // Exclusive time summed over both locations: main 1+10 s, foo 2+20, bar 4+40, baz 8+80.
  EXPECT_EQ(out,
            "main 11000000\n"
            "main;operator,(a,b) 22000000\n"
            "main;operator,(a,b);bar 44000000\n"
            "main;baz 88000000\n");
  EXPECT_EQ(report("--folded --location 0 --metric visits " + quote(d.file("profile.cubex"))).second,
            "main 1\nmain;operator,(a,b) 10\nmain;operator,(a,b);bar 100\nmain;baz 1000\n");
}
