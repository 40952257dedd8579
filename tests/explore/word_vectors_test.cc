#include "explore/word_vectors.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <set>

#include <gtest/gtest.h>

#include "base/files.h"
#include "gui/fields.h"
#include "gui/uiautomator.h"
#include "test_paths.h"

namespace roam::explore {
namespace {

TEST(WordVectors, KnownWordsReadTheirRowUnknownWordsTheirHashVector) {
  auto v = WordVectors::Parse("2 2\nok 0.5 -0.5\ncancel 1 1\n", "v.vec");
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_EQ(v->dim(), 2);
  EXPECT_EQ(v->size(), 2u);
  float out[2];
  v->Lookup("cancel", out);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_TRUE(v->Known("ok"));
  EXPECT_FALSE(v->Known("zzyzx"));
  float a[2], b[2], c[2];
  v->Lookup("zzyzx", a);
  v->Lookup("zzyzx", b);
  v->Lookup("qwerty", c);
  EXPECT_EQ(a[0], b[0]);  // deterministic
  EXPECT_EQ(a[1], b[1]);
  EXPECT_NE(a[0], c[0]);  // and its own
  // Hash vectors are about as long as the known ones (here 0.71 and 1.41 long).
  double norm = std::hypot(a[0], a[1]);
  EXPECT_GT(norm, 0.05);
  EXPECT_LT(norm, 3.0);
  auto hashed = WordVectors::Hashed(50);
  std::vector<float> h(50);
  hashed.Lookup("anything", h.data());
  EXPECT_NE(h, std::vector<float>(50, 0.0f));
}

TEST(WordVectors, BadFilesAreRefusedWithTheLine) {
  auto bad = [](const std::string& text) {
    auto v = WordVectors::Parse(text, "v.vec");
    EXPECT_FALSE(v.ok()) << text;
    return v.ok() ? std::string() : v.status().message();
  };
  EXPECT_NE(bad("hello world\n").find("v.vec:1: not a word-vector file"), std::string::npos);
  EXPECT_NE(bad("1 3\nok 1 2\n").find("v.vec:2: \"ok\": expected 3 numbers, number 3"),
            std::string::npos);
  EXPECT_NE(bad("1 2\nok 1 2 3\n").find("more than 2 numbers"), std::string::npos);
  EXPECT_NE(bad("1 2\nok 1 nan\n").find("number 2 is not one"), std::string::npos);
  EXPECT_NE(bad("3 2\nok 1 2\n").find("the header says 3 words, the file holds 1"),
            std::string::npos);
  EXPECT_NE(bad("0 2\n").find("no word vectors"), std::string::npos);
  auto missing = WordVectors::Load("/nonexistent/v.vec");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/v.vec"), std::string::npos);
}

// The file read last is not read again while it is unchanged; a file written since is.
TEST(WordVectors, AFileIsReadAgainOnlyOnceItChanged) {
  const auto file = testing::TempDir("word_vectors_cache") / "v.vec";
  ASSERT_TRUE(WriteFileAtomic(file, "1 2\nok 1 2\n").ok());
  auto first = WordVectors::Load(file);
  ASSERT_TRUE(first.ok()) << first.status().message();
  auto again = WordVectors::Load(file);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->fingerprint(), first->fingerprint());
  ASSERT_TRUE(WriteFileAtomic(file, "2 2\nok 3 4\ncancel 1 1\n").ok());
  auto changed = WordVectors::Load(file);
  ASSERT_TRUE(changed.ok());
  EXPECT_EQ(changed->size(), 2u);
  float out[2];
  changed->Lookup("ok", out);
  EXPECT_EQ(out[0], 3.0f);
  first->Lookup("ok", out);  // a copy handed out before keeps what it read
  EXPECT_EQ(out[0], 1.0f);
  ASSERT_TRUE(WriteFileAtomic(file, "1 2\nok nan 2\n").ok());
  EXPECT_FALSE(WordVectors::Load(file).ok());  // and a broken file is an error, not the old one
}

// The vectors setup.sh builds (scripts/word_vectors.sh): UI words are in the vocabulary.
TEST(WordVectors, TheBuiltVectorsKnowUiWords) {
  std::filesystem::path file =
      std::filesystem::path(ROAM_BINARY).parent_path() / "wordvec" / "vectors.vec";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " not built";
  auto v = WordVectors::Load(file);
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_EQ(v->dim(), 100);
  for (const char* word : {"save", "delete", "settings", "cancel", "search", "add"})
    EXPECT_TRUE(v->Known(word)) << word;
  // From Android's framework strings ("Navigate up", ...) and WordNet's synset words.
  for (const char* word : {"navigate", "download", "update", "messaging", "bookmark"})
    EXPECT_TRUE(v->Known(word)) << word;
}

// The words of real apps' screens (texts and descriptions of the real uiautomator dumps under
// ../shared/real, split as the dqn strategy splits labels; words of letters only): most are in the
// vocabulary (70%). Those outside get hash vectors, which tell TXC nothing. The vectors trained
// on WordNet's glosses and the simulated apps alone knew 62% of them.
TEST(WordVectors, TheBuiltVectorsKnowMostWordsOfRealAppsScreens) {
  namespace fs = std::filesystem;
  const fs::path file = fs::path(ROAM_BINARY).parent_path() / "wordvec" / "vectors.vec";
  const std::vector<fs::path> dumps = roam::testing::RealDumps();
  if (!fs::exists(file)) GTEST_SKIP() << file << " not built";
  if (dumps.empty()) GTEST_SKIP() << "no ../shared/real/dumps";
  auto v = WordVectors::Load(file);
  ASSERT_TRUE(v.ok()) << v.status().message();
  std::set<std::string> words;
  for (const fs::path& dump : dumps) {
    auto xml = ReadFile(dump);
    ASSERT_TRUE(xml.ok()) << xml.status().message();
    auto screen = gui::ParseDump(*xml);
    if (!screen.ok()) continue;  // real_dumps_test reads them all
    for (const gui::Widget& w : screen->widgets)
      for (const std::string* label : {&w.text, &w.content_desc})
        for (std::string& word : gui::LabelWords(*label))
          if (std::all_of(word.begin(), word.end(), [](char c) { return c >= 'a' && c <= 'z'; }))
            words.insert(std::move(word));
  }
  ASSERT_GT(words.size(), 500u);
  const auto known =
      std::count_if(words.begin(), words.end(), [&](const std::string& w) { return v->Known(w); });
  const double share = static_cast<double>(known) / static_cast<double>(words.size());
  std::cout << "known: " << known << " of " << words.size() << " distinct words (" << share
            << ")\n";
  EXPECT_GE(share, 0.65);
}

}  // namespace
}  // namespace roam::explore
