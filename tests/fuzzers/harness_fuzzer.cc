// The harness files: the input is read as a strings file, and as JSON for a filters file and an
// actions file.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/files.h"
#include "explore/harness_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  (void)roam::explore::ParseStringsFile(text, "strings.txt");
  auto j = roam::ParseJson(text, "harness.json");
  if (!j.ok()) return 0;
  roam::explore::WidgetLists widgets;
  roam::explore::ActivityLists activities;
  (void)roam::explore::ParseFilters(*j, "filters.json", widgets, activities);
  (void)roam::explore::ParseScripts(*j, "actions.json");
  return 0;
}
