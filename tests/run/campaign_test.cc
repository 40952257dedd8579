// How a campaign says why it stopped: a model that cannot be saved is a model error, not a
// device error.
#include "run/explore/campaign.h"

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

TEST(Campaign, SamplesProgressAsItGoesAndWritesAPageAtTheEnd) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  device::SimDevice device(*spec, {});
  explore::RandomStrategy strategy({});
  Rng rng(3);
  CampaignOptions options;
  options.session.progress.sample_every = 100;
  CampaignIo io{.app = "diary", .seed = 3, .out_dir = testing::TempDir("progress_samples")};
  Campaign campaign(options, {.events = 1050}, device, strategy, rng, io, {});
  auto summary = campaign.Run();
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  auto text = ReadFile(io.out_dir / "progress.jsonl");
  ASSERT_TRUE(text.ok());
  std::vector<nlohmann::json> samples;
  for (size_t at = 0, end; (end = text->find('\n', at)) != std::string::npos; at = end + 1)
    samples.push_back(nlohmann::json::parse(text->substr(at, end - at)));
  // The first step's, then 100, ..., 1000 and the last event's.
  ASSERT_EQ(samples.size(), 12u);
  EXPECT_LE(samples[0]["events"], 1);
  for (size_t i = 0; i + 1 < samples.size(); ++i) {
    if (i > 0) {
      EXPECT_EQ(samples[i]["events"], 100 * static_cast<int>(i));
    }
    EXPECT_LE(samples[i]["activities"], samples[i + 1]["activities"]);
    EXPECT_LE(samples[i]["units"], samples[i + 1]["units"]);
  }
  EXPECT_EQ(samples.back()["events"], summary->events);
  EXPECT_EQ(samples.back()["activities"], summary->activities_covered.size());
  EXPECT_EQ(samples.back()["crashes"], summary->crashes.size());
  auto page = ReadFile(io.out_dir / "report.html");
  ASSERT_TRUE(page.ok()) << "report.html is written at the end";
  for (const auto& c : summary->crashes) EXPECT_NE(page->find(c.bug_dir), std::string::npos);
  EXPECT_NE(page->find("stopped by <strong>events</strong>"), std::string::npos);
}

TEST(Campaign, AnInterruptedRunGetsItsPageAndSamplesToo) {
  auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
  ASSERT_TRUE(spec.ok());
  device::SimDevice device(*spec, {});
  explore::RandomStrategy strategy({});
  Rng rng(3);
  std::atomic<bool> stop{true};
  CampaignIo io{.app = "diary", .seed = 3, .out_dir = testing::TempDir("progress_stopped")};
  Campaign campaign({}, {.events = 1000}, device, strategy, rng, io, {.stop = &stop});
  auto summary = campaign.Run();
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary->stop_reason, "interrupted");
  auto page = ReadFile(io.out_dir / "report.html");
  ASSERT_TRUE(page.ok());
  EXPECT_NE(page->find("stopped by <strong>interrupted</strong>"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(io.out_dir / "progress.jsonl"));
}

}  // namespace
}  // namespace roam::run
