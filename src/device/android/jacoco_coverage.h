// device/android/jacoco_coverage: code coverage of an app built with JaCoCo, read over adb while
// Roam drives it, either from the agent's TCP server through a port the adb server forwards
// (--coverage jacoco-tcp[:PORT], default 6300) or from the file the app writes when a shell
// command tells it to (--coverage jacoco-file:PATH with --coverage-trigger "am broadcast ...").
// Each dump is merged into the run's data: probes ORed by class, so an app restart (a fresh
// runtime, every probe zero) loses nothing the run covered. A covered probe is a code unit named
// "class#probe" ("org/app/Main#3"). Owned by the AndroidDevice it reads for; single-threaded.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "device/jacoco/exec_data.h"
#include "device/jacoco/exec_store.h"

namespace roam::device::jacoco {
class TcpDumper;
}

namespace roam::device::android {

struct CoverageSettings {
  enum class Mode { kNone, kJacocoTcp, kJacocoFile };
  Mode mode = Mode::kNone;
  int device_port = 6300;  // jacoco-tcp: the agent's port (its `port` option) on the device
  std::string file;        // jacoco-file: where the app writes its .ec file
  std::string trigger;     // jacoco-file: the shell command that makes the app write it
  // A dump after every `every` actions: each step by default, so time travel and dqn see each
  // action's new units. Through `roam sim serve` a dump costs about as much as a step (see
  // docs/coverage.md for the figures); raise it where a device is slow to answer.
  int every = 1;
};
// "jacoco-tcp", "jacoco-tcp:6300", "jacoco-file:/sdcard/coverage.ec". Errors name the flag.
Result<CoverageSettings> ParseCoverage(std::string_view flag);
// The settings once every flag is in: a trigger goes with jacoco-file only, and it needs one.
Status CheckCoverage(const CoverageSettings& settings);
// The flag's words again, for config.json ("jacoco-tcp:6300").
std::string CoverageName(const CoverageSettings& settings);

class JacocoCoverage {
 public:
  // The adb primitives it needs, from the device that owns it.
  struct Adb {
    std::function<Result<int>(int device_port)> forward;  // the local port that reaches it
    std::function<Result<std::string>(std::string_view command)> shell;
    std::function<Result<std::string>(const std::string& path)> pull;
  };
  JacocoCoverage(CoverageSettings settings, Adb adb, std::string adb_host);
  ~JacocoCoverage();

  // One dump merged in. An error leaves the data as it was and is counted; the caller goes on
  // (a dump the app cannot answer, as while it restarts, is a dropped dump, not a failed run).
  Status Dump();
  // Held compactly (exec_store.h): a run's data is read each step, and an app may load many
  // classes.
  const jacoco::ExecStore& data() const { return data_; }
  std::vector<std::string> CoveredUnits() const;
  int64_t dumps() const { return dumps_; }
  int64_t failures() const { return failures_; }
  const CoverageSettings& settings() const { return settings_; }

 private:
  Result<jacoco::ExecStore> DumpOnce();

  CoverageSettings settings_;
  Adb adb_;
  std::string host_;
  std::unique_ptr<jacoco::TcpDumper> dumper_;  // jacoco-tcp, once the forward is set up
  jacoco::ExecStore data_;
  int64_t dumps_ = 0, failures_ = 0;
};

}  // namespace roam::device::android
