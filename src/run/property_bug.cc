#include "run/property_bug.h"

#include <fmt/format.h>

#include "base/files.h"
#include "oracle/crash.h"
#include "run/budget.h"
#include "run/executor.h"

namespace roam::run {

using nlohmann::json;

bool PropertyCheck::Reproduces(const std::string& signature, const std::string& name) const {
  if (!precondition_held || violation.empty()) return false;
  return "property " + name + ": " + violation.substr(0, violation.find(": ")) == signature;
}

Result<PropertyCheck> ReplayPropertyTrace(device::Device& device,
                                          const std::vector<report::TraceStep>& trace,
                                          const oracle::Property& property, int64_t first_step,
                                          const ReplaySpec& spec) {
  Budget budget = Budget::Unbounded();
  oracle::CrashOracle crashes(device.Package(), {.top_frames = spec.signature_frames});
  StepExecutor executor(device, budget, crashes);
  PropertyCheck check;
  gui::Screen screen, before;
  bool have_before = false;
  for (const auto& step : trace) {
    ActOutcome outcome;
    Status s;
    if (step.op == "act") {
      s = executor.Observe(screen);
      if (s.ok() && step.step == first_step) before = screen, have_before = true;
      if (s.ok()) s = executor.Act(step.action, outcome);
    } else {
      s = executor.RunOp(step);
      if (s.ok()) executor.Drain(outcome);
    }
    if (!s.ok()) return s.Wrap("replay step " + std::to_string(step.step));
    ++check.steps_run;
  }
  ROAM_RETURN_IF_ERROR(executor.Observe(screen).Wrap("the screen after the replay"));
  if (!have_before) before = screen;
  check.precondition_held = property.precondition.Holds(before);
  check.violation = property.Violation(before, screen);
  return check;
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
