// VisionDroid's bug-example library: the shipped file, its checks, and retrieval by activity
// name against similarities computed by hand.
#include "vision/examples.h"

#include <cmath>
#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "base/files.h"
#include "test_paths.h"

namespace roam::vision {
namespace {

std::filesystem::path Library() { return testing::SourceDir() / "data/vision/bug_examples.json"; }

TEST(BugExamples, TheShippedLibraryHasFortyCheckedExamplesOfEveryKind) {
  auto examples = LoadExamples(Library());
  ASSERT_TRUE(examples.ok()) << examples.status().message();
  EXPECT_GE(examples->size(), 40u);
  std::set<std::string> ids, kinds;
  for (const auto& e : *examples) {
    EXPECT_TRUE(ids.insert(e.id).second) << "duplicate id " << e.id;
    kinds.insert(e.kind);
    EXPECT_FALSE(e.app.empty()) << e.id;
  }
  EXPECT_EQ(kinds.size(), ExampleKinds().size());
}

// The paper's library holds 200 entries from open-source apps' issues; ours holds at least as
// many written from public reports of real Android apps, each naming its report.
TEST(BugExamples, TheShippedLibraryHasTwoHundredFromRealReportsEachWithItsAddress) {
  auto examples = LoadExamples(Library());
  ASSERT_TRUE(examples.ok()) << examples.status().message();
  const std::regex report(R"(https://github\.com/[^/]+/[^/]+/(issues|pull)/[0-9]+)");
  std::set<std::string> urls, kinds;
  for (const auto& e : *examples) {
    if (e.source != "real-app") {
      EXPECT_TRUE(e.url.empty()) << e.id;
      continue;
    }
    EXPECT_TRUE(std::regex_match(e.url, report)) << e.id << ": " << e.url;
    EXPECT_TRUE(urls.insert(e.url).second) << "two examples from " << e.url;
    kinds.insert(e.kind);
  }
  EXPECT_GE(urls.size(), 200u);
  EXPECT_EQ(kinds.size(), ExampleKinds().size());
}

TEST(BugExamples, NamesSplitIntoWords) {
  using V = std::vector<std::string>;
  EXPECT_EQ(NameWords("org.notes.ui.NoteEditActivity"), (V{"note", "edit"}));
  EXPECT_EQ(NameWords("HTMLViewFragment"), (V{"html", "view"}));
  EXPECT_EQ(NameWords("Tab2_settings"), (V{"tab", "2", "settings"}));
  EXPECT_EQ(NameWords("Activity"), V{});
}

TEST(BugExamples, SimilarityIsTheCosineOfTrigramCounts) {
  // "note": <no not ote te>; "notes": <no not ote tes es>: 3 shared of 4 and 5.
  EXPECT_NEAR(NameSimilarity("NoteActivity", "NotesActivity"), 3 / std::sqrt(20.0), 1e-12);
  EXPECT_NEAR(NameSimilarity("org.a.NoteEditActivity", "EditNoteActivity"), 1.0, 1e-12);
  EXPECT_EQ(NameSimilarity("MainActivity", "CartActivity"), 0.0);
  EXPECT_EQ(NameSimilarity("Activity", "NoteActivity"), 0.0) << "no words";
}

TEST(BugExamples, RetrievalRanksByNameAndLeavesOutTheAppUnderTest) {
  std::vector<BugExample> lib = {
      {.id = "a", .app = "x", .activity = "NotesActivity"},     // 0.671
      {.id = "b", .app = "y", .activity = "NoteEditActivity"},  // 4 of 4 and 8: 4/sqrt(32)
      {.id = "c", .app = "y", .activity = "NoteActivity"},      // 1
      {.id = "d", .app = "y", .activity = "CartActivity"},      // 0
      {.id = "e", .app = "under.test", .activity = "NoteActivity"}};
  auto top = Retrieve(lib, "org.under.test.NoteActivity", 3, "under.test");
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[0]->id, "c");
  EXPECT_EQ(top[1]->id, "b");  // 0.707 > 0.671
  EXPECT_EQ(top[2]->id, "a");
  EXPECT_NEAR(NameSimilarity("NoteEditActivity", "NoteActivity"), 4 / std::sqrt(32.0), 1e-12);

  auto shipped = LoadExamples(Library());
  ASSERT_TRUE(shipped.ok());
  auto four = Retrieve(*shipped, "org.notes.NoteEditActivity", 4, "org.notes");
  ASSERT_EQ(four.size(), 4u);
  for (const auto* e : four) EXPECT_NE(e->app, "org.notes") << e->id;
  for (size_t i = 1; i < four.size(); ++i)
    EXPECT_GE(NameSimilarity("NoteEditActivity", four[i - 1]->activity),
              NameSimilarity("NoteEditActivity", four[i]->activity));
}

TEST(BugExamples, ABrokenLibraryIsRefusedWithTheExampleAndField) {
  auto dir = testing::TempDir("examples_bad");
  auto write = [&](const std::string& text) {
    EXPECT_TRUE(WriteFileAtomic(dir / "lib.json", text).ok());
    auto r = LoadExamples(dir / "lib.json");
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.status().message();
  };
  const std::string good =
      R"("id": "T1", "app": "a", "activity": "Main", "function": "f", "steps": ["tap"],
         "expected": "x", "actual": "y")";
  EXPECT_NE(write(R"({"examples": [{)" + good + R"(, "kind": "data_los"}]})")
                .find("examples[0].kind: \"data_los\" is not a kind (did you mean \"data_loss\"?)"),
            std::string::npos);
  EXPECT_NE(write(R"({"examples": [{"id": "T1", "activity": "Main", "function": "f", "steps": [],
                     "expected": "x", "actual": "y", "kind": "duplicate"}]})")
                .find("examples[0].steps: no steps"),
            std::string::npos);
  EXPECT_NE(write(R"({"examples": [{)" + good + R"(, "kind": 3}]})").find("examples[0]"),
            std::string::npos);
  EXPECT_NE(write(R"([1, 2])").find("needs an \"examples\" array"), std::string::npos);
  // A confirmed report of a kind outside the five is an example of kind "other".
  ASSERT_TRUE(
      WriteFileAtomic(dir / "other.json", R"({"examples": [{)" + good + R"(, "kind": "other"}]})")
          .ok());
  auto other = LoadExamples(dir / "other.json");
  ASSERT_TRUE(other.ok()) << other.status().message();
  EXPECT_EQ((*other)[0].kind, kOtherKind);
}

}  // namespace
}  // namespace roam::vision
