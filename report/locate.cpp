// hcc-report — resolves PATH (file, run directory, or the newest hcc-* run).
#include "locate.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <vector>
#include <stdexcept>
#include <system_error>

#include "cube/cubex.hpp"

namespace fs = std::filesystem;

namespace hcc::report {
namespace {

// --- An MPI job's own per-rank profiles -----------------------------------
// A job that did not reach MPI_Finalize together (a rank killed, MPI_Abort,
// exit without it) leaves no merged profile.cubex but one
// profile.rank-<r>.cubex per rank that still got to write, each naming its
// rank, the job's size and the job ("mpi rank", "mpi ranks", "mpi job":
// wrappers/src/mpi_finalize.cpp). The ranks of 0..size-1 without one are the
// ones the engineer must know are missing from what hcc-report shows.

struct RankFile {
  fs::path path;
  int rank = 0;
  std::string suffix;  // "-1" in profile-1.rank-3.cubex: another run's, or a rank that came second
  fs::file_time_type time{};
};

// profile.rank-3.cubex, profile-1.rank-3.cubex (a second run into the directory).
bool parse_rank_file(const fs::path &p, RankFile &f) {
  static const std::regex name("profile(-[0-9]+)?\\.rank-([0-9]{1,9})\\.cubex");
  std::smatch m;
  const std::string base = p.filename().string();
  if (!std::regex_match(base, m, name)) return false;
  f.path = p;
  f.suffix = m[1].str();
  f.rank = std::stoi(m[2].str());
  return true;
}

std::vector<RankFile> rank_files_in(const fs::path &dir) {
  std::vector<RankFile> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    RankFile f;
    std::error_code type_ec;
    if (!parse_rank_file(it->path(), f) || !it->is_regular_file(type_ec)) continue;
    f.time = fs::last_write_time(it->path(), type_ec);
    if (!type_ec) files.push_back(std::move(f));
  }
  return files;
}

struct JobId {
  bool read = false;  // the file could be read
  std::string job;    // "mpi job"; "" from an hcc before it
  int size = -1;      // "mpi ranks"; -1 unknown
};

JobId job_of(const fs::path &file) {
  JobId id;
  try {
    const hcc::profile::Profile p = hcc::profile::read_cubex(file.string());
    id.read = true;
    for (const auto &[k, v] : p.attrs) {
      if (k == "mpi job") id.job = v;
      if (k == "mpi ranks") {
        try {
          const long n = std::stol(v);
          if (n > 0 && n <= 100000000) id.size = int(n);
        } catch (const std::exception &) {
        }
      }
    }
  } catch (const std::exception &) {
  }
  return id;
}

// "2", "2, 5-9 and 12": a job of 100 000 ranks may miss many.
std::string rank_list(const std::vector<int> &ranks) {
  std::vector<std::string> parts;
  for (size_t b = 0; b < ranks.size();) {
    size_t e = b;
    while (e + 1 < ranks.size() && ranks[e + 1] == ranks[e] + 1) ++e;
    parts.push_back(e == b ? std::to_string(ranks[b]) : std::to_string(ranks[b]) + "-" + std::to_string(ranks[e]));
    b = e + 1;
  }
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return out;
}

struct Job {
  JobId id;
  std::map<int, fs::path> members;  // rank → its file of this job
  std::vector<int> missing;         // of 0..size-1 (size known)
};

// The job `seed` belongs to, among the per-rank files `all` of its directory.
// One job's files have one suffix and one file per rank; then the seed and
// the oldest file agreeing is enough (a job of 100 000 ranks is not read
// 100 000 times for a note). Otherwise several runs wrote into the
// directory and each file's job is read.
Job job_around(const RankFile &seed, const std::vector<RankFile> &all) {
  Job job;
  job.id = job_of(seed.path);
  std::set<int> ranks;
  bool one_run = true;
  const RankFile *oldest = &seed;
  for (const RankFile &f : all) {
    one_run = one_run && f.suffix == seed.suffix && ranks.insert(f.rank).second;
    if (f.time < oldest->time) oldest = &f;
  }
  // All files are of seed's directory: a file name names a file.
  const auto is_seed = [&](const RankFile &f) { return f.path.filename() == seed.path.filename(); };
  if (one_run && !is_seed(*oldest)) one_run = job_of(oldest->path).job == job.id.job;
  for (const RankFile &f : all) {
    if (is_seed(f) || one_run || (!job.id.job.empty() && job_of(f.path).job == job.id.job))
      job.members.emplace(f.rank, f.path);
  }
  job.members.emplace(seed.rank, seed.path);  // the seed's own, should another claim its rank
  for (int r = 0; r < job.id.size; ++r)
    if (!job.members.count(r)) job.missing.push_back(r);
  return job;
}

// What the job's files say about its ranks, for the note.
std::string ranks_note(const Job &job) {
  const int n = job.id.size;
  if (n < 0) {
    std::vector<int> present;
    for (const auto &m : job.members) present.push_back(m.first);
    return "rank" + std::string(present.size() == 1 ? " " : "s ") + rank_list(present) + " wrote one (the job's size is " +
           (job.id.read ? "not in the file: written by an older hcc)" : "unknown: the newest file cannot be read)");
  }
  if (job.missing.empty()) return "all " + std::to_string(n) + " ranks wrote one";
  return "no profile from rank" + std::string(job.missing.size() == 1 ? " " : "s ") + rank_list(job.missing) + " (" +
         std::to_string(job.missing.size()) + " of " + std::to_string(n) + " ranks: killed, or ended before writing)";
}

// The directory's newest per-rank job: its lowest rank's profile is read.
std::string rank_profile_in(const fs::path &dir, const std::vector<RankFile> &all, std::string *note) {
  const RankFile *newest = &all.front();
  for (const RankFile &f : all)
    if (f.time > newest->time || (f.time == newest->time && f.rank < newest->rank)) newest = &f;
  const Job job = job_around(*newest, all);
  const auto &[rank, path] = *job.members.begin();
  if (note)
    *note = "hcc-report: " + dir.string() + " holds no merged profile.cubex: the MPI job" +
            (job.id.size > 0 ? " of " + std::to_string(job.id.size) + " ranks" : std::string()) +
            " did not reach MPI_Finalize together, so its ranks wrote their own profile.rank-<r>.cubex; " +
            ranks_note(job) +
            ". Reading rank " + std::to_string(rank) + "'s, " + path.filename().string() +
            " (name a .cubex file to read another rank)";
  return path.string();
}

// The runtime never overwrites an earlier run's profile: a second run into
// the same HCC_OUTPUT_DIR writes profile-1.cubex, then profile-2.cubex …
// The newest of them is the run the user just made; an MPI job's own
// per-rank profiles newer than it are.
std::string profile_in(const fs::path &dir, std::string *note) {
  static const std::regex name("profile(-[0-9]+)?\\.cubex");
  std::error_code ec;
  fs::path newest;
  fs::file_time_type newest_time{};
  long newest_n = -1;
  int count = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string base = it->path().filename().string();
    std::smatch m;
    if (!std::regex_match(base, m, name) || !it->is_regular_file(ec)) continue;
    const auto t = fs::last_write_time(it->path(), ec);
    if (ec) continue;
    const long n = m[1].matched ? std::stol(m[1].str().substr(1)) : 0;
    ++count;
    if (newest.empty() || t > newest_time || (t == newest_time && n > newest_n)) {
      newest = it->path();
      newest_time = t;
      newest_n = n;
    }
  }
  const std::vector<RankFile> ranks = rank_files_in(dir);
  const bool ranks_newer = std::any_of(ranks.begin(), ranks.end(), [&](const RankFile &f) { return f.time > newest_time; });
  if (!ranks.empty() && (newest.empty() || ranks_newer)) return rank_profile_in(dir, ranks, note);
  if (newest.empty()) throw std::runtime_error("directory " + dir.string() + " contains no profile.cubex");
  if (count > 1 && note)
    *note = "hcc-report: " + dir.string() + " holds " + std::to_string(count) +
            " profiles (one per run); reading the newest, " + newest.filename().string() +
            " (name a .cubex file to read another)";
  return newest.string();
}

// A per-rank profile named itself: which ranks of its job left none.
void note_rank_file(const std::string &arg, std::string *note) {
  RankFile seed;
  std::error_code ec;
  if (!note || !parse_rank_file(fs::path(arg), seed) || !fs::is_regular_file(arg, ec)) return;
  seed.time = fs::last_write_time(seed.path, ec);
  fs::path dir = seed.path.parent_path();
  if (dir.empty()) dir = ".";
  const Job job = job_around(seed, rank_files_in(dir));
  if (!job.id.read) return;  // read_cubex will say why
  *note = "hcc-report: " + seed.path.filename().string() + " is rank " + std::to_string(seed.rank) +
          "'s own profile of an MPI job" +
          (job.id.size > 0 ? " of " + std::to_string(job.id.size) + " ranks" : std::string()) +
          " that did not reach MPI_Finalize together; " + ranks_note(job);
}

// The anchor of the run's trace in `dir`. Whatever stands at traces.otf2 is
// taken, so that the archive's check (views/trace_archive.hpp) names it when
// it is not a regular file; the scan for a rank's own archive takes regular
// files only (it took a FIFO named traces.otf2, which OTF2 then waited on).
std::string trace_in(const fs::path &dir) {
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir / "traces.otf2", ec))) return (dir / "traces.otf2").string();
  std::vector<std::string> tagged;  // traces.rank-3.otf2: a rank that wrote alone
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (name.rfind("traces.", 0) == 0 && name.size() > 5 && name.compare(name.size() - 5, 5, ".otf2") == 0 &&
        fs::is_regular_file(it->symlink_status(type_ec)))
      tagged.push_back(it->path().string());
  }
  if (tagged.size() == 1) return tagged.front();
  if (tagged.empty())
    throw std::runtime_error("directory " + dir.string() + " contains no traces.otf2 (run the program with HCC_TRACE=1)");
  std::sort(tagged.begin(), tagged.end());
  std::string list;
  for (const std::string &t : tagged) list += " " + t;
  throw std::runtime_error("directory " + dir.string() + " holds several traces; name one:" + list);
}

// The runtime writes each run into its own hcc-<...> directory; the newest
// one is almost always the run the user just made.
fs::path newest_run(const std::string &cwd) {
  std::error_code ec;
  fs::path newest;
  fs::file_time_type newest_time{};
  for (fs::directory_iterator it(cwd, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("hcc-", 0) != 0 || !it->is_directory(ec)) continue;
    const auto t = fs::last_write_time(it->path(), ec);
    if (ec) continue;
    if (newest.empty() || t > newest_time) {
      newest = it->path();
      newest_time = t;
    }
  }
  if (newest.empty())
    throw std::runtime_error("no PATH given and no hcc-* directory in " + fs::absolute(cwd, ec).string());
  return newest;
}

}  // namespace

std::string locate_trace(const std::string &arg, const std::string &cwd) {
  std::error_code ec;
  if (!arg.empty()) {
    if (fs::is_directory(arg, ec)) return trace_in(arg);
    // Anything else that is there is the archive check's to judge (a FIFO,
    // a link to a device), before OTF2 opens it.
    if (!fs::exists(fs::symlink_status(arg, ec))) throw std::runtime_error("no such trace: " + arg);
    return arg;
  }
  return trace_in(newest_run(cwd));
}

std::string locate_profile(const std::string &arg, const std::string &cwd, std::string *note) {
  std::error_code ec;
  if (!arg.empty()) {
    if (fs::is_directory(arg, ec)) return profile_in(arg, note);
    note_rank_file(arg, note);
    return arg;  // read_cubex reports a missing or malformed file precisely
  }
  return profile_in(newest_run(cwd), note);
}

}  // namespace hcc::report
