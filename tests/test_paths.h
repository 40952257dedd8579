// Where tests find the project's files and the shared real-world data.
// Plain functions, thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roam::testing {

std::filesystem::path SourceDir();
// ../shared/real beside the checkout; empty when absent (tests then GTEST_SKIP).
std::filesystem::path RealDataDir();
// The uiautomator dumps (.xml) under RealDataDir()/dumps, sorted; empty when absent.
std::vector<std::filesystem::path> RealDumps();
// The built `roam` binary.
std::string RoamBinary();
// A fresh, empty temporary directory for one test; removed when the test process exits with
// every test passed.
std::filesystem::path TempDir(const std::string& name);

struct CommandRun {
  int code = -1;    // the exit code; -1 when the command did not exit normally
  std::string out;  // what it printed on stdout
};
// apps/diary.json with `key` set to `value` on every screen, written as diary.json into
// TempDir(name): its path.
std::filesystem::path DiaryWithEveryScreen(const std::string& key, const nlohmann::json& value,
                                           const std::string& name);
// apps/diary.json with every screen locked to portrait ("orientation": "portrait"), written as
// locked.json into TempDir(name): its path.
std::filesystem::path DiaryLockedToPortrait(const std::string& name);

// Runs `command` through the shell.
CommandRun RunCommand(const std::string& command);
// Runs the built roam with `args`; out holds stdout and stderr together.
CommandRun RunRoam(const std::string& args);

}  // namespace roam::testing
