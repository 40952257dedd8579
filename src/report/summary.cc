#include "report/summary.h"

#include <fmt/format.h>

#include "base/files.h"
#include "report/summary_sections.h"

namespace roam::report {

using nlohmann::json;

namespace {

json FailureToJson(const FailureSummary& f) {
  json j = {{"kind", f.kind},       {"signature", f.signature}, {"exception", f.exception},
            {"message", f.message}, {"count", f.count},         {"first_step", f.first_step},
            {"bug_dir", f.bug_dir}, {"known", f.known}};
  j["bug_id"] = f.bug_id.empty() ? json(nullptr) : json(f.bug_id);
  return j;
}

}  // namespace

void AddFindings(const std::vector<oracle::Finding>& findings,
                 const std::vector<std::string>& bug_dirs, Summary& into) {
  for (size_t i = 0; i < findings.size(); ++i) {
    const oracle::Finding& f = findings[i];
    const device::Event& first = *f.report;
    FailureSummary fs{.kind = f.kind,
                      .signature = f.signature,
                      .exception = first.exception,
                      .message = first.message,
                      .count = f.count,
                      .bug_id = f.bug_id,
                      .first_step = f.first_step};
    if (i < bug_dirs.size()) fs.bug_dir = bug_dirs[i];
    (first.kind == device::Event::Kind::kAnr ? into.anrs : into.crashes).push_back(std::move(fs));
  }
}

namespace {

json FunctionalToJson(const FunctionalFinding& f) {
  json j = {{"id", f.id},
            {"activity", f.activity},
            {"violation", f.key},
            {"count", f.count},
            {"first_seed", f.first_seed},
            {"bug_dir", f.bug_dir},
            {"explanation", f.explanation},
            {"known", f.known}};
  j["bug_id"] = f.scored && !f.bug_id.empty() ? json(f.bug_id) : json(nullptr);
  return j;
}

}  // namespace

Result<json> SummaryToJson(const Summary& s) {
  if (!s.sections.is_null() && !s.sections.is_object())
    return Status::InvalidArgument(
        fmt::format("sections: expected an object of sections, got {}", s.sections.type_name()));
  for (const auto& section : s.sections.items())
    if (!IsSummarySection(section.key()))
      return Status::InvalidArgument(
          fmt::format("section \"{}\"{} is not in report/summary_sections.h's table", section.key(),
                      DidYouMean(section.key(), SummarySectionNames())));
  json j;
  j["app"] = s.app;
  j["package"] = s.package;
  j["device"] = s.device;
  j["strategy"] = s.strategy;
  j["seed"] = s.seed;
  j["events"] = s.events;
  j["wall_seconds"] = s.wall_seconds;
  if (s.phone_seconds) j["phone_seconds"] = *s.phone_seconds;
  j["events_per_second"] = EventsPerSecond(s);
  j["stop_reason"] = s.stop_reason;
  j["activities_total"] = s.activities_total ? json(*s.activities_total) : json(nullptr);
  j["activities_covered"] = s.activities_covered;
  if (!s.activities_declared.empty()) j["activities_declared"] = s.activities_declared;
  j["units_total"] = s.units_total ? json(*s.units_total) : json(nullptr);
  j["units_covered"] = s.units_covered ? json(*s.units_covered) : json(nullptr);
  j["states"] = s.states;
  j["relaunches"] = s.relaunches;
  j["refused"] = s.refused;
  if (const auto& c = s.coverage_link)
    j["coverage_link"] = {{"source", c->source},         {"working", c->working},
                          {"dumps", c->dumps},           {"failed", c->failed},
                          {"last_error", c->last_error}, {"classes", c->classes},
                          {"probes", c->probes}};
  if (s.code_coverage) j["code_coverage"] = CountersToJson(*s.code_coverage);
  if (!s.device_life.empty())
    j["device_life"] = {{"away", s.device_life.away},
                        {"away_seconds", s.device_life.away_seconds},
                        {"driver_restarts", s.device_life.driver_restarts},
                        {"driver_retries", s.device_life.driver_retries},
                        {"system_screens", s.device_life.system_screens}};
  j["snapshots"] = s.snapshots;
  j["restores"] = s.restores;
  j["failed_restores"] = s.failed_restores;
  j["restore_events"] = s.restore_events;
  j["crashes"] = json::array();
  for (const auto& c : s.crashes) j["crashes"].push_back(FailureToJson(c));
  j["anrs"] = json::array();
  for (const auto& a : s.anrs) j["anrs"].push_back(FailureToJson(a));
  const StepTiming& t = s.timing;
  auto phase = [&](double seconds) {
    return json{{"seconds", seconds},
                {"mean_ms", t.steps > 0 ? seconds * 1000.0 / static_cast<double>(t.steps) : 0.0}};
  };
  j["timing"] = {{"steps", t.steps},          {"observe", phase(t.observe)},
                 {"decide", phase(t.decide)}, {"act", phase(t.act)},
                 {"events", phase(t.events)}, {"launch", phase(t.launch)},
                 {"aside", phase(t.aside)}};
  j["bugs"] = json::array();
  for (const auto* list : {&s.crashes, &s.anrs})
    for (const auto& f : *list)
      if (!f.bug_dir.empty())
        j["bugs"].push_back({{"dir", f.bug_dir},
                             {"kind", f.kind},
                             {"signature", f.signature},
                             {"bug_id", f.bug_id.empty() ? json(nullptr) : json(f.bug_id)}});
  if (s.functional) {
    j["functional"] = json::array();
    for (const auto& f : *s.functional) j["functional"].push_back(FunctionalToJson(f));
  }
  if (s.sections.is_object()) j.update(s.sections);
  return j;
}

Status WriteSummary(const std::filesystem::path& path, const Summary& summary) {
  auto j = SummaryToJson(summary);
  if (!j.ok()) return j.status().Wrap(path.string());
  return WriteJsonFile(path, *j);
}

Status WriteBug(const std::filesystem::path& dir, const BugRecord& bug,
                const std::vector<TraceStep>& trace) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Io(dir.string() + ": cannot create: " + ec.message());
  json j = FailureToJson(bug.failure);
  j["id"] = bug.id;
  j["frames"] = bug.frames;
  j["log"] = bug.log;
  j["replay"] = bug.replay;
  j["trace"] = "trace.jsonl";
  j["trace_steps"] = trace.size();
  j["reproduced"] = bug.reproduced ? json(*bug.reproduced) : json(nullptr);
  j["screenshots"] = bug.screenshots;
  if (!bug.screenshots_unavailable.empty())
    j["screenshots_unavailable"] = bug.screenshots_unavailable;
  ROAM_RETURN_IF_ERROR(WriteTrace(dir / "trace.jsonl", trace));
  return WriteJsonFile(dir / "bug.json", j);
}

}  // namespace roam::report
