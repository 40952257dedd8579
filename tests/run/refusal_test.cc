// A device that turns one action down (a phone's UiAutomator2 server answering a rotation on an
// activity locked to portrait with HTTP 400, issue 59 row 1) ends the step, not the run: the step
// stands, its trace line says it was refused, and summary.json counts it by reason.
#include <gtest/gtest.h>

#include "base/files.h"
#include "device/sim_device.h"
#include "explore/random.h"
#include "report/trace.h"
#include "run/explore/campaign.h"
#include "run_test_util.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::run {
namespace {

// The simulator, with every rotation refused as the real server refuses one on a locked screen.
class RefusesRotations final : public ForwardingDevice {
 public:
  using ForwardingDevice::ForwardingDevice;
  Status Perform(const gui::Action& action) override {
    if (action.kind == gui::ActionKind::kRotate)
      return Status::Refused(
          "invalid element state (POST /orientation): HTTP 400: Screen rotation cannot be "
          "changed to ROTATION_90 after 2000ms. Is it locked programmatically?");
    return inner_.Perform(action);
  }
};

TEST(Refusal, ARefusedActionIsTheStepsOutcomeNotTheRunsEnd) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  device::SimDevice sim(*spec, {});
  RefusesRotations device(sim);
  explore::RandomStrategy strategy({});  // rotations are in its default mix
  Rng rng(3);
  const auto out = testing::TempDir("refused_rotation");
  CampaignIo io{.app = "diary", .seed = 3, .out_dir = out};
  Campaign campaign({}, {.events = 600}, device, strategy, rng, io, {});
  auto summary = campaign.Run();
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  EXPECT_EQ(summary->events, 600);
  EXPECT_EQ(summary->stop_reason, "events");
  const std::string reason = "invalid element state (POST /orientation)";
  ASSERT_EQ(summary->refused.count(reason), 1u);
  const int64_t refused = summary->refused.at(reason);
  EXPECT_GT(refused, 0);
  auto trace = report::ReadTrace(out / "trace.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  int64_t marked = 0;
  for (const auto& step : *trace)
    for (const auto& e : step.events) marked += e == "refused: " + reason;
  EXPECT_EQ(marked, refused);
  auto written = report::ReadSummary(out / "summary.json");
  ASSERT_TRUE(written.ok()) << written.status().message();
  EXPECT_EQ(written->refused, summary->refused);
  EXPECT_TRUE(written->sections.is_null() || !written->sections.contains("refused"));
}

}  // namespace
}  // namespace roam::run
