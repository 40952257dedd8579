// device/android/jacoco_coverage: code coverage of an app built with JaCoCo, read over adb while
// Roam drives it, either from the agent's TCP server through a port the adb server forwards
// (--coverage jacoco-tcp[:PORT], default 6300) or from the file the app writes when a shell
// command tells it to (--coverage jacoco-file:PATH with --coverage-trigger "am broadcast ...";
// PATH ending in '/' is a folder the app writes a new file into each time). A file in the app's
// private folder is read with `run-as PACKAGE cat`, as Android's Gradle plugin reads
// coverage.ec; any other with adb's sync protocol, and with run-as where that is refused.
// A file is this run's only if the trigger wrote it and its sessions started after the run did:
// Start removes what a run before left, each dump removes the file it read, and a dump that finds
// no file, or one older than the run, fails with the reason.
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
#include "device/device.h"
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
  std::string file;        // jacoco-file: where the app writes its .ec file (a folder: ends '/')
  std::string trigger;     // jacoco-file: the shell command that makes the app write it
  // A dump after every `every` actions; 0: the mode's (DumpEvery).
  int every = 0;
  // --coverage-required: a link whose first dump fails ends the run before it explores (a usage
  // error); without it the run goes on without coverage and says so.
  bool required = false;
  // --classfiles: the app's class files, of the build that runs; at the run's end JaCoCo's
  // analyzer gives line, branch and method figures from them (cli/class_coverage.h). The device
  // does not read them.
  std::vector<std::string> classfiles;
};
// "jacoco-tcp", "jacoco-tcp:6300", "jacoco-file:/sdcard/coverage.ec". Errors name the flag.
Result<CoverageSettings> ParseCoverage(std::string_view flag);
// The settings once every flag is in: a trigger goes with jacoco-file only, and it needs one.
Status CheckCoverage(const CoverageSettings& settings);
// The flag's words again, for config.json ("jacoco-tcp:6300").
std::string CoverageName(const CoverageSettings& settings);
// How many actions a dump comes after: settings.every, else the mode's. A TCP dump is an adb
// round trip (27 ms a step on `roam sim serve --pace phone`, against 1.12 s a step): after every
// action, so time travel and dqn see each action's new units. A file dump is a broadcast and a
// run-as (0.70-0.77 s): after every kFileDumpEvery actions it adds 23% to a step, not 63%
// (bench/coverage_dumps.sh).
inline constexpr int kFileDumpEvery = 3;
int DumpEvery(const CoverageSettings& settings);
// The package whose private folder holds `path` (/data/data/PKG/..., /data/user/N/PKG/...), ""
// for none: only that app, root and `run-as PKG` may open it.
std::string AppDataOwner(std::string_view path);

class JacocoCoverage {
 public:
  // The adb primitives it needs, from the device that owns it.
  struct Adb {
    std::function<Result<int>(int device_port)> forward;  // the local port that reaches it
    std::function<Status(int local_port)> remove_forward;
    std::function<Result<std::string>(std::string_view command)> shell;  // text
    std::function<Result<std::string>(std::string_view command)> exec;   // bytes (adb exec-out)
    std::function<Result<std::string>(const std::string& path)> pull;
  };
  JacocoCoverage(CoverageSettings settings, std::string package, Adb adb, std::string adb_host);
  ~JacocoCoverage();  // removes the forward it made

  // Before the run's first dump, in file mode: notes the phone's time (a file's sessions must
  // start after it) and removes what a run before left at the file's path.
  Status Start();
  // One dump merged in. An error leaves the data as it was and is counted; the caller goes on
  // (a dump the app cannot answer, as while it restarts, is a dropped dump, not a failed run).
  // After a failed tcp dump the forward is made again (an adb server that restarted forgot it).
  Status Dump();
  // Removes the forward (also done when destroyed).
  void Release();
  // Held compactly (exec_store.h): a run's data is read each step, and an app may load many
  // classes.
  const jacoco::ExecStore& data() const { return data_; }
  std::vector<std::string> CoveredUnits() const;
  // Dumps tried and failed, the last failure, what the data holds (`working` is the caller's).
  CoverageLink Link() const;
  const CoverageSettings& settings() const { return settings_; }

 private:
  Result<jacoco::ExecStore> DumpOnce();
  Result<jacoco::ExecStore> DumpFile();
  // The file's bytes, the file removed.
  Result<std::string> TakeDeviceFile(const std::string& path);
  Result<std::string> RunAs(const std::string& command);
  // A command as the user who may touch the file: the app's (run-as) in its private folder,
  // adb's shell elsewhere.
  Result<std::string> AsFileOwner(const std::string& command);
  Status RemoveDeviceFiles(const std::string& paths);  // shell words, quoted
  Result<std::vector<std::string>> ListFolder();       // file mode, a folder: the names in it
  Result<std::string> NewestInFolder();
  bool Private(const std::string& path) const { return AppDataOwner(path) == package_; }

  CoverageSettings settings_;
  std::string package_;
  Adb adb_;
  std::string host_;
  std::unique_ptr<jacoco::TcpDumper> dumper_;  // jacoco-tcp, once the forward is set up
  int local_port_ = 0;                         // ... the forward's port here
  jacoco::ExecStore data_;
  int64_t dumps_ = 0, failures_ = 0;
  std::string last_error_;
  int64_t run_start_ms_ = 0;  // file mode: the phone's time when Start ran (ms since 1970)
};

}  // namespace roam::device::android
