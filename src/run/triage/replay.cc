#include "run/triage/replay.h"

#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "gui/abstraction.h"
#include "oracle/crash.h"
#include "oracle/kinds.h"
#include "run/budget.h"
#include "run/executor.h"
#include "run/fuzz/fuzz.h"
#include "run/oracle_bug.h"
#include "run/replay_spec.h"
#include "run/run_folder.h"
#include "run/triage/minimize.h"
#include "run/vision/vision.h"

namespace roam::run {

namespace {

// The trace a bug folder replays: the minimised one when `roam minimize` left one and the recorded
// one is not asked for, else the recorded one.
std::filesystem::path TraceToReplay(const std::filesystem::path& dir, bool original) {
  const std::filesystem::path minimized = dir / kMinimizedTrace;
  std::error_code ec;
  return original || !std::filesystem::exists(minimized, ec) ? dir / "trace.jsonl" : minimized;
}

// bugs/B<n>: a crash or an ANR and the trace that reaches it.
Result<ReplayOutcome> ReplayCrash(const std::filesystem::path& dir, const ReplaySpec& spec,
                                  bool original) {
  auto bug = report::ReadBug(dir);
  if (!bug.ok()) return bug.status();
  const std::filesystem::path trace_file = TraceToReplay(dir, original);
  auto trace = report::ReadTrace(trace_file);
  if (!trace.ok()) return trace.status();
  if (trace->empty()) return Status::Corruption(trace_file.string() + ": holds no steps");
  auto device = OpenReplayDevice(spec, dir);
  if (!device.ok()) return device.status();
  ReplayOutcome outcome;
  outcome.trace = trace_file.string();
  outcome.expected = bug->failure.signature;
  auto result = ReplayBugTrace(**device, spec, outcome.expected, *trace);
  if (!result.ok()) return result.status();
  outcome.result = std::move(*result);
  outcome.reproduced = outcome.result.reproduced;
  return outcome;
}

// A user's oracle's bug (bugs/P<n>: oracle/kinds.h): the trace replayed, what was checked
// checked again.
Result<ReplayOutcome> ReplayOracleBug(const std::filesystem::path& dir, const ReplaySpec& spec,
                                      bool original) {
  auto j = ReadJsonFile(dir / "bug.json");
  if (!j.ok()) return j.status();
  auto bug = ReadOracleBug(*j, (dir / "bug.json").string());
  if (!bug.ok()) return bug.status();
  const std::filesystem::path trace_file = TraceToReplay(dir, original);
  auto trace = report::ReadTrace(trace_file);
  if (!trace.ok()) return trace.status();
  auto device = OpenReplayDevice(spec, dir);
  if (!device.ok()) return device.status();
  auto check = RecheckOracleTrace(**device, *trace, *bug->kind, bug->finding, spec);
  if (!check.ok()) return check.status();
  ReplayOutcome outcome;
  outcome.trace = trace_file.string();
  outcome.expected = bug->finding.signature;
  outcome.words = bug->finding.words;
  outcome.reproduced = check->Reproduces(bug->finding);
  outcome.result.steps_run = check->steps_run;
  if (!check->seen.signature.empty()) outcome.result.signatures.push_back(check->seen.signature);
  outcome.note = check->seen.note;
  return outcome;
}

// The kinds of bug folder, by bug.json's "kind".
struct BugKind {
  const char* kind;
  Result<ReplayOutcome> (*replay)(const std::filesystem::path& dir, const ReplaySpec& spec,
                                  bool original);
};
// The bugs of a user's oracle (oracle/kinds.h) are ReplayOracleBug's.
constexpr BugKind kBugKinds[] = {
    {"crash", ReplayCrash},           {"anr", ReplayCrash}, {"native_crash", ReplayCrash},
    {"functional", ReplayFunctional}, {"vision", nullptr},  // ReplayVision, which also takes the
                                                            // model
};

}  // namespace

Result<BugFolder> ReadBugFolder(const std::filesystem::path& bug_dir) {
  BugFolder f;
  f.where = (bug_dir / "bug.json").string();
  std::error_code ec;
  if (!std::filesystem::exists(bug_dir / "bug.json", ec) &&
      std::filesystem::exists(bug_dir / "config.json", ec)) {
    // A run folder where a bug folder was meant: name its bugs.
    auto bugs = BugFolders(bug_dir);
    std::vector<std::string> names;
    if (bugs.ok())
      for (const auto& b : *bugs) names.push_back(b.string());
    return Status::InvalidArgument(fmt::format(
        "{} is a run folder, not a bug folder: {}", bug_dir.string(),
        names.empty() ? std::string("it has no bugs")
                      : fmt::format("give one of its bugs: {}", fmt::join(names, ", "))));
  }
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
  auto replay = [&]() -> std::optional<Result<ReplayOutcome>> {
    if (oracle::OracleKindOfBug(kind)) return ReplayOracleBug(bug_dir, folder->spec, original);
    for (const auto& k : kBugKinds)
      if (kind == k.kind)
        return k.replay ? k.replay(bug_dir, folder->spec, original)
                        : ReplayVision(bug_dir, folder->spec, original, llm);
    return std::nullopt;
  };
  auto outcome = replay();
  if (!outcome) {
    std::vector<std::string> kinds;
    for (const auto& k : kBugKinds) kinds.push_back(k.kind);
    for (const auto& k : oracle::OracleKinds()) kinds.emplace_back(k.bug_kind);
    return Status::Corruption(fmt::format("{}: unknown bug kind \"{}\"; known: {}", where,
                                          Excerpt(kind), fmt::join(kinds, ", ")));
  }
  // The bug folder is whole (written at once); the run around it may not be.
  const auto run_dir = RunDirOfBug(bug_dir);
  if (outcome->ok() && ReadRunState(run_dir) == RunState::kUnfinished)
    (*outcome)->note = run_dir.string() +
                       " did not finish (its summary.json says \"running\" or "
                       "is missing): its other figures are not final";
  return std::move(*outcome);
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
