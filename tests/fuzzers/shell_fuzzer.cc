// A command line for the simulated device's shell: parsed with sh's rules, then run on a small
// app (input, am, pm, logcat -d, echo, ls, uiautomator dump...).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "serve/sim_shell.h"
#include "sim/sim_app.h"

namespace {

std::shared_ptr<const roam::sim::AppSpec> CrashyApp() {
  static const auto spec = [] {
    auto loaded = roam::sim::LoadSpec(ROAM_SOURCE_DIR "/tests/apps/crashy.json");
    return loaded.ok() ? *loaded : nullptr;
  }();
  return spec;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string line(reinterpret_cast<const char*>(data), size);
  (void)roam::serve::ParseShellScript(line);
  if (auto spec = CrashyApp()) {
    roam::serve::SimAndroidDevice device("emulator-5554", spec, {}, 0);
    (void)device.RunShell(line);
  }
  return 0;
}
