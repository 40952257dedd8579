#include "run/explore.h"
#include "run/explore_android.h"
#include "run/fuzz.h"

#include <fmt/format.h>

#include "base/files.h"
#include "device/sim_device.h"
#include "sim/sim_app.h"
#include "sim/spec.h"

namespace roam::run {

using nlohmann::json;

namespace {

constexpr const char* kRunFiles[] = {"config.json", "summary.json", "trace.jsonl", "harness.json"};

std::set<std::string> ToSet(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

// Unknown bug ids are an error: a typo would silently leave the bug on.
Status CheckBugIds(const std::vector<std::string>& bugs_off, const std::vector<std::string>& known,
                   const std::string& app) {
  for (const auto& id : bugs_off) {
    if (std::find(known.begin(), known.end(), id) != known.end()) continue;
    std::string hint = ClosestName(id, known);
    return Status::InvalidArgument(fmt::format(
        "--bugs-off: {} plants no bug \"{}\"{}; its bugs: {}", app, id,
        hint.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", hint), fmt::join(known, ", ")));
  }
  return Status::Ok();
}

}  // namespace

Status PrepareOutDir(const std::filesystem::path& dir, bool force) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec)) {
    if (!std::filesystem::is_directory(dir, ec))
      return Status::InvalidArgument(dir.string() + ": exists and is not a folder");
    bool holds_run = false;
    for (const char* f : kRunFiles) holds_run |= std::filesystem::exists(dir / f, ec);
    if (holds_run && !force)
      return Status::InvalidArgument(fmt::format(
          "{} holds an earlier run; pass --force to replace it or choose another --out",
          dir.string()));
    if (holds_run) {
      for (const char* f : kRunFiles) std::filesystem::remove(dir / f, ec);
      std::filesystem::remove_all(dir / "bugs", ec);
      std::filesystem::remove(dir / "app.json", ec);
    }
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Io(dir.string() + ": cannot create: " + ec.message());
  return Status::Ok();
}

namespace {

json FastbotConfig(const explore::FastbotOptions& f, int64_t flush_every) {
  return {{"alpha", f.alpha}, {"k", f.k}, {"n_step", f.n_step}, {"gamma", f.gamma},
          {"learning_rate", f.learning_rate}, {"beta", f.beta}, {"stuck_steps", f.stuck_steps},
          {"dynamic_texts", f.dynamic_texts},
          {"globals", f.globals},
          {"model", f.model_dir.empty() ? json(nullptr)
                                        : json(explore::ModelFile(f.model_dir).string())},
          {"model_save_every", flush_every}, {"model_reset", f.model_reset}};
}

json CampaignConfig(const ExploreOptions& options) {
  const auto& r = options.strategy_settings.random;
  json config = {{"strategy", options.strategy},
          {"seed", options.seed},
          {"events", options.campaign.max_events},
          {"time", options.campaign.max_seconds},
          {"throttle_ms", options.campaign.throttle_ms},
          {"random", {{"pct_click", r.pct_click}, {"pct_long_click", r.pct_long_click},
                      {"pct_input", r.pct_input}, {"pct_scroll", r.pct_scroll},
                      {"pct_swipe", r.pct_swipe}, {"pct_back", r.pct_back},
                      {"pct_menu", r.pct_menu}, {"pct_rotate", r.pct_rotate},
                      {"pct_restart", r.pct_restart}, {"pct_syskeys", r.pct_syskeys}}}};
  if (explore::RunsFastbot(options.strategy))
    config["fastbot"] = FastbotConfig(options.strategy_settings.fastbot, options.campaign.flush_every);
  return config;
}

}  // namespace

Result<report::Summary> RunCampaign(const ExploreOptions& options, device::Device& device,
                                    explore::Strategy& strategy, CampaignTarget target,
                                    const std::atomic<bool>* stop, std::FILE* progress,
                                    bool progress_tty) {
  json config = CampaignConfig(options);
  if (options.strategy.starts_with(explore::kTimeTravelPrefix)) {
    const auto& t = options.strategy_settings.timetravel;
    config["time_travel"] = {
        {"queue_length", t.queue_length}, {"alpha", t.alpha}, {"beta", t.beta},
        {"max_no_progress", t.max_no_progress}, {"reward", t.reward}, {"penalty", t.penalty},
        {"f0_ratio", t.interesting_f0_ratio}, {"k", t.path_length},
        {"max_snapshots", t.max_snapshots},
        {"interesting", explore::ResolveInterestRule(t.interesting, device.HasCoverage())},
        {"restore", device.CanSnapshot() ? "snapshot" : "replay"}};
  }
  config.update(target.config);
  config["replay"] = target.replay;
  if (options.harness.Active()) config["harness"] = options.harness.ToJson();
  ROAM_RETURN_IF_ERROR(WriteFileAtomic(options.out / "config.json", config.dump(2) + "\n"));
  CampaignIo io;
  io.app = std::move(target.app);
  io.seed = options.seed;
  io.out_dir = options.out;
  io.replay_info = std::move(target.replay);
  io.progress = progress;
  io.progress_tty = progress_tty;
  io.stop = stop;
  io.fresh_device = std::move(target.fresh_device);
  Rng rng(options.seed);
  Campaign campaign(options.campaign, device, strategy, rng, std::move(io));
  auto summary = campaign.Run();
  if (const auto* harness = dynamic_cast<const explore::Harness*>(&strategy))
    ROAM_RETURN_IF_ERROR(WriteFileAtomic(options.out / "harness.json",
                                         harness->StatsJson().dump(2) + "\n"));
  return summary;
}

Result<ReplayOutcome> ReplayOn(device::Device& device, const report::BugRecord& bug,
                               const std::vector<report::TraceStep>& trace) {
  ReplayOutcome outcome;
  outcome.expected = bug.failure.signature;
  auto result = ReplayTrace(device, trace, outcome.expected, bug.replay.value("signature_frames", 3));
  if (!result.ok()) return result.status();
  outcome.result = std::move(*result);
  outcome.reproduced = outcome.result.reproduced;
  return outcome;
}

Result<report::Summary> Explore(const ExploreOptions& options, const std::atomic<bool>* stop,
                                std::FILE* progress, bool progress_tty) {
  if (options.campaign.max_events <= 0 && options.campaign.max_seconds <= 0)
    return Status::InvalidArgument("no budget: give --events N and/or --time SECONDS");
  if (!options.android.serial.empty()) return ExploreAndroid(options, stop, progress, progress_tty);
  auto spec = sim::LoadSpec(options.app);
  if (!spec.ok()) return spec.status();
  sim::SimOptions sim_options{.seed = options.seed, .bugs_off = ToSet(options.bugs_off)};
  explore::StrategySettings settings = options.strategy_settings;
  settings.spec = *spec;
  settings.sim = sim_options;
  // The simulator always reports coverage.
  settings.timetravel.interesting = explore::ResolveInterestRule(settings.timetravel.interesting, true);
  auto strategy = explore::WithHarness(explore::MakeStrategy(options.strategy, settings),
                                       options.harness);
  if (!strategy.ok()) return strategy.status();

  device::SimDeviceOptions dev_options{.snapshots = options.snapshots};
  device::SimDevice device(*spec, sim_options, dev_options);
  {
    std::vector<std::string> known;
    for (const auto& b : (*spec)->bugs()) known.push_back(b.id);
    ROAM_RETURN_IF_ERROR(CheckBugIds(options.bugs_off, known, options.app.string()));
  }
  ROAM_RETURN_IF_ERROR(PrepareOutDir(options.out, options.force));

  // The run folder keeps its own copy of the app, so bugs replay even if the file changes.
  auto spec_text = ReadFile(options.app);
  if (!spec_text.ok()) return spec_text.status();
  ROAM_RETURN_IF_ERROR(WriteFileAtomic(options.out / "app.json", *spec_text));

  CampaignTarget target;
  target.replay = {{"device", "sim"},
                   {"app", std::filesystem::absolute(options.app).string()},
                   {"app_copy", "../../app.json"},
                   {"bugs_off", options.bugs_off},
                   {"seed", options.seed},
                   {"signature_frames", options.campaign.crash.top_frames},
                   {"start", "clear"}};
  target.config = {{"app", options.app.string()},
                   {"package", device.Package()},
                   {"device", device.Name()},
                   {"bugs_off", options.bugs_off},
                   {"snapshots", options.snapshots}};
  target.app = options.app.string();
  std::shared_ptr<const sim::AppSpec> shared_spec = *spec;
  target.fresh_device = [shared_spec, sim_options,
                         dev_options]() -> Result<std::unique_ptr<device::Device>> {
    return std::unique_ptr<device::Device>(
        std::make_unique<device::SimDevice>(shared_spec, sim_options, dev_options));
  };
  return RunCampaign(options, device, **strategy, std::move(target), stop, progress, progress_tty);
}

Result<ReplayOutcome> ReplayBug(const std::filesystem::path& bug_dir) {
  if (IsFunctionalBugDir(bug_dir)) return ReplayFunctional(bug_dir);  // bugs/F<n> of `roam fuzz`
  auto bug = report::ReadBug(bug_dir);
  if (!bug.ok()) return bug.status();
  auto trace = report::ReadTrace(bug_dir / "trace.jsonl");
  if (!trace.ok()) return trace.status();
  auto device = ReplayDevice(bug->replay, bug_dir, (bug_dir / "bug.json").string());
  if (!device.ok()) return device.status();
  return ReplayOn(**device, *bug, *trace);
}

Result<std::unique_ptr<device::Device>> ReplayDevice(const json& replay,
                                                     const std::filesystem::path& bug_dir,
                                                     const std::string& where) {
  const std::string kind = replay.value("device", "");
  if (kind == "android") return OpenReplayAndroid(replay, where);
  if (kind != "sim")
    return Status::Unsupported(
        fmt::format("{}: replay on device \"{}\" is not supported", where, kind));
  // Prefer the run's own copy of the app.
  std::filesystem::path app = bug_dir / replay.value("app_copy", "../../app.json");
  std::error_code ec;
  if (!std::filesystem::exists(app, ec)) app = replay.value("app", "");
  auto spec = sim::LoadSpec(app);
  if (!spec.ok()) return spec.status();
  sim::SimOptions sim_options;
  sim_options.seed = replay.value("seed", uint64_t{1});
  for (const auto& id : replay.value("bugs_off", std::vector<std::string>{}))
    sim_options.bugs_off.insert(id);
  return std::unique_ptr<device::Device>(std::make_unique<device::SimDevice>(*spec, sim_options));
}

}  // namespace roam::run
