// Shared set-ups of the run/ tests. Header-only; thread-compatible.
#pragma once

#include <cstdint>
#include <string>

#include "device/device.h"
#include "run/explore/explore.h"
#include "test_paths.h"

namespace roam::run {

// A device that does what `inner` does: a test overrides the call it changes (Perform, say).
class ForwardingDevice : public device::Device {
 public:
  explicit ForwardingDevice(device::Device& inner) : inner_(inner) {}
  std::string Name() const override { return inner_.Name(); }
  std::string Package() const override { return inner_.Package(); }
  Status Launch() override { return inner_.Launch(); }
  Status Stop() override { return inner_.Stop(); }
  Status ClearData() override { return inner_.ClearData(); }
  Status Observe(gui::Screen& out) override { return inner_.Observe(out); }
  Status Perform(const gui::Action& action) override { return inner_.Perform(action); }
  void DrainEvents(std::vector<device::Event>& out) override { inner_.DrainEvents(out); }
  device::DeviceLife Life() const override { return inner_.Life(); }

 protected:
  device::Device& inner_;
};

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
