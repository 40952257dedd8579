// summary.json and bug.json read back: the readers of what summary.cc writes.
#include <algorithm>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "report/summary.h"
#include "report/summary_sections.h"

namespace roam::report {

using nlohmann::json;

namespace {

// The keys WriteSummary writes for Summary's own fields (or works out from them); any other
// top-level key is a campaign's section (report/summary_sections.h) or an error.
constexpr std::string_view kFields[] = {"app",
                                        "package",
                                        "device",
                                        "strategy",
                                        "seed",
                                        "events",
                                        "wall_seconds",
                                        "phone_seconds",
                                        "events_per_second",
                                        "stop_reason",
                                        "activities_total",
                                        "activities_covered",
                                        "activities_declared",
                                        "units_total",
                                        "units_covered",
                                        "states",
                                        "relaunches",
                                        "refused",
                                        "device_life",
                                        "coverage_link",
                                        "code_coverage",
                                        "snapshots",
                                        "restores",
                                        "failed_restores",
                                        "restore_events",
                                        "crashes",
                                        "anrs",
                                        "timing",
                                        "bugs",
                                        "functional"};

// A field that may be null: absent or null leaves `out` empty.
template <typename T>
Status ReadNullable(const json& j, std::string_view key, std::optional<T>& out,
                    std::string_view where) {
  if (!j.contains(key) || j[std::string(key)].is_null()) return Status::Ok();
  T value{};
  ROAM_RETURN_IF_ERROR(ReadField(j, key, value, where));
  out = value;
  return Status::Ok();
}

// Each object of the array `j[key]`, read by `read` with its place ("where.key[3]").
template <typename T, typename Read>
Status ReadList(const json& j, std::string_view key, std::vector<T>& out, std::string_view where,
                Read read) {
  auto it = j.find(std::string(key));
  if (it == j.end() || it->is_null()) return Status::Ok();
  if (!it->is_array())
    return Status::Corruption(
        fmt::format("{}.{}: expected an array, got {}", where, key, JsonExcerpt(*it)));
  out.clear();
  for (size_t i = 0; i < it->size(); ++i) {
    T item;
    ROAM_RETURN_IF_ERROR(read((*it)[i], fmt::format("{}.{}[{}]", where, key, i), item));
    out.push_back(std::move(item));
  }
  return Status::Ok();
}

// A string that may be null ("bug_id": null when there is none).
Status ReadOptionalString(const json& j, std::string_view key, std::string& out,
                          std::string_view where) {
  if (j.is_object() && j.contains(key) && j[std::string(key)].is_null()) return Status::Ok();
  return ReadField(j, key, out, where);
}

Status FailureFromJson(const json& j, const std::string& where, FailureSummary& f) {
  ROAM_RETURN_IF_ERROR(ReadField(j, "kind", f.kind, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "signature", f.signature, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "exception", f.exception, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "message", f.message, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "count", f.count, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "first_step", f.first_step, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "bug_dir", f.bug_dir, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "known", f.known, where));
  return ReadOptionalString(j, "bug_id", f.bug_id, where);
}

Status FunctionalFromJson(const json& j, const std::string& where, FunctionalFinding& f) {
  ROAM_RETURN_IF_ERROR(ReadField(j, "id", f.id, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "activity", f.activity, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "violation", f.key, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "count", f.count, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "first_seed", f.first_seed, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "bug_dir", f.bug_dir, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "explanation", f.explanation, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "known", f.known, where));
  ROAM_RETURN_IF_ERROR(ReadOptionalString(j, "bug_id", f.bug_id, where));
  f.scored = !f.bug_id.empty();  // written only when scored and a planted bug matched
  return Status::Ok();
}

Status TimingFromJson(const json& j, const std::string& where, StepTiming& t) {
  if (!j.contains("timing")) return Status::Ok();
  const json& timing = j["timing"];
  const std::string at = where + ".timing";
  ROAM_RETURN_IF_ERROR(ReadField(timing, "steps", t.steps, at));
  for (auto [key, field] : {std::pair{"observe", &t.observe},
                            {"decide", &t.decide},
                            {"act", &t.act},
                            {"events", &t.events},
                            {"launch", &t.launch},
                            {"aside", &t.aside}})
    if (timing.contains(key))
      ROAM_RETURN_IF_ERROR(ReadField(timing[key], "seconds", *field, at + "." + key));
  return Status::Ok();
}

// An object of counts by name (summary.json's "refused", device_life's "system_screens");
// errors name `at`.
Status CountsFromJson(const json& counts, const std::string& at,
                      std::map<std::string, int64_t>& into) {
  if (!counts.is_object())
    return Status::Corruption(
        fmt::format("{}: expected an object of counts, got {}", at, JsonExcerpt(counts)));
  for (const auto& [name, count] : counts.items())
    ROAM_RETURN_IF_ERROR(ReadField(counts, name, into[name], at));
  return Status::Ok();
}

// summary.json's "refused": counts of actions the device refused, by reason (absent in runs
// before it was kept).
Status RefusedFromJson(const json& j, const std::string& where, Summary& s) {
  if (!j.contains("refused")) return Status::Ok();
  return CountsFromJson(j["refused"], where + ": refused", s.refused);
}

// summary.json's "device_life", written when the device lived through something (it went away,
// its driver restarted, system screens were dismissed).
Status DeviceLifeFromJson(const json& j, const std::string& where, Summary& s) {
  if (!j.contains("device_life")) return Status::Ok();
  const json& d = j["device_life"];
  const std::string at = where + ".device_life";
  if (!d.is_object())
    return Status::Corruption(fmt::format("{}: expected an object, got {}", at, JsonExcerpt(d)));
  ROAM_RETURN_IF_ERROR(ReadField(d, "away", s.device_life.away, at));
  ROAM_RETURN_IF_ERROR(ReadField(d, "away_seconds", s.device_life.away_seconds, at));
  ROAM_RETURN_IF_ERROR(ReadField(d, "driver_restarts", s.device_life.driver_restarts, at));
  ROAM_RETURN_IF_ERROR(ReadField(d, "driver_retries", s.device_life.driver_retries, at));
  if (!d.contains("system_screens")) return Status::Ok();
  return CountsFromJson(d["system_screens"], at + ".system_screens", s.device_life.system_screens);
}

// summary.json's "coverage_link", written where coverage is read from the app.
Status CoverageLinkFromJson(const json& j, const std::string& where, Summary& s) {
  if (!j.contains("coverage_link")) return Status::Ok();
  const json& c = j["coverage_link"];
  const std::string at = where + ".coverage_link";
  if (!c.is_object())
    return Status::Corruption(fmt::format("{}: expected an object, got {}", at, JsonExcerpt(c)));
  device::CoverageLink& link = s.coverage_link.emplace();
  ROAM_RETURN_IF_ERROR(ReadField(c, "source", link.source, at));
  ROAM_RETURN_IF_ERROR(ReadField(c, "working", link.working, at));
  ROAM_RETURN_IF_ERROR(ReadField(c, "dumps", link.dumps, at));
  ROAM_RETURN_IF_ERROR(ReadField(c, "failed", link.failed, at));
  ROAM_RETURN_IF_ERROR(ReadField(c, "last_error", link.last_error, at));
  ROAM_RETURN_IF_ERROR(ReadField(c, "classes", link.classes, at));
  ROAM_RETURN_IF_ERROR(ReadField(c, "probes", link.probes, at));
  return Status::Ok();
}

// The keys of summary.json past its fields: each a section of report/summary_sections.h, kept as
// it is; any other is an error that names the closest known key.
Status SectionsFromJson(const json& j, const std::string& where, Summary& s) {
  for (const auto& [key, value] : j.items()) {
    if (std::ranges::find(kFields, key) != std::end(kFields)) continue;
    if (!IsSummarySection(key)) {
      std::vector<std::string> known(std::begin(kFields), std::end(kFields));
      for (std::string& name : SummarySectionNames()) known.push_back(std::move(name));
      return Status::Corruption(
          fmt::format("{}: unknown key \"{}\"{}: neither a field of summary.json nor a section of "
                      "report/summary_sections.h",
                      where, Excerpt(key), DidYouMean(key, known)));
    }
    s.sections[key] = value;
  }
  return Status::Ok();
}

}  // namespace

Result<Summary> SummaryFromJson(const json& j, std::string_view where_view) {
  const std::string where(where_view);
  if (!j.is_object())
    return Status::Corruption(
        fmt::format("{}: expected a JSON object, got {}", where, JsonExcerpt(j)));
  Summary s;
  ROAM_RETURN_IF_ERROR(ReadField(j, "app", s.app, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "package", s.package, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "device", s.device, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "strategy", s.strategy, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "seed", s.seed, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "events", s.events, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "wall_seconds", s.wall_seconds, where));
  ROAM_RETURN_IF_ERROR(ReadNullable(j, "phone_seconds", s.phone_seconds, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "stop_reason", s.stop_reason, where));
  ROAM_RETURN_IF_ERROR(ReadNullable(j, "activities_total", s.activities_total, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "activities_covered", s.activities_covered, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "activities_declared", s.activities_declared, where));
  ROAM_RETURN_IF_ERROR(ReadNullable(j, "units_total", s.units_total, where));
  ROAM_RETURN_IF_ERROR(ReadNullable(j, "units_covered", s.units_covered, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "states", s.states, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "relaunches", s.relaunches, where));
  ROAM_RETURN_IF_ERROR(RefusedFromJson(j, where, s));
  ROAM_RETURN_IF_ERROR(DeviceLifeFromJson(j, where, s));
  ROAM_RETURN_IF_ERROR(CoverageLinkFromJson(j, where, s));
  if (j.contains("code_coverage"))  // written for a run given --classfiles
    ROAM_RETURN_IF_ERROR(
        CountersFromJson(j["code_coverage"], where + ".code_coverage", s.code_coverage.emplace()));
  ROAM_RETURN_IF_ERROR(ReadField(j, "snapshots", s.snapshots, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "restores", s.restores, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "failed_restores", s.failed_restores, where));
  ROAM_RETURN_IF_ERROR(ReadField(j, "restore_events", s.restore_events, where));
  ROAM_RETURN_IF_ERROR(ReadList(j, "crashes", s.crashes, where, FailureFromJson));
  ROAM_RETURN_IF_ERROR(ReadList(j, "anrs", s.anrs, where, FailureFromJson));
  ROAM_RETURN_IF_ERROR(TimingFromJson(j, where, s.timing));
  if (j.contains("functional") && !j["functional"].is_null()) {
    s.functional.emplace();
    ROAM_RETURN_IF_ERROR(ReadList(j, "functional", *s.functional, where, FunctionalFromJson));
  }
  ROAM_RETURN_IF_ERROR(SectionsFromJson(j, where, s));
  return s;
}

Result<Summary> ReadSummary(const std::filesystem::path& path) {
  auto j = ReadJsonFile(path);
  if (!j.ok()) return j.status();
  return SummaryFromJson(*j, path.string());
}

Result<BugRecord> ReadBug(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / "bug.json";
  auto j = ReadJsonFile(path);
  if (!j.ok()) return j.status();
  const std::string where = path.string();
  if (!j->is_object()) return Status::Corruption(where + ": not a JSON object");
  BugRecord b;
  ROAM_RETURN_IF_ERROR(ReadField(*j, "id", b.id, where));
  ROAM_RETURN_IF_ERROR(FailureFromJson(*j, where, b.failure));
  ROAM_RETURN_IF_ERROR(ReadField(*j, "frames", b.frames, where));
  ROAM_RETURN_IF_ERROR(ReadField(*j, "log", b.log, where));
  b.replay = j->value("replay", json::object());
  if (j->contains("reproduced") && !(*j)["reproduced"].is_null()) {
    bool reproduced = false;
    ROAM_RETURN_IF_ERROR(ReadField(*j, "reproduced", reproduced, where));
    b.reproduced = reproduced;
  }
  ROAM_RETURN_IF_ERROR(ReadField(*j, "screenshots", b.screenshots, where));
  ROAM_RETURN_IF_ERROR(ReadField(*j, "screenshots_unavailable", b.screenshots_unavailable, where));
  return b;
}

}  // namespace roam::report
