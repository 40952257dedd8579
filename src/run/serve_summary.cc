#include "run/serve_summary.h"

#include <set>

#include "oracle/crash.h"

namespace roam::run {

report::Summary SummariseServedDevices(serve::SimAdbServer& server, const std::string& app_path,
                                       const std::string& package, uint64_t seed,
                                       double wall_seconds, const std::string& stop_reason) {
  report::Summary s;
  s.app = app_path;
  s.package = package;
  auto serials = server.Serials();
  s.device = "sim-serve:";
  for (size_t k = 0; k < serials.size(); ++k) s.device += (k ? "," : "") + serials[k];
  s.strategy = "external";  // whatever adb client drives the server
  s.seed = seed;
  s.wall_seconds = wall_seconds;
  s.stop_reason = stop_reason;
  oracle::CrashOracle crashes(package);
  std::set<std::string> activities, units;
  int64_t events_before = 0;
  for (const auto& serial : serials) {
    auto st = server.Device(serial)->Stats();
    s.activities_total = st.activities_total;
    s.units_total = st.units_total;
    for (const auto& a : st.activities)
      if (activities.insert(a).second) s.activities_covered.push_back(a);
    units.insert(st.covered_units.begin(), st.covered_units.end());
    for (const auto& [step, event] : st.faults) crashes.Observe(event, events_before + step);
    s.relaunches += static_cast<size_t>(st.launches);
    events_before += st.input_events;
  }
  s.events = events_before;
  // Device-side process starts, by command and in all, and per input event received.
  nlohmann::json starts = nlohmann::json::object();
  nlohmann::json shown = nlohmann::json::object(), closed = nlohmann::json::object();
  auto add = [](nlohmann::json& to, const std::string& name, int64_t n) {
    to[name] = to.value(name, int64_t{0}) + n;
  };
  int64_t total = 0, unsettled_reads = 0, acted_on_unsettled = 0, uia2_left = 0;
  for (const auto& serial : serials) {
    const auto stats = server.Device(serial)->Stats();
    uia2_left += server.Device(serial)->Uia2Running() ? 1 : 0;
    unsettled_reads += stats.unsettled_reads;
    acted_on_unsettled += stats.acted_on_unsettled;
    for (const auto& [name, n] : stats.process_starts) {
      add(starts, name, n);
      total += n;
    }
    for (const auto& [name, n] : stats.dialogs_shown) add(shown, name, n);
    for (const auto& [name, n] : stats.dialogs_closed) add(closed, name, n);
  }
  s.sections["process_starts"] = starts;
  // Devices whose UiAutomator2 server still runs (holding UiAutomation: a dump would fail).
  s.sections["uia2_servers_running"] = uia2_left;
  // Screens that settle (settle_ms in the spec): answers given mid-settling, and actions taken
  // on such an answer (states a client recorded that the app never rests in).
  s.sections["settling"] = {{"unsettled_reads", unsettled_reads},
                            {"acted_on_unsettled", acted_on_unsettled}};
  // --dialogs: the system dialogs shown, by kind, and closed, by kind and how.
  if (!shown.empty()) s.sections["dialogs"] = {{"shown", shown}, {"closed", closed}};
  s.sections["process_starts_per_event"] =
      events_before > 0 ? static_cast<double>(total) / static_cast<double>(events_before) : 0.0;
  s.units_covered = units.size();
  report::AddFindings(crashes.findings(), {}, s);
  return s;
}

}  // namespace roam::run
