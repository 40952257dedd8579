#include "device/android/screen_driver.h"

#include <fmt/format.h>

namespace roam::device::android {

namespace {

struct DriverStart {
  DriverKind kind;
  Result<std::unique_ptr<ScreenDriver>> (*start)(const DriverHost& host);
};
constexpr DriverStart kStarts[] = {{DriverKind::kUiautomator, &StartShellDriver},
                                   {DriverKind::kUia2, &StartUia2ScreenDriver}};

}  // namespace

bool SameLayout(const gui::Screen& a, const gui::Screen& b) {
  if (a.widgets.size() != b.widgets.size() || a.rotation != b.rotation) return false;
  for (size_t i = 0; i < a.widgets.size(); ++i) {
    const gui::Widget &x = a.widgets[i], &y = b.widgets[i];
    if (x.cls != y.cls || x.resource_id != y.resource_id || !(x.bounds == y.bounds) ||
        x.parent != y.parent || x.enabled != y.enabled || x.checked != y.checked ||
        x.displayed != y.displayed)
      return false;
  }
  return true;
}

Result<std::unique_ptr<ScreenDriver>> StartDriver(DriverKind kind, const DriverHost& host) {
  for (const DriverStart& d : kStarts)
    if (d.kind == kind) return d.start(host);
  return Status::Unsupported(fmt::format("no driver {}", NameOf(kind)));
}

std::unique_ptr<FallbackDriver> FallbackDriver::Start(std::optional<DriverKind> asked,
                                                      DriverHost host) {
  std::unique_ptr<FallbackDriver> d(new FallbackDriver(std::move(host)));
  // uiautomator needs nothing on the device: its start cannot fail.
  auto shell = StartDriver(DriverKind::kUiautomator, d->host_);
  d->fallback_ = std::move(*shell);
  const DriverKind kind = asked.value_or(kDriverNames[0].kind);
  const std::string how =
      asked ? fmt::format("asked for (--driver {})", NameOf(kind)) : std::string("--driver auto");
  if (kind == DriverKind::kUiautomator) {
    d->reason_ = how;
    return d;
  }
  auto started = StartDriver(kind, d->host_);
  if (started.ok()) {
    d->primary_ = std::move(*started);
    const std::string running = d->primary_->Describe();
    d->reason_ = running.empty() ? how : how + ": " + running;
  } else {
    d->reason_ = fmt::format("{} could not start: {}", WhatIs(kind), started.status().message());
    d->host_.note(d->reason_ + "; going on with uiautomator (a process on the device a step)");
  }
  return d;
}

Status FallbackDriver::Recover(const Status& failure, bool& again) {
  again = false;
  if (!primary_) return Status::Ok();
  // An error the driver gave (an element it could not find, a bad argument) is the step's; a
  // driver that no longer answers, or lost its session, died, or the device went away.
  if (failure.code() != Status::Code::kUnavailable && primary_->Alive()) return Status::Ok();
  auto comebacks = host_.await_device();
  if (!comebacks.ok()) return comebacks.status();
  const DriverKind kind = primary_->kind();
  if (*comebacks > comebacks_) {
    host_.note(fmt::format("the device came back; starting {} again", WhatIs(kind)));
  } else {
    const int limit = host_.options->uia2.restarts;
    if (deaths_ >= limit) {
      DropPrimary();
      reason_ = fmt::format("{} died {} times ({})", WhatIs(kind), deaths_ + 1, failure.message());
      host_.note(reason_ + "; going on with uiautomator");
      return Status::Ok();
    }
    ++deaths_;
    host_.note(fmt::format("{} stopped answering ({}); starting it again ({} of {})", WhatIs(kind),
                           failure.message(), deaths_, limit));
  }
  comebacks_ = *comebacks;
  again = Restart(kind);
  return Status::Ok();
}

bool FallbackDriver::Restart(DriverKind kind) {
  ++restarts_;
  DropPrimary();  // released before its successor starts: the device has one UiAutomation
  auto started = StartDriver(kind, host_);
  if (!started.ok()) {
    reason_ = fmt::format("{} could not start again: {}", WhatIs(kind), started.status().message());
    host_.note(reason_ + "; going on with uiautomator");
    return false;
  }
  primary_ = std::move(*started);
  return true;
}

void FallbackDriver::DropPrimary() {
  if (primary_) retries_before_ += primary_->retries();
  primary_.reset();
}

template <typename Call>
Status FallbackDriver::Run(Call call) {
  if (primary_) {
    Status s = call(*primary_);
    if (s.ok()) return s;
    bool again = false;
    ROAM_RETURN_IF_ERROR(Recover(s, again));
    if (again) s = call(*primary_);
    if (s.ok() || primary_) return s;
    // The run left the primary: this call goes to uiautomator.
  }
  return call(*fallback_);
}

Status FallbackDriver::Observe(gui::Screen& out) {
  return Run([&](ScreenDriver& d) { return d.Observe(out); });
}

Status FallbackDriver::Perform(const DeviceInput& input) {
  if (primary_ && !primary_->Takes(input)) {
    Status done = fallback_->Perform(input);
    primary_->ScreenChanged();  // what the shell did (a restart) moved the screen under it
    return done;
  }
  return Run([&](ScreenDriver& d) { return d.Perform(input); });
}

Result<std::string> FallbackDriver::Screenshot() {
  if (primary_) {
    auto png = primary_->Screenshot();
    if (png.ok()) return png;
  }
  return fallback_->Screenshot();
}

Status FallbackDriver::AwaitLaunch(const std::function<Status()>& launch) {
  return (primary_ ? *primary_ : *fallback_).AwaitLaunch(launch);
}

void FallbackDriver::ScreenChanged() {
  if (primary_) primary_->ScreenChanged();
  fallback_->ScreenChanged();
}

}  // namespace roam::device::android
