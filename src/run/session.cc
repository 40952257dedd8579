#include "run/session.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/files.h"
#include "gui/intent.h"
#include "gui/uiautomator.h"
#include "report/run_report.h"
#include "report/trace.h"
#include "run/crash_bug.h"
#include "run/replay_trace.h"

namespace roam::run {

Session::Session(device::Device& device, SessionOptions options, const RunContext& context)
    : device_(device),
      options_(std::move(options)),
      context_(context),
      package_(device.Package()),
      budget_(options_.budget, *context.clock),
      crashes_(package_, options_.crash),
      executor_(device, budget_, crashes_, options_.executor),
      progress_(context.progress, context.progress_tty, options_.progress) {}

Status Session::Open(bool trace) {
  declared_ = device_.DeclaredActivities();
  ReadBroadcasts();
  ReadIntents();
  if (trace) ROAM_RETURN_IF_ERROR(trace_.Open(RunFile("trace", "jsonl")));
  return progress_.OpenLog(RunFile("progress", "jsonl"));
}

void Session::ReadIntents() {
  intents_.clear();
  for (const gui::DeclaredActivity& activity : device_.DeclaredIntentTargets()) {
    // The launcher's activity, started with nothing: what a launch does already.
    const bool launcher_only =
        activity.extras.empty() && !activity.filters.empty() &&
        std::all_of(activity.filters.begin(), activity.filters.end(), [](const auto& f) {
          return f.schemes.empty() &&
                 std::find(f.categories.begin(), f.categories.end(),
                           "android.intent.category.LAUNCHER") != f.categories.end();
        });
    if (launcher_only) continue;
    for (const gui::Intent& intent : gui::CandidateIntents(activity))
      intents_.push_back(
          {gui::MakeGlobalAction(gui::ActionKind::kIntent, intent.ToText()), activity.name});
  }
}

std::filesystem::path Session::RunFile(std::string_view stem, std::string_view ext) const {
  if (options_.device_tag.empty()) return options_.out_dir / fmt::format("{}.{}", stem, ext);
  return options_.out_dir / fmt::format("{}-{}.{}", stem, options_.device_tag, ext);
}

Status Session::NotInForeground(int launches, const gui::Screen& screen) const {
  return Status::Unavailable(
      fmt::format("{} did not come to the foreground after {} launches (the screen shows \"{}\")",
                  package_, launches, screen.package));
}

bool Session::Over() {
  if (!context_.Stopped() && budget_.Left()) return false;
  StopAtEnd("");
  return true;
}

void Session::StopOn(const Status& failure, std::string_view cause) {
  if (stopped_ || failure.ok()) return;
  if (context_.Stopped()) return StopAtEnd("");  // a device call cut short by Ctrl-C
  stopped_ = true;
  if (write_failed_) cause = "write error: ";
  if (cause.empty()) cause = "device error: ";
  stop_reason_ = std::string(cause) + failure.message();
}

void Session::StopAtEnd(std::string_view otherwise) {
  if (stopped_) return;
  stopped_ = true;
  stop_reason_ = context_.Stopped() ? "interrupted"
                 : !budget_.Left()  ? std::string(budget_.SpentOn())
                                    : std::string(otherwise);
}

ProgressFigures Session::Figures() const {
  ProgressFigures f = executor_.Figures();
  f.crashes = crashes_.CountOf(device::Event::Kind::kCrash) +
              crashes_.CountOf(device::Event::Kind::kNativeCrash);
  f.anrs = crashes_.CountOf(device::Event::Kind::kAnr);
  f.relaunches = relaunches_;
  if (!declared_.empty()) f.activities_total = declared_.size();
  if (device_.HasCoverage()) {
    auto c = device_.GetCoverage();
    f.units_covered = c.covered;
    f.units_total = c.total;
  }
  return f;
}

report::Summary Session::Summary(std::string app, std::string strategy, uint64_t seed) const {
  report::Summary s;
  s.app = std::move(app);
  s.seed = seed;
  s.package = package_;
  s.device = device_.Name();
  s.strategy = std::move(strategy);
  s.events = budget_.events();
  s.wall_seconds = budget_.Elapsed();
  if (budget_.options().clock) s.phone_seconds = budget_.Spent();
  s.stop_reason = stop_reason_;
  if (!declared_.empty()) s.activities_total = declared_.size();
  s.activities_declared = declared_;
  if (device_.HasCoverage()) {
    auto c = device_.GetCoverage();
    s.units_covered = c.covered;
    s.units_total = c.total;
  }
  s.relaunches = relaunches_;
  s.refused = executor_.refusals();
  s.device_life = device_.Life();
  s.coverage_link = device_.CoverageHealth();
  s.timing = executor_.timing();
  return s;
}

Status Session::WriteCoverageFile() const {
  auto exec = device_.CoverageExec();
  if (!exec.ok()) return exec.status().IsUnsupported() ? Status::Ok() : exec.status();
  return WriteFileAtomic(RunFile("coverage", "exec"), *exec);
}

void Session::RefreshReport(bool final) {
  const double now = budget_.Elapsed();
  if (!options_.html_report || (!final && now < next_report_)) return;
  Status s = report::WriteRunReport(options_.out_dir);
  // Rewritten mid-run at most once per twenty times what writing it cost.
  next_report_ = budget_.Elapsed() + 20 * (budget_.Elapsed() - now);
  if (!s.ok() && !report_failed_) {
    report_failed_ = true;
    progress_.Note("roam: report.html not written: " + s.message());
  }
}

void Session::KeepScreen(uint64_t state, const gui::Screen& screen) {
  if (screens_failed_ || kept_screens_.size() >= static_cast<size_t>(options_.state_screens) ||
      !kept_screens_.insert(state).second)
    return;
  const std::filesystem::path stem = options_.out_dir / "screens" / report::HexKey(state);
  Status s = Timed(budget_.clock(), executor_.timing().aside, [&] {
    auto png = device_.Screenshot(std::nullopt);
    if (!png.ok()) return png.status();
    std::error_code ec;
    std::filesystem::create_directories(stem.parent_path(), ec);
    ROAM_RETURN_IF_ERROR(WriteFileAtomic(stem.string() + ".png", *png));
    return WriteFileAtomic(stem.string() + ".xml", gui::WriteDump(screen));
  });
  if (s.ok()) return;
  screens_failed_ = true;
  progress_.Note("roam: the screens of states are not kept for report.html: " + s.message());
}

void Session::CheckUnchecked() {
  if (unchecked_.empty()) return;
  const bool device_failed = stop_reason_.starts_with("device error");
  for (const auto& [dir, check_filed] : unchecked_) {
    const std::string id = dir.filename().string();
    if (device_failed || context_.Stopped()) {
      progress_.Note(
          fmt::format("roam: {} was not checked on the device ({}); `roam replay {}` "
                      "checks it",
                      id, device_failed ? "it failed" : "interrupted", dir.string()));
      continue;
    }
    progress_.Note(
        fmt::format("roam: checking {} on the device (the run is over: its trace is "
                    "replayed once more)",
                    id));
    const double start = budget_.Elapsed();
    auto check = check_filed(device_, dir, options_.bug_screenshots);
    if (!check.ok()) {
      progress_.Note("roam: " + check.status().message());
      continue;
    }
    std::string verdict =
        check->reproduced
            ? fmt::format("reproduced by its {}-step trace", check->steps)
            : fmt::format("did not reproduce ({}-step trace){}", check->steps,
                          check->divergence ? ": " + DivergenceWords(*check->divergence) : "");
    progress_.Note(
        fmt::format("roam: {} checked in {:.1f} s: {}", id, budget_.Elapsed() - start, verdict));
  }
  unchecked_.clear();
}

Status Session::Finish(const ProgressFigures& figures, report::Summary& summary,
                       const report::KnownBugs& known) {
  progress_.Finish(figures);
  // The bugs a phone could not check while it ran are checked now, on it: the user waits for
  // that too, so the run's wall time has it (and `aside`: no exploring in it).
  const double before = budget_.Elapsed();
  CheckUnchecked();
  const double checking = budget_.Elapsed() - before;
  summary.wall_seconds += checking;
  summary.timing.aside += checking;
  report::MarkKnown(known, summary);
  ROAM_RETURN_IF_ERROR(Wrote(report::WriteSummary(RunFile("summary", "json"), summary)));
  ROAM_RETURN_IF_ERROR(WriteCoverageFile());
  RefreshReport(/*final=*/true);
  return Status::Ok();
}

}  // namespace roam::run
