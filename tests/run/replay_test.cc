// ReplayTrace against a device whose crash reports arrive late, as a phone's log does: the
// crash of the last action shows up only after the next observation.
#include <gtest/gtest.h>

#include "oracle/crash.h"
#include "run/replay_trace.h"

namespace roam::run {
namespace {

constexpr const char* kPackage = "org.roam.late";

class LateLogDevice final : public device::Device {
 public:
  std::string Name() const override { return "fake:late"; }
  std::string Package() const override { return kPackage; }
  Status Launch() override { return Status::Ok(); }
  Status Stop() override { return Status::Ok(); }
  Status ClearData() override { return Status::Ok(); }
  Status Observe(gui::Screen& out) override {
    out = gui::Screen{};
    out.package = kPackage;
    if (crashed_) logged_ = true;  // the log line has arrived by now
    return Status::Ok();
  }
  Status Perform(const gui::Action&) override {
    crashed_ = true;
    return Status::Ok();
  }
  void DrainEvents(std::vector<device::Event>& out) override {
    if (!logged_) return;
    out.push_back(Crash());
    logged_ = crashed_ = false;
  }
  static device::Event Crash() {
    return {.package = kPackage,
            .exception = "java.lang.IllegalStateException",
            .frames = {"org.roam.late.Main.onClick(Main.java:3)"}};
  }

 private:
  bool crashed_ = false;
  bool logged_ = false;
};

TEST(ReplayTrace, ACrashLoggedAfterTheLastActionStillCounts) {
  LateLogDevice device;
  const std::string want = oracle::CrashSignature(LateLogDevice::Crash(), kPackage, 3);
  std::vector<report::TraceStep> steps = {
      {.op = "launch"},
      {.step = 1, .op = "act", .action = gui::MakeGlobalAction(gui::ActionKind::kBack)}};
  auto r = ReplayTrace(device, steps, want, 3);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->reproduced);
  ASSERT_EQ(r->signatures.size(), 1u);
  EXPECT_EQ(r->signatures[0], want);
}

}  // namespace
}  // namespace roam::run
