// The UiAutomator2 server's page source (elements named by class) read by the one dump parser:
// real page sources from public Appium projects (tests/fixtures/android, SOURCES.md), both
// readers agreeing, and WritePageSource read back as WriteDump is.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

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
  int files = 0;
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
    // The fast scanner, where it takes the file, agrees with pugixml.
    Screen slow, fast;
    ASSERT_TRUE(internal::ParseDumpWithPugixml(xml, slow).ok());
    if (internal::ScanDumpInto(xml, fast)) testing::ExpectSameDumpContent(slow, fast);
  }
  EXPECT_GE(files, 6);
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
