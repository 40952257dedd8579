// run/fuzz: Genie end to end on simulated apps: the ActivityDiary case of the document is found
// (and not with its bug off), a self-changing clock gives no report, an F folder replays.
#include "run/fuzz.h"

#include <gtest/gtest.h>

#include "device/sim_device.h"
#include "fuzz/views.h"
#include "run/fuzz_exec.h"
#include "run/fuzz_internal.h"
#include "sim/sim_app.h"
#include "test_paths.h"

namespace roam::run {
namespace {

using fuzz::Event;
using gui::ActionKind;

std::shared_ptr<const sim::AppSpec> Diary() {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return *spec;
}

// The event that clicks the widget showing `text` (or content-desc) on `screen`.
Event On(const gui::Screen& screen, ActionKind kind, const std::string& text) {
  for (int i = 0; i < static_cast<int>(screen.widgets.size()); ++i) {
    const auto& w = screen.widgets[i];
    if ((w.text == text || w.content_desc == text) && fuzz::Takes(screen, i, kind)) {
      Event e;
      e.kind = kind;
      e.type = fuzz::WidgetType(screen, i);
      e.signature = fuzz::WidgetSignature(screen, i);
      return e;
    }
  }
  ADD_FAILURE() << "no widget " << text;
  return Event{};
}

// Runs `texts` (clicks by text) one at a time on `device`, building the event list.
std::vector<Event> Script(device::Device& device, const std::vector<std::string>& texts) {
  std::vector<Event> events;
  Executor ex(device, nullptr, nullptr);
  for (const auto& t : texts) {
    auto run = ex.Run(events);
    EXPECT_TRUE(run.ok());
    events.push_back(On(run->layouts.back().screen, ActionKind::kClick, t));
  }
  return events;
}

FuzzCase DiaryCase(device::Device& device) {
  FuzzCase c;
  c.seed_events = Script(device, {"Cinema", "Attach picture", "Diary", "Photo of Cinema", "OK"});
  // τ = [click Cleaning, click Attach picture] before the seed's `click Diary` (pivot 2).
  std::vector<Event> tau;
  Executor ex(device, nullptr, nullptr);
  auto prefix = ex.Run(std::vector<Event>(c.seed_events.begin(), c.seed_events.begin() + 2));
  EXPECT_TRUE(prefix.ok());
  tau.push_back(On(prefix->layouts.back().screen, ActionKind::kClick, "Cleaning"));
  tau.push_back(c.seed_events[1]);
  c.pivot = 2;
  c.tau_length = 2;
  c.mutant_events = MutantPlan(c.seed_events, 2, tau);
  return c;
}

TEST(FuzzCase, DiaryWrongPhotoDeletedViolatesTheOracle) {
  device::SimDevice device(Diary(), sim::SimOptions{});
  FuzzCase c = DiaryCase(device);
  auto v = CheckCase(device, c, fuzz::OracleSettings{});
  ASSERT_TRUE(v.ok()) << v.status().message();
  ASSERT_TRUE(v->has_value());
  EXPECT_NE((*v)->Key().find("Photo of Cinema"), std::string::npos) << (*v)->Key();
}

TEST(FuzzCase, DiaryWithTheBugOffHoldsTheOracle) {
  device::SimDevice device(Diary(), sim::SimOptions{.seed = 1, .bugs_off = {"diary-wrong-photo-deleted"}});
  FuzzCase c = DiaryCase(device);
  auto v = CheckCase(device, c, fuzz::OracleSettings{});
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_FALSE(v->has_value()) << (*v)->Key();
}

}  // namespace
}  // namespace roam::run
