#include "report/verdict.h"

#include <gtest/gtest.h>

#include "base/files.h"
#include "test_paths.h"

namespace roam::report {
namespace {

Summary TwoCrashesAndAFunctional() {
  Summary s;
  s.crashes = {{.kind = "crash", .signature = "A@x", .bug_dir = "bugs/B1"},
               {.kind = "native_crash", .signature = "SIGSEGV@y", .bug_dir = "bugs/B2"}};
  s.anrs = {{.kind = "anr", .signature = "ANR@z", .bug_dir = "bugs/B3"}};
  s.functional = std::vector<FunctionalFinding>{{.id = "F1", .key = "v1", .bug_dir = "bugs/F1"}};
  return s;
}

TEST(KnownBugs, ReadsSignaturesSkippingCommentsAndBlanks) {
  auto dir = testing::TempDir("known_text");
  ASSERT_TRUE(WriteFileAtomic(dir / "k.txt", "# known\n\n  A@x  \nANR@z\r\n").ok());
  auto k = KnownBugs::Read(dir / "k.txt");
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_EQ(k->size(), 2u);
  EXPECT_TRUE(k->Contains("A@x"));
  EXPECT_TRUE(k->Contains("ANR@z"));
  EXPECT_FALSE(k->Contains("# known"));
}

TEST(KnownBugs, ReadsAPreviousRunsSummary) {
  auto dir = testing::TempDir("known_summary");
  ASSERT_TRUE(WriteSummary(dir / "summary.json", TwoCrashesAndAFunctional()).ok());
  auto k = KnownBugs::Read(dir / "summary.json");
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_EQ(k->size(), 4u);
  EXPECT_TRUE(k->Contains("v1"));
  ASSERT_TRUE(WriteFileAtomic(dir / "other.json", "{\"x\": 1}").ok());
  auto bad = KnownBugs::Read(dir / "other.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("other.json"), std::string::npos);
  ASSERT_TRUE(WriteFileAtomic(dir / "broken.json", "{\"crashes\": [").ok());
  EXPECT_FALSE(KnownBugs::Read(dir / "broken.json").ok());
  EXPECT_FALSE(KnownBugs::Read(dir / "missing.txt").ok());
}

TEST(KnownBugs, AppendAddsOnlyNewSignatures) {
  auto dir = testing::TempDir("known_append");
  auto added = KnownBugs::Append(dir / "k.txt", {"A@x", "B@y", "A@x"});
  ASSERT_TRUE(added.ok()) << added.status().message();
  EXPECT_EQ(*added, 2);
  added = KnownBugs::Append(dir / "k.txt", {"B@y", "C@z"});
  ASSERT_TRUE(added.ok());
  EXPECT_EQ(*added, 1);
  auto k = KnownBugs::Read(dir / "k.txt");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->size(), 3u);
  EXPECT_FALSE(KnownBugs::Append(dir / "k.txt", {"two\nlines"}).ok());
}

TEST(FailOn, ParsesKindsAndRefusesUnknownOnes) {
  auto f = FailOn::Parse("crash, functional");
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(f->crash);
  EXPECT_FALSE(f->anr);
  EXPECT_TRUE(f->functional);
  EXPECT_FALSE(FailOn::Parse("").value().Any());
  EXPECT_FALSE(FailOn::Parse("none").value().Any());
  auto bad = FailOn::Parse("crash,anrs");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("did you mean \"anr\""), std::string::npos)
      << bad.status().message();
}

TEST(FailingBugs, NewBugsOfTheNamedKindsOnly) {
  Summary s = TwoCrashesAndAFunctional();
  EXPECT_TRUE(FailingBugs(s, {}).empty());
  auto crashes = FailingBugs(s, {.crash = true});
  ASSERT_EQ(crashes.size(), 2u);  // a native crash is a crash
  EXPECT_EQ(crashes[1].kind, "native_crash");
  EXPECT_EQ(FailingBugs(s, {.anr = true}).size(), 1u);
  EXPECT_EQ(FailingBugs(s, {.functional = true}).size(), 1u);

  auto dir = testing::TempDir("known_mark");
  ASSERT_TRUE(WriteFileAtomic(dir / "k.txt", "A@x\nv1\n").ok());
  MarkKnown(*KnownBugs::Read(dir / "k.txt"), s);
  EXPECT_TRUE(s.crashes[0].known);
  EXPECT_FALSE(s.crashes[1].known);
  EXPECT_TRUE((*s.functional)[0].known);
  auto left = FailingBugs(s, {.crash = true, .anr = true, .functional = true});
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(left[0].signature, "SIGSEGV@y");
  EXPECT_EQ(left[1].signature, "ANR@z");
}

TEST(FailingBugs, AModelWhoseAnswersWereMostlyReplacedFailsOnlyWhenAsked) {
  Summary s;
  s.sections = {{"vision", {{"questions", 9}, {"answers_replaced", 8}}}};
  EXPECT_TRUE(FailingBugs(s, {.crash = true}).empty());
  auto fails = FailingBugs(s, *FailOn::Parse("model"));
  ASSERT_EQ(fails.size(), 1u);
  EXPECT_EQ(fails[0].kind, "model");
  EXPECT_EQ(fails[0].signature, "8 of 9 answers replaced");
  s.sections["vision"]["answers_replaced"] = 4;  // not more than half
  EXPECT_TRUE(FailingBugs(s, {.model = true}).empty());
}

}  // namespace
}  // namespace roam::report
