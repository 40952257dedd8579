#include "test_paths.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <gtest/gtest.h>

#include "base/files.h"

namespace roam::testing {

namespace {

// The folders TempDir made in this process, removed when it exits with every test passed (kept
// to look at when one failed). Each ctest run left about 1 GB in /tmp before.
struct MadeDirs {
  std::mutex mu;
  std::vector<std::filesystem::path> dirs;
  pid_t owner = ::getpid();  // a death test's child exits too: it leaves them to its parent
};
MadeDirs& Made() {
  static auto* made = new MadeDirs;  // never destroyed: read at exit
  return *made;
}
void RemoveMadeDirs() {
  MadeDirs& made = Made();
  if (::getpid() != made.owner || !::testing::UnitTest::GetInstance()->Passed()) return;
  std::error_code ec;
  for (const auto& dir : made.dirs) std::filesystem::remove_all(dir, ec);
}

}  // namespace

std::filesystem::path SourceDir() { return ROAM_SOURCE_DIR; }

std::filesystem::path RealDataDir() {
  if (const char* env = std::getenv("ROAM_REAL_DIR")) return env;
  std::filesystem::path p = SourceDir().parent_path() / "shared" / "real";
  std::error_code ec;
  return std::filesystem::is_directory(p, ec) ? p : std::filesystem::path();
}

std::vector<std::filesystem::path> RealDumps() {
  std::vector<std::filesystem::path> out;
  const std::filesystem::path dir = RealDataDir();
  std::error_code ec;
  if (dir.empty() || !std::filesystem::is_directory(dir / "dumps", ec)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir / "dumps"))
    if (e.is_regular_file() && e.path().extension() == ".xml") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string RoamBinary() { return ROAM_BINARY; }

std::filesystem::path TempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("roam_test_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  MadeDirs& made = Made();
  std::lock_guard lock(made.mu);
  if (made.dirs.empty()) std::atexit(RemoveMadeDirs);
  made.dirs.push_back(dir);
  return dir;
}

CommandRun RunCommand(const std::string& command) {
  CommandRun r;
  std::FILE* p = ::popen(command.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::filesystem::path DiaryWithEveryScreen(const std::string& key, const nlohmann::json& value,
                                           const std::string& name) {
  auto doc = ReadJsonFile(SourceDir() / "apps/diary.json");
  EXPECT_TRUE(doc.ok()) << doc.status().message();
  if (!doc.ok()) return {};
  for (auto& screen : (*doc)["screens"]) screen[key] = value;
  const auto app = TempDir(name) / "diary.json";
  Status written = WriteJsonFile(app, *doc);
  EXPECT_TRUE(written.ok()) << written.message();
  return app;
}

std::filesystem::path DiaryLockedToPortrait(const std::string& name) {
  return DiaryWithEveryScreen("orientation", "portrait", name);
}

CommandRun RunRoam(const std::string& args) {
  return RunCommand(RoamBinary() + " " + args + " 2>&1");
}

}  // namespace roam::testing
