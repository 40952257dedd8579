// What every campaign shares: why a run stopped, the files of one device among several, and the
// summary's shared fields.
#include "run/session.h"

#include <gtest/gtest.h>

#include "device/sim_device.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::run {
namespace {

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
    ASSERT_TRUE(spec.ok());
    device_ = std::make_unique<device::SimDevice>(*spec, sim::SimOptions{});
  }
  std::unique_ptr<device::SimDevice> device_;
};

TEST_F(SessionTest, AFailedWriteOutranksTheCauseAndTheFirstReasonStays) {
  Session session(*device_, {.out_dir = testing::TempDir("session_reasons")}, {});
  EXPECT_EQ(session.stop_reason(), "running");
  EXPECT_FALSE(session.Wrote(Status::Io("summary.json: disk full")).ok());
  session.StopOn(Status::Unavailable("device gone"), "model error: ");
  EXPECT_EQ(session.stop_reason(), "write error: device gone");
  session.StopOn(Status::Unavailable("later"));
  session.StopAtEnd("seeds");
  EXPECT_EQ(session.stop_reason(), "write error: device gone");
}

TEST_F(SessionTest, StopsOnTheBudgetOrARequestAndSaysWhich) {
  Session spent(*device_, {.budget = {.events = 1}}, {});
  EXPECT_FALSE(spent.Over());
  spent.budget().Spend();
  EXPECT_TRUE(spent.Over());
  EXPECT_EQ(spent.stop_reason(), "events");

  std::atomic<bool> stop = true;
  Session stopped(*device_, {}, {.stop = &stop});
  EXPECT_TRUE(stopped.Over());
  EXPECT_EQ(stopped.stop_reason(), "interrupted");

  Session seeds(*device_, {}, {});
  seeds.StopAtEnd("seeds");
  EXPECT_EQ(seeds.stop_reason(), "seeds");
}

TEST_F(SessionTest, OneDeviceOfSeveralNamesItsFilesAndTheSummaryCarriesTheDevice) {
  const auto dir = testing::TempDir("session_files");
  Session session(*device_, {.out_dir = dir, .device_tag = "d2"}, {});
  ASSERT_TRUE(session.Open().ok());
  EXPECT_EQ(session.RunFile("trace", "jsonl"), dir / "trace-d2.jsonl");
  EXPECT_TRUE(std::filesystem::exists(dir / "trace-d2.jsonl"));
  EXPECT_TRUE(std::filesystem::exists(dir / "progress-d2.jsonl"));
  gui::Screen screen;
  bool relaunched = false;
  int launches = 0;
  ASSERT_TRUE(session
                  .EnsureInApp(screen, relaunched,
                               [&] {
                                 ++launches;
                                 return Status::Ok();
                               })
                  .ok());
  EXPECT_EQ(screen.package, device_->Package());
  report::Summary s = session.Summary("diary", "random", 7);
  EXPECT_EQ(s.strategy, "random");
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.package, device_->Package());
  EXPECT_FALSE(s.activities_declared.empty());
  EXPECT_EQ(s.relaunches, 0u);  // the run's first launch is no relaunch
  EXPECT_EQ(launches, relaunched ? 1 : 0);
}

}  // namespace
}  // namespace roam::run
