// hcc runtime — dispatch to per-event services (see event_services.hpp).
#include "event_services.hpp"

#include "clock.hpp"

namespace hcc::rt {

bool g_fast_events = false;

namespace {
constexpr int kMaxServices = 8;
const EventService *g_services[kMaxServices];
int g_count = 0;
bool g_per_event = false;  // some service wants enter()/exit()
}  // namespace

void register_event_service(const EventService *s) {
  if (g_count < kMaxServices) g_services[g_count++] = s;
}

void services_init() {
  for (int i = 0; i < g_count; ++i)
    if (g_services[i]->init && g_services[i]->init()) g_per_event = true;
  g_fast_events = g_clock_is_tsc && !g_per_event;
}

void services_thread_start(ThreadState *ts) {
  for (int i = 0; i < g_count; ++i)
    if (g_services[i]->thread_start) g_services[i]->thread_start(ts);
}

void services_enter(ThreadState *ts) {
  if (!g_per_event) return;
  for (int i = 0; i < g_count; ++i)
    if (g_services[i]->enter) g_services[i]->enter(ts);
}

void services_exit(ThreadState *ts, uint32_t target, uint64_t t) {
  if (!g_per_event) return;
  for (int i = 0; i < g_count; ++i)
    if (g_services[i]->exit) g_services[i]->exit(ts, target, t);
}

void services_thread_end(ThreadState *ts) {
  for (int i = 0; i < g_count; ++i)
    if (g_services[i]->thread_end) g_services[i]->thread_end(ts);
}

void services_before_build() {
  for (int i = 0; i < g_count; ++i)
    if (g_services[i]->before_build) g_services[i]->before_build();
}

}  // namespace hcc::rt
