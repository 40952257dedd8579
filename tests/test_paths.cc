#include "test_paths.h"

#include <unistd.h>

namespace roam::testing {

std::filesystem::path SourceDir() { return ROAM_SOURCE_DIR; }

std::filesystem::path RealDataDir() {
  if (const char* env = std::getenv("ROAM_REAL_DIR")) return env;
  std::filesystem::path p = SourceDir().parent_path() / "shared" / "real";
  std::error_code ec;
  return std::filesystem::is_directory(p, ec) ? p : std::filesystem::path();
}

std::string RoamBinary() { return ROAM_BINARY; }

std::filesystem::path TempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("roam_test_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace roam::testing
