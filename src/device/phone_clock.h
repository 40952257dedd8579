// PhoneClockDevice: a device (the simulator) on a phone's clock. Every call costs what the same
// call of AndroidDevice costs on a phone with the chosen driver (android/phone_pace.h: the table
// `roam sim serve --pace phone` sleeps by), and the time between calls (the strategy's decision,
// the trace, the oracles) costs the CPU time the calling thread spent on it. Nothing sleeps: the
// run goes at the simulator's speed and clock() says how long a phone would have taken.
// Settling is charged as the driver settles (uia2's wait for idle after an input, or a second
// page source when the layout moved). Not charged: a dump tried again, a system dialog passed, the
// throttle, JaCoCo's dumps (30 ms every --coverage-every actions on a phone). One thread drives the
// device, as the run layer does; clock() may be read from any thread.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "device/android/phone_pace.h"
#include "device/android/uia2_driver.h"
#include "device/device.h"

namespace roam::device {

class PhoneClockDevice final : public Device {
 public:
  // `uia2`: the settling it charges with the uia2 driver (Uia2Settings::settle).
  PhoneClockDevice(std::unique_ptr<Device> inner, android::DriverKind driver,
                   const android::Uia2Settings& uia2 = {});

  // Seconds of a phone since the device was made.
  const Clock& clock() const { return clock_; }

  std::string Name() const override { return inner_->Name(); }
  std::string Package() const override { return inner_->Package(); }
  Status Launch() override;
  Status Stop() override;
  Status ClearData() override;
  Status Observe(gui::Screen& out) override;
  Status Perform(const gui::Action& action) override;
  void DrainEvents(std::vector<Event>& out) override { inner_->DrainEvents(out); }

  bool CanSnapshot() const override { return inner_->CanSnapshot(); }
  Status Snapshot(const std::string& name) override;
  Status Restore(const std::string& name) override;
  bool HasCoverage() const override { return inner_->HasCoverage(); }
  Coverage GetCoverage() const override { return inner_->GetCoverage(); }
  Coverage UpdateCoverage() override { return inner_->UpdateCoverage(); }
  std::optional<CoverageLink> CoverageHealth() const override { return inner_->CoverageHealth(); }
  std::vector<std::string> CoveredUnits() const override { return inner_->CoveredUnits(); }
  Result<std::string> CoverageExec() const override { return inner_->CoverageExec(); }
  std::vector<std::string> DeclaredActivities() const override {
    return inner_->DeclaredActivities();
  }
  std::vector<std::string> DeclaredBroadcasts() const override {
    return inner_->DeclaredBroadcasts();
  }
  std::vector<gui::DeclaredActivity> DeclaredIntentTargets() const override {
    return inner_->DeclaredIntentTargets();
  }
  DeviceLife Life() const override { return inner_->Life(); }
  Result<std::string> Screenshot(const std::optional<gui::Rect>& outline) override;

 private:
  class Ticks final : public Clock {
   public:
    double Now() const override { return static_cast<double>(ns_.load()) * 1e-9; }
    void Add(int64_t ns) { ns_ += ns; }

   private:
    std::atomic<int64_t> ns_ = 0;
  };

  // Runs `call` on the inner device, charging the host's CPU time since the last call and then
  // `phone_ms` for the call itself.
  template <typename Call>
  auto Charge(int phone_ms, Call call);

  std::unique_ptr<Device> inner_;
  android::PhoneCalls calls_;
  Ticks clock_;
  int64_t cpu_after_last_ = -1;  // the driving thread's CPU clock when the last call returned
  std::thread::id last_thread_;
  // As AndroidDevice knows it: whether `wm size` is read already, the last screen's geometry.
  bool size_known_ = false;
  bool acted_ = true;                // an action, a launch or a restore since the last observe
  std::optional<gui::Screen> last_;  // the last observed screen (settled by comparing reads)
  int input_ms_ = -1;  // what the input since the last observe cost (-1: none): idle comes after
  // The rotation before a rotate action not yet observed: a screen that did not turn (an
  // activity locked to portrait) was a rotation the UiAutomator2 server refused after polling.
  std::optional<int> rotated_from_;
  int width_ = 1080, height_ = 1920, rotation_ = 0;
  bool cleared_once_ = false;  // the first clear also turns the screen upright
};

}  // namespace roam::device
