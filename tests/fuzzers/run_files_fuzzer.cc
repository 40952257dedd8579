// The files of a run folder that `roam report`, `roam replay` and --known read back:
// summary.json and bugs/B1/bug.json, the input cut at its first NUL byte (JSON holds none),
// written to a scratch folder and read as those commands read them.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "base/files.h"
#include "report/run_report.h"
#include "report/summary.h"
#include "report/verdict.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace fs = std::filesystem;
  static const fs::path dir =
      fs::temp_directory_path() / ("roam-fuzz-run-" + std::to_string(::getpid()));
  static const bool made = fs::create_directories(dir / "bugs/B1");
  (void)made;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const size_t cut = std::min(text.find('\0'), text.size());
  const std::string_view bug = cut < text.size() ? text.substr(cut + 1) : std::string_view();
  if (!roam::WriteFileAtomic(dir / "summary.json", std::string(text.substr(0, cut))).ok() ||
      !roam::WriteFileAtomic(dir / "bugs/B1/bug.json", std::string(bug)).ok())
    return 0;
  (void)roam::report::RunReportHtml(dir);
  (void)roam::report::ReadBug(dir / "bugs/B1");
  (void)roam::report::BugSignature(dir / "bugs/B1");
  (void)roam::report::KnownBugs::Read(dir / "summary.json");
  return 0;
}
