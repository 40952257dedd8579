// How a campaign says why it stopped: a model that cannot be saved is a model error, not a
// device error.
#include "run/campaign.h"

#include <gtest/gtest.h>

#include "base/files.h"
#include "device/sim_device.h"
#include "explore/random.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::run {
namespace {

class UnsavableModel final : public explore::Strategy {
 public:
  std::string_view Name() const override { return "unsavable"; }
  gui::Action Next(const explore::StepView& view, Rng& rng) override {
    return random_.Next(view, rng);
  }
  Status Flush() override { return Status::Io("model.bin: write failed: No space left on device"); }

 private:
  explore::RandomStrategy random_{{}};
};

TEST(Campaign, AModelThatCannotBeSavedStopsTheRunAsAModelError) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  device::SimDevice device(*spec, {});
  UnsavableModel strategy;
  Rng rng(1);
  CampaignOptions options;
  options.flush_every = 50;
  CampaignIo io{.app = "diary", .seed = 1, .out_dir = testing::TempDir("model_error")};
  Campaign campaign(options, {.events = 200}, device, strategy, rng, io, {});
  auto summary = campaign.Run();
  ASSERT_FALSE(summary.ok());
  EXPECT_NE(summary.status().message().find("No space left on device"), std::string::npos);
  auto written = ReadJsonFile(io.out_dir / "summary.json");
  ASSERT_TRUE(written.ok());
  EXPECT_EQ((*written)["stop_reason"],
            "model error: model.bin: write failed: No space left on device");
  EXPECT_EQ((*written)["events"], 50);
}

}  // namespace
}  // namespace roam::run
