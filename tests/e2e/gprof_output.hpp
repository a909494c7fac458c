// Reads the text GNU gprof prints (`gprof -b`), and hcc-report --gprof,
// which uses the same layout: the flat profile's self seconds and calls per
// function, and per call-graph entry the `called` column of the function and
// of each caller and callee line ("20/21", "1+9", "9").
#pragma once

#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace hcc::e2e {

struct GprofEntry {
  std::string called;                          // primary line: "20", "1+9", "" (spontaneous)
  std::map<std::string, std::string> callers;  // caller name -> "20/21" (a recursive line: "9")
  std::map<std::string, std::string> callees;
  bool spontaneous = false;
};

struct GprofOutput {
  std::map<std::string, double> self_seconds;  // flat profile
  std::map<std::string, std::string> calls;    // flat profile's calls column ("" when blank)
  std::map<std::string, GprofEntry> graph;     // by function name (C++ arguments cut off)
};

// "foo" for "foo(int)" and for a cycle member's "foo <cycle 1>".
inline std::string gprof_name(std::string n) {
  size_t cycle = n.find(" <cycle ");
  if (cycle != std::string::npos && cycle > 0) n = n.substr(0, cycle);
  size_t paren = n.find('(');
  return paren == std::string::npos ? n : n.substr(0, paren);
}

inline GprofOutput parse_gprof(const std::string &text) {
  GprofOutput out;
  std::istringstream in(text);
  std::string line;
  enum { None, Flat, Graph } section = None;
  GprofEntry block;
  std::string primary;
  std::vector<std::pair<std::string, std::string>> before;  // lines above the primary line
  const std::regex number(R"([0-9.]+([/+][0-9]+)?)"), count(R"([0-9]+([/+][0-9]+)?)"), index(R"(\[[0-9]+\])");
  auto finish = [&]() {
    if (!primary.empty()) {
      for (auto &[n, c] : before) block.callers[n] = c;
      out.graph[primary] = block;
    }
    block = GprofEntry{};
    primary.clear();
    before.clear();
  };
  while (std::getline(in, line)) {
    if (line.find(" time   seconds   seconds") == 0) {
      section = Flat;
      continue;
    }
    if (line.find("index % time") == 0) {
      section = Graph;
      continue;
    }
    if (!line.empty() && line[0] == '\f') {
      if (section == Graph) finish();
      section = None;
      continue;
    }
    std::istringstream ls(line);
    std::vector<std::string> t;
    for (std::string w; ls >> w;) {
      // hcc-report --gprof marks a time from samples `~0.12` (text_views/marks.hpp).
      if (w.size() > 1 && w[0] == '~' && std::regex_match(w.substr(1), number)) w.erase(0, 1);
      t.push_back(w);
    }
    if (t.empty()) continue;
    if (section == Flat) {
      // %time cumulative self [calls self/call total/call] name
      if (t.size() < 4 || !std::regex_match(t[0], number)) continue;
      std::string name;
      size_t k = 3;
      std::string calls;
      if (t.size() >= 7 && std::regex_match(t[3], count)) {
        calls = t[3];
        k = 6;
      }
      for (size_t i = k; i < t.size(); ++i) name += (i > k ? " " : "") + t[i];
      out.self_seconds[gprof_name(name)] = std::stod(t[2]);
      out.calls[gprof_name(name)] = calls;
    } else if (section == Graph) {
      if (t[0].rfind("-----", 0) == 0) {
        finish();
        continue;
      }
      if (t[0] == "<spontaneous>") {
        block.spontaneous = true;
        continue;
      }
      if (!std::regex_match(t.back(), index)) continue;
      size_t i = 0;
      const bool is_primary = std::regex_match(t[0], index);
      if (is_primary) i = 1;
      std::string called;
      for (; i + 1 < t.size() && std::regex_match(t[i], number); ++i) called = std::regex_match(t[i], count) ? t[i] : "";
      std::string name;
      for (size_t k = i; k + 1 < t.size(); ++k) name += (k > i ? " " : "") + t[k];
      name = gprof_name(name);
      if (is_primary) {
        primary = name;
        block.called = called;
      } else if (primary.empty()) {
        before.emplace_back(name, called);
      } else {
        block.callees[name] = called;
      }
    }
  }
  finish();
  return out;
}

}  // namespace hcc::e2e
