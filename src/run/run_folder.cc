#include "run/run_folder.h"

#include <algorithm>
#include <set>
#include <string>

#include <fmt/format.h>

#include "base/files.h"
#include "report/summary.h"

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

Status CheckSideOutput(const std::filesystem::path& run_dir, const std::filesystem::path& output,
                       const std::vector<std::filesystem::path>& inputs, const char* flag) {
  if (output.empty()) return Status::Ok();
  ROAM_RETURN_IF_ERROR(CheckOutputPath(output).Wrap(flag));  // Wrap leaves Ok as it is
  ROAM_RETURN_IF_ERROR(CheckNotAnInput(output, inputs).Wrap(flag));
  const auto rel = PathInside(output, run_dir);
  // Only the run folder itself is made by the run; any other folder must be there already.
  if (!rel || std::distance(rel->begin(), rel->end()) > 1)
    ROAM_RETURN_IF_ERROR(CheckOutputFolder(output).Wrap(flag));
  if (!rel) return Status::Ok();
  static const std::set<std::string> kOwn = {
      "config.json", "summary.json", "trace.jsonl", "harness.json", "app.json", "progress.jsonl",
      "report.html", "llm.jsonl",    "bugs",        "model",        "images",   "coverage.exec"};
  if (kOwn.count(rel->begin()->string()))
    return Status::InvalidArgument(
        fmt::format("{} {}: is a file of the run folder {} itself; write it under another name",
                    flag, output.string(), run_dir.string()));
  return Status::Ok();
}

RunState ReadRunState(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(dir / "config.json", ec)) return RunState::kNone;
  auto summary = report::ReadSummary(dir / "summary.json");
  if (summary.ok() && !summary->stop_reason.empty() && summary->stop_reason != "running")
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

std::filesystem::path RunDirOfBug(const std::filesystem::path& bug_dir) {
  auto dir = bug_dir.lexically_normal();
  if (dir.filename().empty()) dir = dir.parent_path();  // "bugs/B1/"
  return dir.parent_path().parent_path();
}

Result<std::vector<std::filesystem::path>> BugFolders(const std::filesystem::path& run_dir) {
  const auto bugs = run_dir / "bugs";
  std::error_code ec;
  if (!std::filesystem::is_directory(bugs, ec))
    return Status::NotFound(run_dir.string() + ": neither a bug folder (no bug.json) nor a run " +
                            "folder (no bugs/)");
  // B before F before V, then by number.
  std::vector<std::pair<std::pair<char, long>, std::filesystem::path>> found;
  for (const auto& entry : std::filesystem::directory_iterator(bugs, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 2 || (name[0] != 'B' && name[0] != 'F' && name[0] != 'V')) continue;
    if (!std::filesystem::exists(entry.path() / "bug.json", ec)) continue;
    found.push_back({{name[0], std::strtol(name.c_str() + 1, nullptr, 10)}, entry.path()});
  }
  std::sort(found.begin(), found.end());
  std::vector<std::filesystem::path> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

}  // namespace roam::run
