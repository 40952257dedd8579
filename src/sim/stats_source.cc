// MeasurePath: which reader a path needs (spec, recording, dumps), then its figures.
#include <algorithm>

#include <fmt/format.h>

#include "base/files.h"
#include "gui/uiautomator.h"
#include "sim/sim_app.h"
#include "sim/stats.h"

namespace roam::sim {
namespace {

namespace fs = std::filesystem;

Result<AppStats> MeasureDumps(const std::vector<fs::path>& files, const std::string& source) {
  std::vector<gui::Screen> screens;
  for (const fs::path& file : files) {
    auto text = ReadFile(file);
    if (!text.ok()) return text.status();
    auto screen = gui::ParseDump(*text);
    if (!screen.ok()) return screen.status().Wrap(file.string());
    screens.push_back(std::move(*screen));
  }
  return StatsOfScreens(screens, "", source);
}

}  // namespace

Result<AppStats> MeasurePath(const fs::path& path, const WalkOptions& options) {
  std::error_code ec;
  std::string source = path.string();
  if (fs::is_directory(path, ec)) {
    if (fs::exists(path / "utg.js", ec) || fs::exists(path / "output" / "utg.js", ec)) {
      auto rec = ReadRecording(path);
      if (!rec.ok()) return rec.status();
      return StatsOfGraph(GraphOfRecording(*rec), source, "recording");
    }
    if (fs::exists(path / "utg.yaml", ec))
      return Status::Unsupported(source +
                                 ": an AutoDroid utg.yaml; YAML is not read (no YAML "
                                 "library among Roam's dependencies)");
    std::vector<fs::path> dumps;
    for (const auto& e : fs::recursive_directory_iterator(path, ec))
      if (e.path().extension() == ".xml") dumps.push_back(e.path());
    if (dumps.empty())
      return Status::NotFound(source + ": neither a utg.js nor uiautomator dumps (*.xml) here");
    std::sort(dumps.begin(), dumps.end());
    return MeasureDumps(dumps, source);
  }
  if (!fs::exists(path, ec)) return Status::NotFound(source + ": no such file");
  std::string ext = path.extension().string();
  if (path.filename() == "utg.js") {
    auto rec = ReadRecording(path);
    if (!rec.ok()) return rec.status();
    return StatsOfGraph(GraphOfRecording(*rec), source, "recording");
  }
  if (ext == ".xml") return MeasureDumps({path}, source);
  if (ext == ".yaml" || ext == ".yml")
    return Status::Unsupported(source +
                               ": YAML is not read (no YAML library among Roam's "
                               "dependencies)");
  if (ext != ".json")
    return Status::InvalidArgument(
        source + ": expected an app spec (.json), a utg.js, a dump (.xml) or a folder of these");
  auto spec = LoadSpec(path);
  if (!spec.ok()) return spec.status();
  return StatsOfGraph(WalkSpec(*spec, options), source, "spec");
}

}  // namespace roam::sim
