#include "run/run_folder.h"

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"

namespace roam::run {

namespace {
constexpr const char* kRunFiles[] = {"config.json", "summary.json", "trace.jsonl", "harness.json"};
}  // namespace

Status PrepareOutDir(const std::filesystem::path& dir, bool force) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec)) {
    if (!std::filesystem::is_directory(dir, ec))
      return Status::InvalidArgument(dir.string() + ": exists and is not a folder");
    bool holds_run = false;
    for (const char* f : kRunFiles) holds_run |= std::filesystem::exists(dir / f, ec);
    if (holds_run && !force)
      return Status::InvalidArgument(
          fmt::format("{} holds an earlier run; pass --force to replace it or choose another --out",
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

RunState ReadRunState(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(dir / "config.json", ec)) return RunState::kNone;
  auto summary = ReadJsonFile(dir / "summary.json");
  std::string reason = "running";
  if (summary.ok() && ReadField(*summary, "stop_reason", reason, "summary.json").ok() &&
      reason != "running")
    return RunState::kFinished;
  return RunState::kUnfinished;
}

Status OpenRunFolder(const RunOptions& options, const Target& target, nlohmann::json config) {
  ROAM_RETURN_IF_ERROR(PrepareOutDir(options.out, options.force));
  ROAM_RETURN_IF_ERROR(target.CopyApp(options.out));
  config["seed"] = options.seed;
  config["events"] = options.budget.events;
  config["time"] = options.budget.seconds;
  config.update(target.config());
  config["replay"] = ReplaySpecToJson(target.replay());
  return WriteJsonFile(options.out / "config.json", config);
}

}  // namespace roam::run
