// The parser, writer and actions table on every real dump under ../shared/real/dumps.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "gui/abstraction.h"
#include "gui/actions.h"
#include "gui/uiautomator.h"
#include "gui/uiautomator_internal.h"
#include "gui_test_util.h"
#include "test_paths.h"

namespace roam::gui {
namespace {

namespace fs = std::filesystem;

using roam::testing::RealDumps;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// MANIFEST.tsv's "main package: x" notes, by file path relative to the real data dir.
std::map<std::string, std::string> ManifestPackages() {
  std::map<std::string, std::string> out;
  std::istringstream in(Slurp(roam::testing::RealDataDir() / "MANIFEST.tsv"));
  std::string line;
  const std::string tag = "main package: ";
  while (std::getline(in, line)) {
    size_t tab = line.find('\t');
    size_t note = line.find(tag);
    if (tab == std::string::npos || note == std::string::npos) continue;
    std::string pkg = line.substr(note + tag.size());
    pkg = pkg.substr(0, pkg.find_first_of("\t;, "));
    out[line.substr(0, tab)] = pkg;
  }
  return out;
}

TEST(RealDumps, ParseRoundTripAndYieldActions) {
  std::vector<fs::path> dumps = RealDumps();
  if (dumps.empty()) GTEST_SKIP() << "no ../shared/real/dumps";
  EXPECT_EQ(dumps.size(), 112u);
  int with_actions = 0;
  std::vector<Action> actions;
  for (const fs::path& path : dumps) {
    SCOPED_TRACE(path.string());
    std::string xml = Slurp(path);
    Result<Screen> s = ParseDump(xml);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_GT(s->widgets.size(), 0u);
    EXPECT_GT(s->width, 0);
    EXPECT_GT(s->height, 0);
    EXPECT_FALSE(s->package.empty());

    std::string written = WriteDump(*s);
    Result<Screen> back = ParseDump(written);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    testing::ExpectSameDumpContent(*s, *back);
    EXPECT_EQ(written, WriteDump(*back));  // the writer is a fixed point
    EXPECT_EQ(ScreenKey(*s), ScreenKey(*back));

    ActionsFor(*s, actions);
    bool actionable = false;
    for (int i = 0; i < static_cast<int>(s->widgets.size()); ++i) {
      const Widget& w = s->widgets[i];
      if (w.clickable && w.enabled && !w.bounds.empty() && w.package != "com.android.systemui")
        actionable = true;
    }
    if (actionable) {
      EXPECT_FALSE(actions.empty());
      ++with_actions;
    }
    for (const Action& a : actions) {
      ASSERT_TRUE(a.target.has_value());
      EXPECT_EQ(s->FindPath(a.target->path), a.widget) << a.Describe();
    }
  }
  EXPECT_GT(with_actions, 80);  // nearly all real screens have something to tap
}

TEST(RealDumps, PackageMatchesManifest) {
  std::vector<fs::path> dumps = RealDumps();
  if (dumps.empty()) GTEST_SKIP() << "no ../shared/real/dumps";
  std::map<std::string, std::string> expected = ManifestPackages();
  int checked = 0;
  for (const fs::path& path : dumps) {
    std::string rel = fs::relative(path, roam::testing::RealDataDir()).generic_string();
    auto it = expected.find(rel);
    if (it == expected.end()) continue;
    Result<Screen> s = ParseDump(Slurp(path));
    ASSERT_TRUE(s.ok()) << rel;
    EXPECT_EQ(s->package, it->second) << rel;
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST(RealDumps, FeaturesSeenInTheWild) {
  std::vector<fs::path> dumps = RealDumps();
  if (dumps.empty()) GTEST_SKIP() << "no ../shared/real/dumps";
  int naf = 0, multi_window = 0, rotated = 0, editable = 0;
  for (const fs::path& path : dumps) {
    Result<Screen> s = ParseDump(Slurp(path));
    ASSERT_TRUE(s.ok());
    int roots = 0;
    bool has_naf = false, has_edit = false;
    for (const Widget& w : s->widgets) {
      roots += w.parent < 0;
      has_naf |= w.naf;
      has_edit |= w.editable;
    }
    naf += has_naf;
    multi_window += roots > 1;
    rotated += s->rotation != 0;
    editable += has_edit;
  }
  EXPECT_GT(naf, 0);
  EXPECT_GT(multi_window, 0);
  EXPECT_GT(rotated, 0);
  EXPECT_GT(editable, 0);
}

TEST(RealDumps, ScannerAgreesWithPugixml) {
  std::vector<fs::path> dumps = RealDumps();
  if (dumps.empty()) GTEST_SKIP() << "no ../shared/real/dumps";
  int accepted = 0;
  for (const fs::path& path : dumps) {
    SCOPED_TRACE(path.string());
    std::string xml = Slurp(path);
    Screen slow, fast;
    ASSERT_TRUE(internal::ParseDumpWithPugixml(xml, slow).ok());
    if (!internal::ScanDumpInto(xml, fast)) continue;
    ++accepted;
    testing::ExpectSameDumpContent(slow, fast);
  }
  EXPECT_GE(accepted, 105) << "the fast path should take nearly all real dumps";
}

}  // namespace
}  // namespace roam::gui
