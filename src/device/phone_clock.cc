#include "device/phone_clock.h"

#include <time.h>

#include <utility>

#include "device/android/screen_driver.h"

namespace roam::device {

namespace {

int64_t ThreadCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

constexpr int64_t kNsPerMs = 1000000;

}  // namespace

PhoneClockDevice::PhoneClockDevice(std::unique_ptr<Device> inner, android::DriverKind driver,
                                   const android::Uia2Settings& uia2)
    : inner_(std::move(inner)) {
  calls_.driver = driver;
  calls_.settle_compare = uia2.settle == android::Uia2Settings::Settle::kCompare;
  calls_.settle_idle = uia2.settle == android::Uia2Settings::Settle::kIdle;
  calls_.settle_poll_ms = uia2.settle_poll_ms;
  calls_.package = inner_->Package();
}

template <typename Call>
auto PhoneClockDevice::Charge(int phone_ms, Call call) {
  // CPU clocks are per thread: time between calls counts only while one thread drives.
  if (cpu_after_last_ >= 0 && std::this_thread::get_id() == last_thread_)
    clock_.Add(ThreadCpuNs() - cpu_after_last_);
  clock_.Add(int64_t{phone_ms} * kNsPerMs);
  auto result = call();
  cpu_after_last_ = ThreadCpuNs();
  last_thread_ = std::this_thread::get_id();
  return result;
}

Status PhoneClockDevice::Launch() {
  acted_ = true;
  return Charge(calls_.LaunchMs(), [&] { return inner_->Launch(); });
}

Status PhoneClockDevice::Stop() {
  return Charge(calls_.StopMs(), [&] { return inner_->Stop(); });
}

Status PhoneClockDevice::ClearData() {
  const bool turn = rotation_ != 0 || !cleared_once_;
  cleared_once_ = true;
  rotation_ = 0;
  return Charge(calls_.ClearDataMs(turn), [&] { return inner_->ClearData(); });
}

Status PhoneClockDevice::Observe(gui::Screen& out) {
  const int size_ms = size_known_ ? 0 : calls_.ScreenSizeMs();
  size_known_ = true;
  // Whether the layout moved is known once the screen is read; the second page source that
  // settling reads is charged after it.
  const int idle_ms = input_ms_ >= 0 ? calls_.IdleWaitMs(input_ms_) : 0;
  input_ms_ = -1;
  Status s =
      Charge(calls_.ObserveMs(false) + size_ms + idle_ms, [&] { return inner_->Observe(out); });
  if (s.ok() && calls_.settle_compare) {  // only comparing reads keeps the screen before
    if (acted_ && !(last_ && android::SameLayout(*last_, out)))
      clock_.Add(int64_t{calls_.ObserveMs(true) - calls_.ObserveMs(false)} * kNsPerMs);
    last_ = out;
  }
  acted_ = false;
  if (rotated_from_ && s.ok() && calls_.driver == android::DriverKind::kUia2 &&
      out.rotation == *rotated_from_) {
    // Refused: POST /orientation answered 400 only after the server's polling.
    clock_.Add(int64_t{android::kRotationRefusalMs -
                       android::PhoneUia2RequestMs("POST", "/orientation", 0)} *
               kNsPerMs);
  }
  rotated_from_.reset();
  if (s.ok() && out.width > 0 && out.height > 0) {
    width_ = out.width;
    height_ = out.height;
    rotation_ = out.rotation;
  }
  return s;
}

Status PhoneClockDevice::Perform(const gui::Action& action) {
  int ms = size_known_ ? 0 : calls_.ScreenSizeMs();
  size_known_ = true;
  // The input the action becomes decides its cost; an action that has none fails below.
  if (auto input = android::PlanAction(action, width_, height_, rotation_, {}); input.ok())
    ms += calls_.PerformMs(*input);
  input_ms_ = ms;
  if (action.kind == gui::ActionKind::kRotate) {
    size_known_ = false;
    rotated_from_ = rotation_;
  }
  acted_ = true;
  return Charge(ms, [&] { return inner_->Perform(action); });
}

Status PhoneClockDevice::Snapshot(const std::string& name) {
  return Charge(calls_.SnapshotMs(), [&] { return inner_->Snapshot(name); });
}

Status PhoneClockDevice::Restore(const std::string& name) {
  size_known_ = false;
  acted_ = true;
  return Charge(calls_.RestoreMs(), [&] { return inner_->Restore(name); });
}

Result<std::string> PhoneClockDevice::Screenshot(const std::optional<gui::Rect>& outline) {
  return Charge(calls_.ScreenshotMs(), [&] { return inner_->Screenshot(outline); });
}

}  // namespace roam::device
