// The uiautomator driver (screen_driver.h): each step is shell commands on the device, each a
// process there. The screen from `uiautomator dump /dev/tty` (tried again, then dumped into a file
// and pulled), the focused activity from `dumpsys window` in the same shell line, the display's
// size from `wm size` once (again after a rotation or a restore), inputs with `input`, `am` and
// `settings`, screenshots with `screencap -p`.
#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "base/json_fields.h"
#include "device/android/screen_driver.h"
#include "device/android/shell_escape.h"
#include "device/android/uia2_protocol.h"
#include "draw/draw.h"
#include "gui/uiautomator.h"

namespace roam::device::android {

namespace {

void SleepMs(int ms) {
  if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

class ShellDriver final : public ScreenDriver {
 public:
  explicit ShellDriver(DriverHost host) : host_(std::move(host)), o_(*host_.options) {}

  DriverKind kind() const override { return DriverKind::kUiautomator; }
  Status Observe(gui::Screen& out) override;
  Status Perform(const DeviceInput& input) override;
  Result<std::string> Screenshot() override;
  Status AwaitLaunch(const std::function<Status()>& launch) override;
  void ScreenChanged() override { size_.reset(); }

 private:
  Result<std::string> DumpXml(std::string& focus_text);
  Result<std::pair<int, int>> ScreenSize();

  DriverHost host_;
  const AndroidDeviceOptions& o_;
  std::optional<std::pair<int, int>> size_;  // `wm size`, portrait
  bool released_uiautomation_ = false;       // a UiAutomator2 server that held it was stopped once
};

Result<std::string> ShellDriver::DumpXml(std::string& focus_text) {
  std::string last;
  for (int attempt = 0; attempt < o_.dump_attempts; ++attempt) {
    auto out = host_.shell(DumpCommand(attempt > 0, o_.focus_command));
    if (!out.ok()) return out.status();
    if (auto xml = ExtractDump(*out)) {
      size_t end = static_cast<size_t>(xml->data() - out->data()) + xml->size();
      focus_text = out->substr(end);
      return std::string(*xml);
    }
    last = *out;
    if (UiAutomationTaken(*out) && !released_uiautomation_) {
      // A UiAutomator2 server (another tool's, or one that stopped answering) holds the
      // connection: stop it, as Appium's driver stops its leftovers, and dump again.
      released_uiautomation_ = true;
      host_.note(
          "uiautomator dump: a UiAutomator2 server holds the device's UiAutomation connection; "
          "stopping it");
      host_.shell(Uia2StopCommand()).ok();
      continue;
    }
    if (!DumpWorthRetrying(*out)) break;
    SleepMs(o_.dump_retry_wait_ms);
  }
  // Fallback: dump into a file and pull it.
  auto out = host_.shell(
      fmt::format("uiautomator dump {};{}", ShellQuote(o_.dump_file), o_.focus_command));
  if (!out.ok()) return out.status();
  if (auto pulled = host_.pull(o_.dump_file); pulled.ok()) {
    if (auto xml = ExtractDump(*pulled)) {
      focus_text = *out;
      return std::string(*xml);
    }
  }
  std::string shown = last.substr(0, 200);
  while (!shown.empty() && (shown.back() == '\n' || shown.back() == ' ')) shown.pop_back();
  return Status::Unavailable(
      fmt::format("uiautomator dump failed after {} tries: \"{}\"", o_.dump_attempts, shown));
}

Result<std::pair<int, int>> ShellDriver::ScreenSize() {
  if (!size_) {
    auto out = host_.shell("wm size");
    if (!out.ok()) return out.status();
    size_ = ParseWmSize(*out);
    if (!size_) return Status::Corruption(fmt::format("wm size: \"{}\"", *out));
  }
  return *size_;
}

Status ShellDriver::Observe(gui::Screen& out) {
  std::string focus_text;
  auto xml = DumpXml(focus_text);
  if (!xml.ok()) {
    out.Clear();
    return xml.status();
  }
  ROAM_RETURN_IF_ERROR(gui::ParseDumpInto(*xml, out));
  Focus focus = ParseFocus(focus_text);
  if (focus.package.empty()) {
    auto activities = host_.shell("dumpsys activity activities");
    if (activities.ok()) focus = ParseFocus(*activities);
  }
  if (out.widgets.empty() || out.package.empty()) out.package = focus.package;
  out.activity = focus.activity;
  if (auto size = ScreenSize(); size.ok()) {
    out.width = out.rotation % 2 == 0 ? size->first : size->second;
    out.height = out.rotation % 2 == 0 ? size->second : size->first;
  }
  return Status::Ok();
}

Status ShellDriver::Perform(const DeviceInput& input) {
  size_t dropped = 0;
  auto lines = InputCommands(input, o_.package, &dropped);
  if (!lines.ok()) return lines.status();
  if (dropped > 0)
    host_.note(
        fmt::format("input text cannot type {} non-ASCII or control character(s) of \"{}\"; "
                    "they were left out",
                    dropped, Excerpt(input.text)));
  for (const auto& line : *lines) {
    auto out = host_.shell(line);
    if (!out.ok()) return out.status();
    if (out->find("inaccessible or not found") != std::string::npos)
      return Status::Unsupported(Excerpt(*out, 200));
    if (input.kind == DeviceInput::Kind::kBroadcast && BroadcastRefused(*out)) {
      // Sent, not delivered: the step stands, and the broadcast is offered no more.
      host_.broadcast_refused(input.text);
      host_.note(
          fmt::format("Android refused to send {} from the shell (only the system may send it; "
                      "`adb root` on an emulator lets Roam send it); not sent again",
                      input.text));
    }
    if (input.kind == DeviceInput::Kind::kIntent) {
      // `am start` exits 0 whatever happened: its text says whether the activity started.
      const StartAnswer answer = ParseStartAnswer(*out);
      Status started = StartStatus(answer, input.intent);
      if (!started.ok()) {
        if (host_.intent_refused) host_.intent_refused(input.intent, answer);
        return started;
      }
    }
  }
  if (input.kind == DeviceInput::Kind::kRotate) size_.reset();  // read again after rotating
  return Status::Ok();
}

Result<std::string> ShellDriver::Screenshot() {
  auto png = host_.exec("screencap -p");
  if (!png.ok()) return png.status().Wrap("screencap");
  if (!draw::IsPng(*png)) {
    std::string msg = png->substr(0, 200);
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == '\r')) msg.pop_back();
    return Status::Unsupported(fmt::format("screencap gave no PNG: \"{}\"", msg));
  }
  return png;
}

Status ShellDriver::AwaitLaunch(const std::function<Status()>& launch) {
  ROAM_RETURN_IF_ERROR(launch());
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(o_.launch_timeout_ms);
  while (o_.launch_timeout_ms > 0) {
    auto focus = host_.shell(o_.focus_command);
    if (!focus.ok()) return focus.status();
    if (ParseFocus(*focus).package == o_.package) break;
    if (std::chrono::steady_clock::now() >= deadline) break;  // the campaign sees where it is
    SleepMs(o_.launch_poll_ms);
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<ScreenDriver>> StartShellDriver(const DriverHost& host) {
  return std::unique_ptr<ScreenDriver>(new ShellDriver(host));
}

}  // namespace roam::device::android
