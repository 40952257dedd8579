#include "run/replay.h"

#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "gui/abstraction.h"
#include "oracle/crash.h"
#include "run/budget.h"
#include "run/executor.h"
#include "run/fuzz.h"
#include "run/minimize.h"
#include "run/replay_spec.h"
#include "run/run_folder.h"
#include "run/vision.h"

namespace roam::run {

Result<ReplayResult> ReplayTrace(device::Device& device,
                                 const std::vector<report::TraceStep>& steps,
                                 const std::string& want_signature, int top_frames, int late_ms,
                                 const ReplayRecord& record) {
  std::vector<report::TraceStep>* annotated = record.annotated;
  std::vector<uint64_t>* content = record.content;
  // The action steps whose screens are taken: the last `screenshot_last`.
  size_t acts = 0;
  for (const auto& step : steps) acts += step.op == "act";
  const size_t first_shot = acts > record.screenshot_last ? acts - record.screenshot_last : 0;
  size_t act_index = 0;
  bool can_draw = record.screenshots != nullptr;
  ReplayResult result;
  Budget budget = Budget::Unbounded();
  oracle::CrashOracle crashes(device.Package(), {.top_frames = top_frames});
  StepExecutor executor(device, budget, crashes);
  gui::Screen screen;
  // True once the wanted signature is among what `outcome` saw.
  auto found = [&](const ActOutcome& outcome) {
    for (const auto& sig : outcome.signatures) {
      result.signatures.push_back(sig);
      if (!want_signature.empty() && sig == want_signature) result.reproduced = true;
    }
    return result.reproduced;
  };
  for (const auto& step : steps) {
    ActOutcome outcome;
    Status s;
    report::TraceStep seen = step;
    uint64_t hash = 0;
    if (step.op == "act") {
      // Observe first, as the original run did, so the device resolves the target against the
      // screen the action was chosen on.
      s = executor.Observe(screen);
      if (s.ok() && annotated) {
        gui::Action here = step.action;  // the widget index of this screen, for its text
        if (here.target) here.widget = screen.FindPath(here.target->path);
        seen = StepExecutor::StepFor(screen, here, gui::ScreenKey(screen));
      }
      if (s.ok() && content) hash = gui::ContentHash(screen);
      if (s.ok() && can_draw && act_index++ >= first_shot) {
        std::optional<gui::Rect> target;
        if (step.action.target) target = step.action.target->bounds;
        auto png = device.Screenshot(target);
        if (png.ok()) {
          record.screenshots->push_back(
              {static_cast<size_t>(&step - steps.data()), std::move(*png)});
        } else {
          can_draw = false;  // said once; the replay goes on
          if (record.screenshot_error) *record.screenshot_error = png.status().message();
        }
      }
      if (s.ok()) s = executor.Act(step.action, outcome);
    } else {
      s = executor.RunOp(step);
      if (s.ok()) executor.Drain(outcome);
    }
    if (!s.ok()) return s.Wrap("replay step " + std::to_string(step.step));
    ++result.steps_run;
    if (content) content->push_back(hash);
    if (annotated) {
      seen.op = step.op;
      seen.snapshot = step.snapshot;
      seen.step = static_cast<int64_t>(annotated->size());
      seen.events = outcome.failures;
      annotated->push_back(std::move(seen));
    }
    if (found(outcome)) return result;
  }
  // A phone may log the last action's crash only after the action returned; the run saw it at
  // its next observation, so the replay looks once more after one.
  if (!steps.empty() && executor.Observe(screen).ok()) {
    constexpr int kPollMs = 50;
    for (int waited = 0;; waited += kPollMs) {
      ActOutcome outcome;
      executor.Drain(outcome);
      if (annotated && !annotated->empty())
        for (auto& f : outcome.failures) annotated->back().events.push_back(f);
      if (found(outcome) || want_signature.empty() || waited >= late_ms) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
    }
  }
  return result;
}

namespace {

// bugs/B<n>: a crash or an ANR and the trace that reaches it.
Result<ReplayOutcome> ReplayCrash(const std::filesystem::path& dir, const ReplaySpec& spec,
                                  bool original) {
  auto bug = report::ReadBug(dir);
  if (!bug.ok()) return bug.status();
  std::filesystem::path trace_file = dir / kMinimizedTrace;
  std::error_code ec;
  if (original || !std::filesystem::exists(trace_file, ec)) trace_file = dir / "trace.jsonl";
  auto trace = report::ReadTrace(trace_file);
  if (!trace.ok()) return trace.status();
  if (trace->empty()) return Status::Corruption(trace_file.string() + ": holds no steps");
  auto device = OpenReplayDevice(spec, dir);
  if (!device.ok()) return device.status();
  ReplayOutcome outcome;
  outcome.trace = trace_file.string();
  outcome.expected = bug->failure.signature;
  auto result = ReplayTrace(**device, *trace, outcome.expected, spec.signature_frames,
                            spec.target == ReplaySpec::Target::kAndroid ? kLateReportMs : 0);
  if (!result.ok()) return result.status();
  outcome.result = std::move(*result);
  outcome.reproduced = outcome.result.reproduced;
  return outcome;
}

// The kinds of bug folder, by bug.json's "kind".
struct BugKind {
  const char* kind;
  Result<ReplayOutcome> (*replay)(const std::filesystem::path& dir, const ReplaySpec& spec,
                                  bool original);
};
constexpr BugKind kBugKinds[] = {
    {"crash", ReplayCrash},           {"anr", ReplayCrash}, {"native_crash", ReplayCrash},
    {"functional", ReplayFunctional}, {"vision", nullptr},  // ReplayVision, which also takes the
                                                            // model
};

}  // namespace

Result<BugFolder> ReadBugFolder(const std::filesystem::path& bug_dir) {
  BugFolder f;
  f.where = (bug_dir / "bug.json").string();
  auto j = ReadJsonFile(bug_dir / "bug.json");
  if (!j.ok()) return j.status();
  f.bug = std::move(*j);
  ROAM_RETURN_IF_ERROR(ReadField(f.bug, "kind", f.kind, f.where));
  if (!f.bug.contains("replay"))
    return Status::Corruption(f.where + ": has no \"replay\" object (is this a bug folder?)");
  auto spec = ReplaySpecFromJson(f.bug["replay"], f.where + ": replay");
  if (!spec.ok()) return spec.status();
  f.spec = std::move(*spec);
  return f;
}

Result<ReplayOutcome> ReplayBug(const std::filesystem::path& bug_dir, bool original,
                                const llm::ClientOptions& llm) {
  auto folder = ReadBugFolder(bug_dir);
  if (!folder.ok()) return folder.status();
  const std::string& where = folder->where;
  const std::string& kind = folder->kind;
  std::vector<std::string> kinds;
  for (const auto& k : kBugKinds) {
    if (kind != k.kind) {
      kinds.push_back(k.kind);
      continue;
    }
    auto outcome = k.replay ? k.replay(bug_dir, folder->spec, original)
                            : ReplayVision(bug_dir, folder->spec, original, llm);
    // The bug folder is whole (written at once); the run around it may not be.
    const auto run_dir = RunDirOfBug(bug_dir);
    if (outcome.ok() && ReadRunState(run_dir) == RunState::kUnfinished)
      outcome->note = run_dir.string() +
                      " did not finish (its summary.json says \"running\" or "
                      "is missing): its other figures are not final";
    return outcome;
  }
  return Status::Corruption(fmt::format("{}: unknown bug kind \"{}\"; known: {}", where,
                                        Excerpt(kind), fmt::join(kinds, ", ")));
}

Result<std::vector<std::string>> WriteStepScreenshots(
    const std::filesystem::path& bug_dir,
    const std::vector<std::pair<size_t, std::string>>& screenshots) {
  const auto dir = bug_dir / "steps";
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::vector<std::string> files;
  if (screenshots.empty()) return files;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Io(dir.string() + ": cannot create: " + ec.message());
  for (const auto& [index, png] : screenshots) {
    std::string name = fmt::format("steps/{:03}.png", index + 1);
    ROAM_RETURN_IF_ERROR(WriteFileAtomic(bug_dir / name, png));
    files.push_back(std::move(name));
  }
  return files;
}

Status RecordReplays(const std::filesystem::path& bug_dir, int runs, int reproduced,
                     const std::string& trace) {
  auto j = ReadJsonFile(bug_dir / "bug.json");
  if (!j.ok()) return j.status();
  (*j)["replays"] = {{"runs", runs},
                     {"reproduced", reproduced},
                     {"trace", std::filesystem::path(trace).filename().string()}};
  return WriteJsonFile(bug_dir / "bug.json", *j);
}

}  // namespace roam::run
