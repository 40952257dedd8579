// Shared set-ups of the run/ tests. Header-only; thread-compatible.
#pragma once

#include <cstdint>
#include <string>

#include "run/explore/explore.h"
#include "test_paths.h"

namespace roam::run {

// tests/apps/crashy.json explored by random for 2,000 events: enough to find its planted crash
// (open a note, tap Share) on every seed. The run folder is a fresh temporary one.
inline ExploreOptions CrashyRun(const std::string& out_name, uint64_t seed = 1) {
  ExploreOptions o;
  o.target.app = testing::SourceDir() / "tests/apps/crashy.json";
  o.seed = seed;
  o.out = testing::TempDir(out_name);
  o.budget.events = 2000;
  return o;
}

}  // namespace roam::run
