// SimDevice: the Device over an in-process SimApp. Snapshots are free (copies of the whole app
// state), coverage is exact, events come from the simulator's faults with their planted bug id.
// Not thread-safe: one per worker.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "device/device.h"
#include "draw/draw.h"
#include "sim/sim_app.h"

namespace roam::device {

struct SimDeviceOptions {
  bool snapshots = true;  // false: behave like a phone without snapshot support
};

class SimDevice final : public Device {
 public:
  SimDevice(std::shared_ptr<const sim::AppSpec> spec, sim::SimOptions sim_options,
            SimDeviceOptions options = {});
  ~SimDevice() override;

  std::string Name() const override;
  std::string Package() const override;
  Status Launch() override;
  Status Stop() override;
  Status ClearData() override;
  Status Observe(gui::Screen& out) override;
  Status Perform(const gui::Action& action) override;
  void DrainEvents(std::vector<Event>& out) override;

  bool CanSnapshot() const override { return options_.snapshots; }
  Status Snapshot(const std::string& name) override;
  Status Restore(const std::string& name) override;
  bool HasCoverage() const override { return true; }
  Coverage GetCoverage() const override;
  std::vector<std::string> CoveredUnits() const override;
  std::vector<std::string> DeclaredActivities() const override;
  std::vector<std::string> DeclaredBroadcasts() const override;
  std::vector<gui::DeclaredActivity> DeclaredIntentTargets() const override;
  // The screen drawn as a phone shows it (draw/draw.h), dialogs and menus over their page.
  Result<std::string> Screenshot(const std::optional<gui::Rect>& outline) override;

  // The screen without a copy, for the hot path of benchmarks and the step loop.
  const gui::Screen& CurrentScreen() { return app_.screen(); }
  sim::SimApp& app() { return app_; }

 private:
  sim::SimApp app_;
  SimDeviceOptions options_;
  std::map<std::string, std::unique_ptr<sim::SimState>> snapshots_;
};

// A simulated app's current screen as PNG: the page, and a dialog (dimming it) or a menu over it.
Result<std::string> DrawSimApp(sim::SimApp& app, const draw::DrawOptions& options = {});

// The text a device log would hold for an event (a logcat FATAL EXCEPTION block, an ANR line).
std::string FormatEventAsLog(const Event& event);

}  // namespace roam::device
