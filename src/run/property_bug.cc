#include "run/property_bug.h"

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "run/replay_trace.h"

namespace roam::run {

using nlohmann::json;

bool PropertyCheck::Reproduces(const std::string& signature, const std::string& name) const {
  if (!precondition_held || violation.empty()) return false;
  return oracle::PropertySignature(name, violation) == signature;
}

Result<PropertyCheck> ReplayPropertyTrace(device::Device& device,
                                          const std::vector<report::TraceStep>& trace,
                                          const oracle::Property& property, int64_t first_step,
                                          const ReplaySpec& spec) {
  PropertyCheck check;
  std::optional<gui::Screen> before, after;
  ReplayRecord record;
  record.on_screen = [&](const report::TraceStep& step, const gui::Screen& screen) {
    if (step.step == first_step) before = screen;
  };
  record.last_screen = &after;
  // No signature is looked for: every step runs.
  auto r = ReplayTrace(device, trace, "", spec.signature_frames, 0, record);
  if (!r.ok()) return r.status();
  if (!after) return Status::Unavailable("the screen after the replay could not be read");
  check.steps_run = r->steps_run;
  const gui::Screen& then = before ? *before : *after;
  check.precondition_held = property.precondition.Holds(then);
  check.violation = property.Violation(then, *after);
  return check;
}

Result<PropertyBugRecord> ReadPropertyBug(const json& bug, const std::string& where) {
  PropertyBugRecord r;
  ROAM_RETURN_IF_ERROR(ReadField(bug, "signature", r.signature, where));
  ROAM_RETURN_IF_ERROR(ReadField(bug, "name", r.name, where));
  ROAM_RETURN_IF_ERROR(ReadField(bug, "message", r.message, where));
  ROAM_RETURN_IF_ERROR(ReadField(bug, "first_step", r.first_step, where));
  if (!bug.contains("property"))
    return Status::Corruption(where + ": has no \"property\" (the property as written)");
  auto property = oracle::ParseProperty(bug["property"], where + ": property");
  if (!property.ok()) return property.status();
  r.property = std::move(*property);
  return r;
}

Status WritePropertyBug(const std::filesystem::path& run_dir, const PropertyBug& bug,
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
            {"count", bug.count},
            {"bug_id", bug.bug_id.empty() ? json(nullptr) : json(bug.bug_id)},
            {"property", bug.property->source},
            {"replay", ReplaySpecToJson(replay)}};
  j["reproduced"] = bug.reproduced ? json(*bug.reproduced) : json(nullptr);
  ROAM_RETURN_IF_ERROR(report::WriteTrace(dir / "trace.jsonl", trace));
  return WriteJsonFile(dir / "bug.json", j);
}

}  // namespace roam::run
