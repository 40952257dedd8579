// JacocoCoverage's file mode against the served phone's shell (serve/sim_shell.h: Android's rules
// for an app's private folder, run-as, the app's coverage receiver), with no adb server between:
// a file from before the run is refused with its age, a trigger that writes nothing is said, and
// a folder of timestamped files is read newest first and emptied.
#include "device/android/jacoco_coverage.h"

#include <gtest/gtest.h>

#include "serve/sim_jacoco.h"
#include "serve/sim_shell.h"
#include "sim/spec.h"
#include "test_paths.h"

namespace roam::device::android {
namespace {

class JacocoFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto spec = sim::LoadSpec(testing::SourceDir() / "apps/diary.json");
    ASSERT_TRUE(spec.ok()) << spec.status().message();
    pkg_ = (*spec)->package();
    phone_ =
        std::make_unique<serve::SimAndroidDevice>("emulator-5554", *spec, sim::SimOptions{}, 0);
    Sh("monkey -p " + pkg_ + " -c android.intent.category.LAUNCHER 1");
  }
  std::string Sh(const std::string& command) {
    serve::ShellResult r = phone_->RunShell(command);
    return r.out + r.err;
  }
  // The adb primitives over the served shell: exec keeps stderr in its one stream, as adbd's.
  JacocoCoverage::Adb Adb() {
    auto sh = [this](std::string_view command) -> Result<std::string> {
      return Sh(std::string(command));
    };
    return {.forward = nullptr,
            .remove_forward = nullptr,
            .shell = sh,
            .exec = sh,
            .pull = [this](const std::string& path) -> Result<std::string> {
              if (!phone_->ShellMayAccess(path))
                return Status::Io("open failed: Permission denied");
              return phone_->ReadFile(path);
            }};
  }
  JacocoCoverage Coverage(const std::string& file, const std::string& trigger) {
    return JacocoCoverage(
        {.mode = CoverageSettings::Mode::kJacocoFile, .file = file, .trigger = trigger}, pkg_,
        Adb(), "127.0.0.1");
  }
  std::string Receiver() { return "am broadcast -n " + pkg_ + "/.CoverageReceiver"; }

  std::string pkg_;
  std::unique_ptr<serve::SimAndroidDevice> phone_;
};

TEST_F(JacocoFileTest, TheReceiversFileIsReadThroughRunAsAndRemoved) {
  const std::string file = serve::SimCoverageFile(pkg_);
  JacocoCoverage c = Coverage(file, Receiver());
  ASSERT_TRUE(c.Start().ok());
  Status s = c.Dump();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_GT(c.data().CoveredCount(), 0u);
  EXPECT_FALSE(phone_->ReadFile(file).ok()) << "the file read is removed";
  ASSERT_TRUE(c.Dump().ok());
  EXPECT_EQ(c.Link().dumps, 2);
  EXPECT_EQ(c.Link().failed, 0);
}

TEST_F(JacocoFileTest, AFileFromBeforeTheRunIsRefusedWithItsAge) {
  const std::string file = serve::SimCoverageFile(pkg_);
  JacocoCoverage c = Coverage(file, "am broadcast -n " + pkg_ + "/.Elsewhere");
  ASSERT_TRUE(c.Start().ok());
  phone_->LeaveStaleCoverage();  // as if Start's removal had not taken
  Status s = c.Dump();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("holds the session \"emulator-5554-yesterday\", which started 86"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(c.data().CoveredCount(), 0u);
  // Start removes it.
  ASSERT_TRUE(c.Start().ok());
  s = c.Dump();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("reached no receiver"), std::string::npos) << s.message();
  EXPECT_EQ(c.Link().failed, 2);
  EXPECT_EQ(c.Link().last_error, s.message());
}

TEST_F(JacocoFileTest, AFolderOfTimestampedFilesIsReadNewestFirstAndEmptied) {
  const std::string dir = "/data/data/" + pkg_ + "/files/coverage/";
  const std::string receiver_file = serve::SimCoverageFile(pkg_);
  // A receiver as COSMO's: a new file a dump, named for its time.
  const std::string trigger = Receiver() + " && run-as " + pkg_ + " sh -c 'cat " + receiver_file +
                              " > " + dir + "coverage-$(date +%s).ec'";
  phone_->WriteFile(dir + "coverage-1000000000.ec", "left from a run long ago");
  JacocoCoverage c = Coverage(dir, trigger);
  ASSERT_TRUE(c.Start().ok());
  EXPECT_FALSE(phone_->ReadFile(dir + "coverage-1000000000.ec").ok());
  Status s = c.Dump();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_GT(c.data().CoveredCount(), 0u);
  EXPECT_EQ(Sh("run-as " + pkg_ + " ls " + dir), "");
}

TEST_F(JacocoFileTest, RunAsForAnotherPackageSaysWhy) {
  // The served phone knows one debuggable package: run-as for any other is refused.
  EXPECT_EQ(Sh("run-as org.other cat /data/data/org.other/files/coverage.ec"),
            "run-as: unknown package: org.other\n");
  EXPECT_NE(Sh("cat " + serve::SimCoverageFile(pkg_)).find("Permission denied"), std::string::npos);
  EXPECT_NE(Sh("echo x > /data/data/" + pkg_ + "/files/x").find("Permission denied"),
            std::string::npos);
}

}  // namespace
}  // namespace roam::device::android
