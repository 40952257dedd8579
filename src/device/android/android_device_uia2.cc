// AndroidDevice's UiAutomator2 driver: starting the server, bringing it back when it stops
// answering (or going on with uiautomator), observing through it, and the event-log stream
// that names the resumed activity without a dumpsys a step (android_device.h).
#include <fmt/format.h>

#include "device/android/android_device.h"
#include "gui/uiautomator.h"

namespace roam::device::android {

Status AndroidDevice::StartUia2() {
  if (options_.serial.empty())
    return Status::InvalidArgument("the uia2 driver forwards a port to one device: give --serial");
  uia2_.reset();
  Uia2Adb adb{.host = options_.host,
              .port = options_.port,
              .serial = options_.serial,
              .timeout_ms = options_.io_timeout_ms,
              .shell = [this](std::string_view command) { return Shell(command); },
              .install = [this](const std::string& apk) { return InstallApk(apk); }};
  auto driver = Uia2Driver::Start(adb, options_.uia2, [this](const std::string& m) { Note(m); });
  if (!driver.ok()) return driver.status();
  uia2_ = std::move(*driver);
  if (!events_.is_open()) return StartEvents();
  return Status::Ok();
}

Status AndroidDevice::StartEvents() {
  events_.Close();
  events_tail_.clear();
  auto s = Socket::Connect(options_.host, options_.port, options_.io_timeout_ms);
  if (!s.ok()) return s.status();
  ROAM_RETURN_IF_ERROR(Request(*s, TransportService(options_.serial)));
  std::string command = "logcat -b events -v threadtime";
  for (std::string_view tag : kResumeEventTags) command += fmt::format(" {}:I", tag);
  ROAM_RETURN_IF_ERROR(Request(*s, ShellService(command + " '*:S'")));
  events_ = std::move(*s);
  return Status::Ok();
}

void AndroidDevice::PumpEvents() {
  if (!events_.is_open()) {
    if (!StartEvents().ok()) return;
  }
  char buf[16 * 1024];
  while (events_.WaitReadable(0)) {
    auto n = events_.ReadSome(buf, sizeof buf);
    if (!n.ok() || *n == 0) {
      events_.Close();  // started again at the next call
      return;
    }
    events_tail_.append(buf, *n);
    size_t start = 0;
    for (size_t nl; (nl = events_tail_.find('\n', start)) != std::string::npos; start = nl + 1) {
      if (auto activity =
              ResumedActivity(std::string_view(events_tail_).substr(start, nl - start))) {
        resumed_ = std::move(*activity);
        ++resumes_;
      }
    }
    events_tail_.erase(0, start);
  }
}

bool AndroidDevice::RecoverUia2(const Status& failure) {
  if (!uia2_) return false;
  // An error the server gave (an element it could not find, a bad argument) is the step's; a
  // server that no longer answers, or lost its session, died.
  if (failure.code() != Status::Code::kUnavailable && uia2_->Alive()) return false;
  if (uia2_restarts_ >= options_.uia2.restarts) {
    uia2_.reset();
    driver_reason_ = fmt::format("the UiAutomator2 server died {} times ({})", uia2_restarts_ + 1,
                                 failure.message());
    Note(driver_reason_ + "; going on with uiautomator");
    return false;
  }
  ++uia2_restarts_;
  Note(fmt::format("the UiAutomator2 server stopped answering ({}); starting it again ({} of {})",
                   failure.message(), uia2_restarts_, options_.uia2.restarts));
  if (Status s = StartUia2(); !s.ok()) {
    driver_reason_ = "the UiAutomator2 server could not start again: " + s.message();
    Note(driver_reason_ + "; going on with uiautomator");
    return false;
  }
  return true;
}

Status AndroidDevice::ObserveUia2(gui::Screen& out, bool& fell_back) {
  auto xml = uia2_->PageSource();
  if (!xml.ok() && RecoverUia2(xml.status())) xml = uia2_->PageSource();
  if (!xml.ok()) {
    fell_back = !uia2_;
    return xml.status();
  }
  ROAM_RETURN_IF_ERROR(
      gui::ParseDumpInto(*xml, out).Wrap(Name() + ", the UiAutomator2 page source"));
  PumpEvents();
  Focus focus{.package = "", .activity = resumed_};
  if (resumed_.empty()) {  // until the stream has said something, dumpsys tells
    if (auto activities = Shell(options_.focus_command); activities.ok())
      focus = ParseFocus(*activities);
  }
  if (out.widgets.empty() || out.package.empty()) out.package = focus.package;
  out.activity = focus.activity;
  rotation_ = out.rotation;
  observed_size_ = std::make_pair(out.width, out.height);
  return Status::Ok();
}

}  // namespace roam::device::android
