// hcc runtime — the test interface (see testing.hpp).
#include "testing.hpp"

#include "clock.hpp"
#include "env.hpp"
#include "lifecycle.hpp"
#include "metrics.hpp"
#include "output.hpp"
#include "profile_builder.hpp"
#include "adopt.hpp"
#include "thread_state.hpp"

namespace hcc::rt::testing {

profile::Profile build_profile_now() { return build_local_profile(); }

void claim_team_thread(int k) { hcc::rt::claim_team_thread(hcc::rt::current_thread_state(), k); }

std::string write_profile_now() { return write_profile(build_local_profile()); }

// The overrides below initialise the runtime first, so that its start-up
// (which reads the environment) does not undo them later.
void set_output_dir(const std::string &dir) {
  runtime_init_once();
  use_output_dir(dir);
}

void set_max_depth_for_new_threads(uint32_t n) {
  runtime_init_once();
  rt::set_max_depth_for_new_threads(n);
}

uint32_t open_frames() { return t_state ? t_state->depth : 0; }
uint32_t open_below_cut() { return t_state ? t_state->overflow : 0; }
bool recursion_mode() { return t_state && t_state->fold_base != 0; }
uint64_t general_enters() { return t_state ? t_state->general_enters : 0; }
bool fast_path_available() { return t_state && t_state->fast_limit > 0; }

std::string clock_name() {
  runtime_init_once();  // the clock is chosen at start-up
  return rt::clock_name();
}

EnvCheck parse_environment(const std::vector<std::string> &env) {
  std::vector<const char *> envp;
  for (const std::string &e : env) envp.push_back(e.c_str());
  envp.push_back(nullptr);
  EnvResult r = rt::parse_environment(envp.data());
  EnvCheck c;
  c.messages = r.messages;
  c.output_dir = r.settings.output_dir;
  c.verbose = r.settings.verbose;
  c.max_depth = r.settings.max_depth;
  c.signals = r.settings.signals;
  c.clock = r.settings.clock == ClockRequest::Tsc         ? "tsc"
            : r.settings.clock == ClockRequest::Monotonic ? "monotonic"
                                                          : "auto";
  return c;
}

bool add_to_extra_counter(uint32_t k, uint64_t v) {
  ThreadState *ts = t_state;
  if (!ts || ts->depth == 0 || k >= ts->cct.n_extra) return false;
  ts->stack[ts->depth].node->extra()[k] += v;
  return true;
}

int register_extra_metric(const std::string &name, bool inclusive_counts) {
  ExtraMetric m;
  m.def.uniq_name = name;
  m.def.disp_name = name;
  m.def.uom = "#";
  m.def.descr = "test counter";
  m.def.dtype = profile::DType::UInt64;
  m.def.cube_type = profile::CubeType::Exclusive;
  m.inclusive_counts = inclusive_counts;
  return rt::register_extra_metric(m);
}

}  // namespace hcc::rt::testing
