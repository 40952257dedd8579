// The screens Android puts in front of the app, told apart on real devices' dumps and page
// sources (tests/fixtures/android, SOURCES.md): error dialogs, permission requests, lock
// screens, the keyboard, and ordinary screens (launchers, apps) left alone.
#include "device/android/system_screens.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "base/files.h"
#include "gui/uiautomator.h"
#include "test_paths.h"

namespace roam::device::android {
namespace {

namespace fs = std::filesystem;
using K = SystemScreen::Kind;

SystemScreen Classify(const std::string& name) {
  auto xml = ReadFile(testing::SourceDir() / "tests/fixtures/android" / name);
  EXPECT_TRUE(xml.ok()) << name;
  auto screen = gui::ParseDump(xml.ok() ? *xml : "");
  EXPECT_TRUE(screen.ok()) << name << ": " << screen.status().message();
  return screen.ok() ? ClassifySystemScreen(*screen) : SystemScreen{};
}

TEST(SystemScreens, EachRealFixtureIsWhatItShows) {
  int seen = 0;
  for (const auto& entry :
       fs::directory_iterator(testing::SourceDir() / "tests/fixtures/android")) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".xml")) continue;
    SCOPED_TRACE(name);
    ++seen;
    const SystemScreen s = Classify(name);
    if (name.starts_with("dump_anr_")) {
      EXPECT_EQ(s.kind, K::kNotResponding);
      EXPECT_GE(s.close, 0);
      EXPECT_GE(s.wait, 0);
      EXPECT_NE(s.title.find("isn't responding"), std::string::npos) << s.title;
    } else if (name.starts_with("dump_permission_") ||
               name == "uia2_source_permissioncontroller.xml") {
      EXPECT_EQ(s.kind, K::kPermission);
      EXPECT_GE(s.allow, 0);
      EXPECT_GE(s.deny, 0);
    } else if (name.starts_with("dump_keyguard_")) {
      EXPECT_EQ(s.kind, K::kKeyguard);
    } else if (name.starts_with("dump_ime_")) {
      EXPECT_EQ(s.kind, K::kKeyboard);
    } else {  // launchers, apps, a one-node dump
      EXPECT_EQ(s.kind, K::kNone) << SystemScreenName(s.kind);
    }
  }
  EXPECT_GE(seen, 20);
}

// On ../shared/real's dumps of real apps, a screen is an error dialog exactly when it carries
// Android's aerr_ buttons or Android 4's "has stopped." message, and a permission request
// exactly when it carries a permission button; an error dialog always has a way to close.
TEST(SystemScreens, RealAppDumpsAreNotMistaken) {
  const std::vector<fs::path> files = testing::RealDumps();
  if (files.empty()) GTEST_SKIP() << "no ../shared/real/dumps";
  int dumps = 0, dialogs = 0;
  for (const fs::path& file : files) {
    auto xml = ReadFile(file);
    if (!xml.ok()) continue;
    auto screen = gui::ParseDump(*xml);
    if (!screen.ok()) continue;
    ++dumps;
    const SystemScreen s = ClassifySystemScreen(*screen);
    const bool aerr = xml->find(":id/aerr_") != std::string::npos ||
                      xml->find(" has stopped.") != std::string::npos;
    const bool permission = xml->find(":id/permission_allow") != std::string::npos ||
                            xml->find(":id/permission_deny") != std::string::npos;
    SCOPED_TRACE(file.string());
    EXPECT_EQ(s.kind == K::kNotResponding || s.kind == K::kCrashed, aerr);
    if (aerr) {
      EXPECT_GE(s.close, 0);
    }
    if (!aerr) {
      EXPECT_EQ(s.kind == K::kPermission, permission);
    }
    dialogs += aerr || permission;
  }
  EXPECT_GT(dumps, 100);
  RecordProperty("dialogs", dialogs);
}

}  // namespace
}  // namespace roam::device::android
