// The UiAutomator2 server's page source (elements named by class) read by the one dump parser:
// real page sources from public Appium projects (tests/fixtures/android, SOURCES.md), both
// readers agreeing, and WritePageSource read back as WriteDump is.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "gui/actions.h"
#include "gui/uiautomator.h"
#include "gui/uiautomator_internal.h"
#include "gui_test_util.h"
#include "test_paths.h"

namespace roam::gui {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(PageSource, RealPageSourcesGiveTheirWidgets) {
  int files = 0, sized = 0;
  for (const auto& entry :
       fs::directory_iterator(roam::testing::SourceDir() / "tests/fixtures/android")) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("uia2_source_")) continue;
    SCOPED_TRACE(name);
    ++files;
    const std::string xml = Slurp(entry.path());
    auto screen = ParseDump(xml);
    ASSERT_TRUE(screen.ok()) << screen.status().message();
    // One widget an element below <hierarchy>: count the elements with a class attribute.
    size_t elements = 0;
    for (size_t at = xml.find(" class=\""); at != std::string::npos;
         at = xml.find(" class=\"", at + 1))
      ++elements;
    if (xml.find("class=\"hierarchy\"") != std::string::npos) --elements;  // the root (newer)
    EXPECT_EQ(screen->widgets.size(), elements);
    EXPECT_FALSE(screen->package.empty());
    int with_bounds = 0, clickable = 0;
    for (const Widget& w : screen->widgets) {
      EXPECT_FALSE(w.cls.empty());
      with_bounds += !w.bounds.empty();
      clickable += w.clickable;
    }
    EXPECT_GT(with_bounds, static_cast<int>(screen->widgets.size()) / 2);
    EXPECT_GT(clickable, 0);
    // Issue 59, row 8: the display's size is the <hierarchy>'s, where it says one, not what the
    // window roots span (the permission dialog's window is 1052x1626 of a 1080x2254 screen).
    const size_t root = xml.find("<hierarchy");
    const size_t root_end = xml.find('>', root);
    const std::string head = xml.substr(root, root_end - root);
    const size_t w_at = head.find(" width=\""), h_at = head.find(" height=\"");
    if (w_at != std::string::npos && h_at != std::string::npos) {
      EXPECT_EQ(screen->width, std::stoi(head.substr(w_at + 8)));
      EXPECT_EQ(screen->height, std::stoi(head.substr(h_at + 9)));
      ++sized;
    }
    // The fast scanner, where it takes the file, agrees with pugixml.
    Screen slow, fast;
    ASSERT_TRUE(internal::ParseDumpWithPugixml(xml, slow).ok());
    if (internal::ScanDumpInto(xml, fast)) testing::ExpectSameDumpContent(slow, fast);
  }
  EXPECT_GE(files, 6);
  EXPECT_GE(sized, 4);
}

// Issue 59, row 9, in the format the server writes (AccessibilityNodeInfoDumper): a view whose
// class name is null is an <android.view.View> without a class attribute; a toast is an
// <android.widget.Toast> root without bounds for its 2-3.5 s; a node may say displayed="false".
TEST(PageSource, ClassLessToastAndHiddenElementsAsTheServerWritesThem) {
  const std::string xml = R"(<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2209">
  <android.widget.FrameLayout index="0" package="org.app" class="android.widget.FrameLayout" bounds="[0,0][1080,2400]" displayed="true">
    <android.view.View index="0" package="org.app" clickable="true" enabled="true" bounds="[0,200][1080,400]" displayed="true" />
    <android.widget.Button index="1" package="org.app" class="android.widget.Button" text="Hidden" clickable="true" enabled="true" bounds="[0,400][540,500]" displayed="false" />
    <android.widget.Button index="2" package="org.app" class="android.widget.Button" text="Save" clickable="true" enabled="true" bounds="[540,400][1080,500]" displayed="true" />
  </android.widget.FrameLayout>
  <android.widget.Toast index="1" package="org.app" class="android.widget.Toast" text="Saved" displayed="true" />
</hierarchy>)";
  for (bool fast : {false, true}) {
    SCOPED_TRACE(fast ? "scanner" : "pugixml");
    Screen s;
    if (fast) {
      ASSERT_TRUE(internal::ScanDumpInto(xml, s));
    } else {
      ASSERT_TRUE(internal::ParseDumpWithPugixml(xml, s).ok());
    }
    ASSERT_EQ(s.widgets.size(), 4u);  // the FrameLayout, the View, two buttons; no toast
    EXPECT_EQ(s.widgets[1].cls, "android.view.View");
    EXPECT_TRUE(s.widgets[1].clickable);
    EXPECT_EQ(s.widgets[1].parent, 0);
    EXPECT_FALSE(s.widgets[2].displayed);
    EXPECT_TRUE(s.widgets[3].displayed);
    EXPECT_EQ(s.toasts, std::vector<std::string>{"Saved"});
    EXPECT_EQ(s.width, 1080);
    EXPECT_EQ(s.height, 2209);
    std::vector<Action> actions;
    ActionsFor(s, actions, {});
    bool hidden = false, view = false;
    for (const Action& a : actions) {
      hidden |= a.widget == 2;
      view |= a.widget == 1 && a.kind == ActionKind::kClick;
    }
    EXPECT_FALSE(hidden) << "a displayed=\"false\" node is offered as a target";
    EXPECT_TRUE(view) << "the class-less view's click is lost";
  }
  // Without the toast the state is the same: the toast changes no widget.
  std::string without = xml;
  without.erase(without.find("  <android.widget.Toast"),
                without.find("</hierarchy>") - without.find("  <android.widget.Toast"));
  auto with_toast = ParseDump(xml), plain = ParseDump(without);
  ASSERT_TRUE(with_toast.ok() && plain.ok());
  testing::ExpectSameDumpContent(*plain, *with_toast);
}

TEST(PageSource, WritePageSourceReadsBackAsTheDumpDoes) {
  Result<Screen> s = ParseDump(testing::Dump(
      testing::Node("android.widget.FrameLayout", "[0,0][1080,1920]", "", false) +
      testing::Node("android.widget.EditText", "[10,10][500,100]",
                    R"(text="a &amp; b" hint="Name" focused="true")") +
      testing::Node("org.app.Outer$Inner", "[10,200][500,300]",
                    R"(content-desc="x" clickable="true" resource-id="org.app:id/b")") +
      "</node>"));
  ASSERT_TRUE(s.ok());
  s->width = 1080;
  s->height = 1920;
  const std::string source = WritePageSource(*s);
  EXPECT_NE(source.find("<org.app.Outer.Inner index=\"1\""), std::string::npos) << source;
  EXPECT_NE(source.find("class=\"org.app.Outer$Inner\""), std::string::npos);
  EXPECT_NE(source.find("<hierarchy index=\"0\" class=\"hierarchy\" rotation=\"0\" width=\"1080\""),
            std::string::npos);
  auto back = ParseDump(source);
  ASSERT_TRUE(back.ok()) << back.status().message();
  auto via_dump = ParseDump(WriteDump(*s));
  ASSERT_TRUE(via_dump.ok());
  ASSERT_EQ(back->widgets.size(), via_dump->widgets.size());
  for (size_t i = 0; i < back->widgets.size(); ++i)
    EXPECT_EQ(back->widgets[i], via_dump->widgets[i]);
  Screen fast;
  EXPECT_TRUE(internal::ScanDumpInto(source, fast)) << "the fast path takes the server's format";
}

}  // namespace
}  // namespace roam::gui
