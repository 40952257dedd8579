#include "run/oracle_bug.h"

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "run/replay_trace.h"

namespace roam::run {

using nlohmann::json;

Result<OracleCheck> RecheckOracleTrace(device::Device& device,
                                       const std::vector<report::TraceStep>& trace,
                                       const oracle::OracleKind& kind,
                                       const oracle::Finding& finding, const ReplaySpec& spec) {
  std::optional<gui::Screen> before, after;
  ReplayRecord record;
  record.on_screen = [&](const report::TraceStep& step, const gui::Screen& screen) {
    if (step.step == finding.first_step) before = screen;
  };
  record.last_screen = &after;
  // No signature is looked for: every step runs.
  auto r = ReplayTrace(device, trace, "", spec.signature_frames, 0, record);
  if (!r.ok()) return r.status();
  if (!after) return Status::Unavailable("the screen after the replay could not be read");
  auto seen = kind.recheck(finding, before ? &*before : nullptr, *after);
  if (!seen.ok()) return seen.status();
  return OracleCheck{.seen = std::move(*seen), .steps_run = r->steps_run};
}

Result<OracleBugRecord> ReadOracleBug(const json& bug, const std::string& where) {
  OracleBugRecord r;
  oracle::Finding& f = r.finding;
  ROAM_RETURN_IF_ERROR(ReadField(bug, "kind", f.kind, where));
  r.kind = oracle::OracleKindOfBug(f.kind);
  if (!r.kind) return Status::Corruption(fmt::format("{}: no oracle files \"{}\"", where, f.kind));
  ROAM_RETURN_IF_ERROR(ReadField(bug, "signature", f.signature, where));
  ROAM_RETURN_IF_ERROR(ReadField(bug, "name", f.name, where));
  ROAM_RETURN_IF_ERROR(ReadField(bug, "message", f.words, where));
  ROAM_RETURN_IF_ERROR(ReadField(bug, "first_step", f.first_step, where));
  const std::string key(r.kind->bug_kind);
  if (!bug.contains(key))
    return Status::Corruption(
        fmt::format("{}: has no \"{}\" (what was checked, as written)", where, key));
  f.source = bug[key];
  return r;
}

Status WriteOracleBug(const std::filesystem::path& run_dir, const OracleBug& bug,
                      const std::vector<report::TraceStep>& trace, const ReplaySpec& replay) {
  const std::string rel = "bugs/" + bug.id;
  const std::filesystem::path dir = run_dir / rel;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Io(dir.string() + ": cannot create: " + ec.message());
  const oracle::Finding& f = bug.finding;
  json j = {{"id", bug.id},
            {"kind", f.kind},
            {"bug_dir", rel},
            {"name", f.name},
            {"signature", f.signature},
            {"message", f.words},
            {"activity", f.activity},
            {"first_step", f.first_step},
            {"last_step", f.last_step},
            {"count", f.count},
            {"bug_id", f.bug_id.empty() ? json(nullptr) : json(f.bug_id)},
            {f.kind, f.source},
            {"replay", ReplaySpecToJson(replay)}};
  j["reproduced"] = bug.reproduced ? json(*bug.reproduced) : json(nullptr);
  ROAM_RETURN_IF_ERROR(report::WriteTrace(dir / "trace.jsonl", trace));
  return WriteJsonFile(dir / "bug.json", j);
}

}  // namespace roam::run
