// A recorded exploration as `roam sim import` reads it (DroidBot's or Kea's utg.js, one event
// file and one state file), the input cut at its first two NUL bytes, written to a scratch
// folder, read, imported and the spec checked as the command does.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "base/files.h"
#include "sim/import.h"
#include "sim/recording.h"
#include "sim/sim_app.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace fs = std::filesystem;
  static const fs::path dir =
      fs::temp_directory_path() / ("roam-fuzz-import-" + std::to_string(::getpid()));
  static const bool made =
      fs::create_directories(dir / "events") && fs::create_directories(dir / "states");
  (void)made;
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::string parts[3];
  for (std::string& part : parts) {
    const size_t cut = std::min(rest.find('\0'), rest.size());
    part = rest.substr(0, cut);
    rest = cut < rest.size() ? rest.substr(cut + 1) : std::string_view();
  }
  if (!roam::WriteFileAtomic(dir / "utg.js", parts[0]).ok() ||
      !roam::WriteFileAtomic(dir / "events/event_1.json", parts[1]).ok() ||
      !roam::WriteFileAtomic(dir / "states/state_1.json", parts[2]).ok())
    return 0;
  auto recording = roam::sim::ReadRecording(dir);
  if (!recording.ok()) return 0;
  roam::sim::ImportStats stats;
  auto spec = roam::sim::ImportRecording(*recording, "fuzzed", stats);
  if (spec.ok()) (void)roam::sim::LoadSpecJson(*spec, "fuzzed.json");
  return 0;
}
