#include "run/oracle_bug.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "draw/marks.h"
#include "run/replay_trace.h"

namespace roam::run {

using nlohmann::json;

namespace {

// `png` with `widgets` of `screen` outlined and numbered; `png` itself when it cannot be marked.
std::string Outlined(const std::string& png, const gui::Screen& screen,
                     const std::vector<int>& widgets) {
  std::vector<draw::Mark> marks;
  for (int w : widgets)
    marks.push_back({.widget = w,
                     .number = static_cast<int>(marks.size()) + 1,
                     .interaction = draw::Interaction::kCheck,
                     .box = screen.widgets[w].bounds});
  auto marked = draw::MarkPng(png, marks);
  return marked.ok() ? std::move(*marked) : png;
}

// Writes `screens` into `dir` and lists them in `bug` ("screenshots"; "screenshots_unavailable":
// why the device drew none).
Status WriteScreens(const std::filesystem::path& dir, const OracleScreens& screens, json& bug) {
  auto files = WriteStepScreenshots(dir, screens.steps, screens.after);
  if (!files.ok()) return files.status();
  if (!screens.before.empty()) {
    ROAM_RETURN_IF_ERROR(WriteFileAtomic(dir / kBeforeScreenshot, screens.before));
    files->insert(files->begin(), kBeforeScreenshot);
  }
  bug["screenshots"] = *files;
  if (!screens.error.empty()) bug["screenshots_unavailable"] = screens.error;
  return Status::Ok();
}

}  // namespace

Result<OracleCheck> RecheckOracleTrace(device::Device& device,
                                       const std::vector<report::TraceStep>& trace,
                                       const oracle::OracleKind& kind,
                                       const oracle::Finding& finding, const ReplaySpec& spec,
                                       OracleScreens* screens) {
  std::optional<gui::Screen> before, after;
  ReplayRecord record;
  auto draw = [&]() -> std::string {  // the screen now, unmarked; "" once the device cannot
    if (!screens || !screens->error.empty()) return "";
    auto png = device.Screenshot(std::nullopt);
    if (!png.ok()) screens->error = png.status().message();
    return png.ok() ? std::move(*png) : "";
  };
  record.on_screen = [&](const report::TraceStep& step, const gui::Screen& screen) {
    if (step.step != finding.first_step) return;
    before = screen;
    if (screens) screens->before = draw();
  };
  record.last_screen = &after;
  if (screens) {
    *screens = {};
    record.screenshots = &screens->steps;
    record.screenshot_error = &screens->error;
    record.screenshot_last = static_cast<size_t>(std::ranges::count_if(
        trace, [&](const auto& s) { return s.op == "act" && s.step >= finding.first_step; }));
  }
  // No signature is looked for: every step runs.
  auto r = ReplayTrace(device, trace, "", spec.signature_frames, 0, record);
  if (!r.ok()) return r.status();
  if (!after) return Status::Unavailable("the screen after the replay could not be read");
  auto seen = kind.recheck(finding, before ? &*before : nullptr, *after);
  if (!seen.ok()) return seen.status();
  if (screens) {
    if (!screens->before.empty())
      screens->before = Outlined(screens->before, *before, seen->before_widgets);
    if (std::string png = draw(); !png.empty())
      screens->after = Outlined(png, *after, seen->after_widgets);
  }
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
                      const std::vector<report::TraceStep>& trace, const ReplaySpec& replay,
                      const OracleScreens* screens) {
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
  if (screens) ROAM_RETURN_IF_ERROR(WriteScreens(dir, *screens, j));
  ROAM_RETURN_IF_ERROR(report::WriteTrace(dir / "trace.jsonl", trace));
  return WriteJsonFile(dir / "bug.json", j);
}

Result<TraceCheck> CheckFiledOracleBug(device::Device& device, const std::filesystem::path& bug_dir,
                                       int /*screenshots*/) {
  const std::string where = (bug_dir / "bug.json").string();
  auto j = ReadJsonFile(bug_dir / "bug.json");
  if (!j.ok()) return j.status();
  auto bug = ReadOracleBug(*j, where);
  if (!bug.ok()) return bug.status();
  auto spec = ReplaySpecFromJson(j->value("replay", json::object()), where + ": replay");
  if (!spec.ok()) return spec.status();
  // Checked as the simulator's check does, the screens drawn by the replay that counts.
  OracleScreens screens;
  auto kept =
      CheckFiledTraces(bug_dir, [&](const std::vector<report::TraceStep>& trace) -> Result<bool> {
        auto c = RecheckOracleTrace(device, trace, *bug->kind, bug->finding, *spec, &screens);
        if (!c.ok()) return c.status();
        return c->Reproduces(bug->finding);
      });
  if (!kept.ok()) return kept.status();
  const TraceCheck check{
      .checked = true, .reproduced = kept->reproduced, .steps = kept->trace.size()};
  (*j)["reproduced"] = check.reproduced;
  ROAM_RETURN_IF_ERROR(WriteScreens(bug_dir, screens, *j));
  ROAM_RETURN_IF_ERROR(WriteJsonFile(bug_dir / "bug.json", *j));
  return check;
}

Result<std::vector<oracle::OracleMaker>> ReadOracles(
    const std::map<std::string, std::filesystem::path>& files, json& config) {
  std::vector<oracle::OracleMaker> makers;
  for (const auto& kind : oracle::OracleKinds()) {
    auto file = files.find(std::string(kind.name));
    if (file == files.end() || file->second.empty()) continue;
    auto make = kind.read(file->second);
    if (!make.ok()) return make.status();
    makers.push_back(std::move(*make));
    config[std::string(kind.name)] = file->second.string();
  }
  return makers;
}

Result<bool> OracleFiler::File(const oracle::Finding& finding, const TraceFn& first,
                               const TraceFn& then, Session& session, std::string_view command) {
  Result<bool> filed = Timed(session.budget().clock(), session.executor().timing().aside,
                             [&] { return Write(finding, first, then); });
  if (!filed.ok() || !*filed) return filed;
  session.progress().Note(fmt::format("{}: {} {}", command, findings_.back().id, finding.words));
  if (!setup_.fresh_device)
    session.CheckAfterRun(setup_.run_dir / findings_.back().bug_dir, CheckFiledOracleBug);
  return filed;
}

Result<bool> OracleFiler::Write(const oracle::Finding& finding, const TraceFn& first,
                                const TraceFn& then) {
  auto [it, fresh] = index_.try_emplace(finding.signature, findings_.size());
  if (!fresh) {
    ++findings_[it->second].count;
    return false;
  }
  const oracle::OracleKind* kind = oracle::OracleKindOfBug(finding.kind);
  if (!kind)
    return Status::Unsupported(
        fmt::format("no oracle of oracle/kinds.h files \"{}\"", finding.kind));
  OracleBug bug{.id = fmt::format("{}{}", kind->folder, ++filed_[kind->folder]),
                .finding = finding};
  report::FunctionalFinding entry{.key = finding.signature,
                                  .activity = finding.activity,
                                  .explanation = finding.words,
                                  .count = 1,
                                  .scored = static_cast<bool>(setup_.fresh_device)};
  if (setup_.shared) {
    // One folder per bug in the whole run: another device may have filed this one already.
    auto claim = setup_.shared->ClaimFor(finding, kind->folder);
    bug.id = claim.id;
    if (!claim.first) {
      entry.id = claim.id;
      entry.bug_dir = "bugs/" + claim.id;
      findings_.push_back(std::move(entry));
      return false;
    }
  }
  // A phone checks it after the run, the shorter trace first.
  std::vector<report::TraceStep> trace = setup_.fresh_device || !then ? first() : then();
  std::vector<report::TraceStep> shorter;
  if (!setup_.fresh_device && then) shorter = first();
  if (shorter.size() >= trace.size()) shorter.clear();
  // Checked as `roam replay` will check it; on the simulator, each planted bug switched off in
  // turn tells which one it is (as functional reports are scored). The check of the trace kept
  // draws its screens.
  OracleScreens screens;
  OracleScreens* draw = setup_.screens && setup_.fresh_device ? &screens : nullptr;
  auto failed = [&](const std::set<std::string>& off,
                    OracleScreens* drawn = nullptr) -> std::optional<bool> {
    auto device = setup_.fresh_device(off);
    if (!device.ok()) return std::nullopt;
    auto check = RecheckOracleTrace(**device, trace, *kind, finding, setup_.replay, drawn);
    if (!check.ok()) return std::nullopt;
    return check->Reproduces(finding);
  };
  if (setup_.fresh_device) {
    bug.reproduced = failed({}, draw);
    if (!bug.reproduced.value_or(false) && then) {
      trace = then();
      bug.reproduced = failed({}, draw);
    }
    if (bug.reproduced.value_or(false))
      for (const auto& id : setup_.functional_bugs)
        if (failed({id}) == false) {
          bug.finding.bug_id = id;
          break;
        }
  }
  ROAM_RETURN_IF_ERROR(WriteOracleBug(setup_.run_dir, bug, trace, setup_.replay, draw));
  if (!shorter.empty())
    ROAM_RETURN_IF_ERROR(
        report::WriteTrace(setup_.run_dir / "bugs" / bug.id / kShorterTrace, shorter));
  entry.id = bug.id;
  entry.bug_dir = "bugs/" + bug.id;
  entry.bug_id = bug.finding.bug_id;
  findings_.push_back(std::move(entry));
  return true;
}

}  // namespace roam::run
