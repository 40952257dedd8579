// An app spec: JSON parsed, compiled and checked, then launched once.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/files.h"
#include "sim/sim_app.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto doc = roam::ParseJson(text, "spec.json");
  if (!doc.ok()) return 0;
  auto spec = roam::sim::LoadSpecJson(*doc, "spec.json");
  if (!spec.ok()) return 0;
  roam::sim::SimApp app(*spec, {});
  app.Launch();
  return 0;
}
