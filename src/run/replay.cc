#include "run/replay.h"

#include "oracle/crash.h"

namespace roam::run {

Result<ReplayResult> ReplayTrace(device::Device& device, const std::vector<report::TraceStep>& steps,
                                 const std::string& want_signature, int top_frames) {
  ReplayResult result;
  gui::Screen screen;
  std::vector<device::Event> events;
  const std::string package = device.Package();
  // Drains the device's events into result; true once the wanted signature is among them.
  auto found = [&] {
    events.clear();
    device.DrainEvents(events);
    for (const auto& e : events) {
      std::string sig = oracle::CrashSignature(e, package, top_frames);
      result.signatures.push_back(sig);
      if (!want_signature.empty() && sig == want_signature) return result.reproduced = true;
    }
    return false;
  };
  for (const auto& step : steps) {
    Status s;
    if (step.op == "clear") {
      s = device.ClearData();
    } else if (step.op == "launch") {
      s = device.Launch();
    } else if (step.op == "stop") {
      s = device.Stop();
    } else if (step.op == "snapshot") {
      s = device.Snapshot(step.snapshot);
    } else if (step.op == "restore") {
      s = device.Restore(step.snapshot);
    } else {
      // Observe first, as the original run did, so the device resolves the target against the
      // screen the action was chosen on.
      s = device.Observe(screen);
      if (s.ok()) s = device.Perform(step.action);
    }
    if (!s.ok()) return s.Wrap("replay step " + std::to_string(step.step));
    ++result.steps_run;
    if (found()) return result;
  }
  // A phone may log the last action's crash only after the action returned; the run saw it at
  // its next observation, so the replay looks once more after one.
  if (!steps.empty() && device.Observe(screen).ok()) found();
  return result;
}

}  // namespace roam::run
