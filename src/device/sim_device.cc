#include "device/sim_device.h"

#include "sim/interpreter.h"
#include "sim/spec.h"

namespace roam::device {

std::string_view EventKindName(Event::Kind kind) {
  switch (kind) {
    case Event::Kind::kCrash:
      return "crash";
    case Event::Kind::kAnr:
      return "anr";
    case Event::Kind::kNativeCrash:
      return "native_crash";
  }
  return "unknown";
}

SimDevice::SimDevice(std::shared_ptr<const sim::AppSpec> spec, sim::SimOptions sim_options,
                     SimDeviceOptions options)
    : app_(std::move(spec), std::move(sim_options)), options_(options) {}

SimDevice::~SimDevice() = default;

std::string SimDevice::Name() const { return "sim:" + app_.package(); }
std::string SimDevice::Package() const { return app_.package(); }

Status SimDevice::Launch() {
  app_.Launch();
  return Status::Ok();
}

Status SimDevice::Stop() {
  app_.Stop();
  return Status::Ok();
}

Status SimDevice::ClearData() {
  app_.ClearData();
  // Upright, as an Android device's clear leaves the phone (Device::ClearData).
  for (int turns = 0; turns < 4 && app_.screen().rotation != 0; ++turns)
    app_.Perform(gui::MakeGlobalAction(gui::ActionKind::kRotate));
  return Status::Ok();
}

Status SimDevice::Observe(gui::Screen& out) {
  out = app_.screen();
  return Status::Ok();
}

Status SimDevice::Perform(const gui::Action& action) {
  if (action.kind != gui::ActionKind::kIntent) {
    app_.Perform(action);
    return Status::Ok();
  }
  // Refused as a phone's `am start` refuses it (device/android): nothing started.
  auto intent = gui::ParseIntentText(action.text);
  if (!intent.ok()) return intent.status();
  switch (app_.StartIntent(*intent)) {
    case sim::IntentOutcome::kStarted:
      return Status::Ok();
    case sim::IntentOutcome::kNotExported:
      return Status::Refused("intent not exported: " + intent->component);
    case sim::IntentOutcome::kUnresolved:
      break;
  }
  return Status::Refused("intent unresolved: " + intent->ToText());
}

void SimDevice::DrainEvents(std::vector<Event>& out) {
  for (sim::Fault& f : app_.DrainFaults()) {
    Event e;
    e.kind = f.kind == sim::Fault::Kind::kCrash ? Event::Kind::kCrash : Event::Kind::kAnr;
    e.package = app_.package();
    e.exception = std::move(f.exception);
    e.message = std::move(f.message);
    e.frames = std::move(f.frames);
    e.bug_id = std::move(f.bug_id);
    e.raw = FormatEventAsLog(e);
    out.push_back(std::move(e));
  }
}

Status SimDevice::Snapshot(const std::string& name) {
  if (!options_.snapshots) return Unsupported("snapshot " + name);
  snapshots_[name] = app_.Save();
  return Status::Ok();
}

Status SimDevice::Restore(const std::string& name) {
  if (!options_.snapshots) return Unsupported("restore " + name);
  auto it = snapshots_.find(name);
  if (it == snapshots_.end()) return Status::NotFound("no snapshot named " + name);
  app_.Load(*it->second, /*keep_clock=*/true);  // the world's time goes on
  return Status::Ok();
}

Coverage SimDevice::GetCoverage() const { return {app_.units_covered(), app_.units_total()}; }
std::vector<std::string> SimDevice::CoveredUnits() const { return app_.CoveredUnits(); }
std::vector<std::string> SimDevice::DeclaredActivities() const { return app_.Activities(); }
std::vector<std::string> SimDevice::DeclaredBroadcasts() const { return app_.Broadcasts(); }
std::vector<gui::DeclaredActivity> SimDevice::DeclaredIntentTargets() const {
  return app_.DeclaredActivities();
}

Result<std::string> SimDevice::Screenshot(const std::optional<gui::Rect>& outline) {
  return DrawSimApp(app_, {.outline = outline});
}

Result<std::string> DrawSimApp(sim::SimApp& app, const draw::DrawOptions& options) {
  gui::Screen beneath;
  bool dim = false;
  const bool windowed = app.ScreenBeneath(beneath, dim);
  std::vector<draw::Layer> layers;
  if (windowed) layers.push_back({&beneath, false});
  layers.push_back({&app.screen(), dim});
  return draw::DrawPng(layers, options);
}

std::string FormatEventAsLog(const Event& event) {
  std::string s;
  if (event.kind == Event::Kind::kAnr) {
    s = "ANR in " + event.package + "\nReason: " + event.message + "\n";
    return s;
  }
  s = "FATAL EXCEPTION: main\nProcess: " + event.package + "\n" + event.exception;
  if (!event.message.empty()) s += ": " + event.message;
  s += "\n";
  for (const auto& f : event.frames) s += "\tat " + f + "\n";
  return s;
}

}  // namespace roam::device
