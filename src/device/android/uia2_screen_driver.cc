// The uia2 driver (screen_driver.h): Appium's UiAutomator2 server (uia2_driver.h) reads the page
// source and acts; the resumed activity comes from one `logcat -b events` stream, so a step
// starts no process on the device (a `dumpsys` only until the stream has named an activity).
#include <chrono>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "device/android/logcat.h"
#include "device/android/screen_driver.h"
#include "device/android/uia2_driver.h"
#include "device/android/uia2_protocol.h"
#include "draw/draw.h"
#include "gui/uiautomator.h"

namespace roam::device::android {

namespace {

class Uia2ScreenDriver final : public ScreenDriver {
 public:
  Uia2ScreenDriver(DriverHost host, std::unique_ptr<Uia2Driver> server)
      : host_(std::move(host)), o_(*host_.options), server_(std::move(server)) {}
  ~Uia2ScreenDriver() override { events_.Close(); }

  DriverKind kind() const override { return DriverKind::kUia2; }
  Status Observe(gui::Screen& out) override;
  bool Takes(const DeviceInput& input) const override { return !ShellOnly(input); }
  Status Perform(const DeviceInput& input) override {
    acted_ = true;
    return server_->Perform(input);
  }
  Result<std::string> Screenshot() override;
  Status AwaitLaunch(const std::function<Status()>& launch) override;
  std::string Describe() const override {
    return fmt::format("the UiAutomator2 server {} answers on 127.0.0.1:{}", server_->version(),
                       server_->local_port());
  }
  bool Alive() override { return server_->Alive(); }
  int64_t retries() const override { return server_->retries(); }
  void ScreenChanged() override { acted_ = true; }

  Status StartEvents();

 private:
  void PumpEvents();
  // The page source, read again until it settles when an action came since the last read
  // (Uia2Settings::settle).
  Status ReadSettled(gui::Screen& out);

  DriverHost host_;
  const AndroidDeviceOptions& o_;
  std::unique_ptr<Uia2Driver> server_;
  Socket events_;                    // `logcat -b events` of resumes
  std::string events_tail_;          // its partial last line
  std::string resumed_;              // the activity last resumed, fully qualified ("" unknown)
  int64_t resumes_ = 0;              // resume lines read
  bool acted_ = true;                // an action (or a launch) since the last page source
  std::optional<gui::Screen> last_;  // the last page source read (none after a restart)
};

Status Uia2ScreenDriver::StartEvents() {
  events_.Close();
  events_tail_.clear();
  auto s = Socket::Connect(o_.host, o_.port, o_.io_timeout_ms);
  if (!s.ok()) return s.status();
  ROAM_RETURN_IF_ERROR(Request(*s, TransportService(o_.serial)));
  std::string command = "logcat -b events -v threadtime";
  for (std::string_view tag : kResumeEventTags) command += fmt::format(" {}:I", tag);
  ROAM_RETURN_IF_ERROR(Request(*s, ShellService(command + " '*:S'")));
  events_ = std::move(*s);
  return Status::Ok();
}

void Uia2ScreenDriver::PumpEvents() {
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

Status Uia2ScreenDriver::ReadSettled(gui::Screen& out) {
  auto read = [&](gui::Screen& into) -> Status {
    auto xml = server_->PageSource();
    if (!xml.ok()) return xml.status();
    return gui::ParseDumpInto(*xml, into).Wrap("the UiAutomator2 page source");
  };
  ROAM_RETURN_IF_ERROR(read(out));
  const Uia2Settings& s = o_.uia2;
  // Settled by the server's wait for idle, or not at all: the read stands.
  if (s.settle != Uia2Settings::Settle::kCompare || s.settle_ms <= 0) return Status::Ok();
  const bool moved = acted_ && !(last_ && SameLayout(*last_, out));
  acted_ = false;
  // Nothing moved since the screen before the action: no transition to wait for.
  if (!moved) {
    last_ = out;
    return Status::Ok();
  }
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(s.settle_ms);
  gui::Screen again;
  while (Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(s.settle_poll_ms));
    ROAM_RETURN_IF_ERROR(read(again));
    const bool settled = SameLayout(out, again);
    std::swap(out, again);  // the newest read is the screen
    if (settled) break;
  }
  last_ = out;
  return Status::Ok();
}

Status Uia2ScreenDriver::Observe(gui::Screen& out) {
  ROAM_RETURN_IF_ERROR(ReadSettled(out));
  PumpEvents();
  Focus focus{.package = "", .activity = resumed_};
  if (resumed_.empty()) {  // until the stream has said something, dumpsys tells
    if (auto activities = host_.shell(o_.focus_command); activities.ok())
      focus = ParseFocus(*activities);
  }
  if (out.widgets.empty() || out.package.empty()) out.package = focus.package;
  out.activity = focus.activity;
  return Status::Ok();
}

Result<std::string> Uia2ScreenDriver::Screenshot() {
  auto png = server_->Screenshot();
  if (png.ok() && !draw::IsPng(*png))
    return Status::Corruption("UiAutomator2 server, GET /screenshot: not a PNG");
  return png;
}

Status Uia2ScreenDriver::AwaitLaunch(const std::function<Status()>& launch) {
  // What the events stream said before the launch, so that only a resume after it counts (a
  // launcher resumed by an earlier kill does not), and whether the app is in front already (its
  // last resumed activity in its package: a launch then resumes nothing new).
  PumpEvents();
  acted_ = true;
  const int64_t before = resumes_;
  const bool in_front = resumed_.starts_with(o_.package + ".");
  ROAM_RETURN_IF_ERROR(launch());
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(o_.launch_timeout_ms);
  // The app's resume comes down the events stream: no `dumpsys` a poll.
  while (!in_front && o_.launch_timeout_ms > 0 && std::chrono::steady_clock::now() < deadline) {
    PumpEvents();
    if (resumes_ > before) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(o_.launch_poll_ms / 4 + 1));
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<ScreenDriver>> StartUia2ScreenDriver(const DriverHost& host) {
  const AndroidDeviceOptions& o = *host.options;
  if (o.serial.empty())
    return Status::InvalidArgument("the uia2 driver forwards a port to one device: give --serial");
  Uia2Adb adb{.host = o.host,
              .port = o.port,
              .serial = o.serial,
              .timeout_ms = o.io_timeout_ms,
              .shell = host.shell,
              .install = host.install};
  auto server = Uia2Driver::Start(adb, o.uia2, host.note);
  if (!server.ok()) return server.status();
  auto driver = std::make_unique<Uia2ScreenDriver>(host, std::move(*server));
  ROAM_RETURN_IF_ERROR(driver->StartEvents());
  return std::unique_ptr<ScreenDriver>(std::move(driver));
}

}  // namespace roam::device::android
