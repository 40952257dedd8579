// The commands that join work done apart, as a user runs them: `roam bench --shard` and `roam
// bench merge`, `roam model merge`, and `roam sim import` of a real recording (skipped when
// ../shared/real is absent).
#include <tuple>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "test_paths.h"

namespace roam {
namespace {

namespace fs = std::filesystem;
using testing::RunRoam;

std::string Src(const std::string& rel) { return (testing::SourceDir() / rel).string(); }

TEST(MergeCli, ShardsOfABenchmarkMergeIntoOneTable) {
  const fs::path dir = testing::TempDir("merge_cli_bench");
  const std::string common = "bench --apps " + Src("apps/diary.json") + " --apps " +
                             Src("apps/nectroid.json") +
                             " --strategies random --seeds 2 --events 200 -q";
  for (int i = 1; i <= 2; ++i) {
    auto r = RunRoam(fmt::format("{} --shard {}/2 --json {} --out {}", common, i,
                                 (dir / fmt::format("s{}.json", i)).string(),
                                 (dir / fmt::format("out{}", i)).string()));
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find(fmt::format("shard {} of 2", i)), std::string::npos) << r.out;
  }
  auto all = RunRoam("bench merge " + (dir / "s1.json").string() + " " +
                     (dir / "s2.json").string() + " --json " + (dir / "all.json").string());
  EXPECT_EQ(all.code, 0) << all.out;
  EXPECT_NE(all.out.find("4 runs from 2 files"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("== diary"), std::string::npos);
  EXPECT_NE(all.out.find("== nectroid"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "all.json"));
  auto part = RunRoam("bench merge " + (dir / "s1.json").string());
  EXPECT_EQ(part.code, 1);
  EXPECT_NE(part.out.find("in no file"), std::string::npos) << part.out;
  auto bad = RunRoam(common + " --shard 3/2");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("--shard \"3/2\""), std::string::npos) << bad.out;
}

TEST(MergeCli, ModelsOfOneAppMergeAndModelsOfTwoAppsDoNot) {
  const fs::path dir = testing::TempDir("merge_cli_model");
  for (const auto& [name, app, seed] : {std::tuple{"a", "apps/diary.json", 1},
                                        {"b", "apps/diary.json", 2},
                                        {"n", "apps/nectroid.json", 1}}) {
    auto r = RunRoam(fmt::format(
        "explore --app {} --strategy fastbot --model {} --events 300 "
        "--seed {} -q --out {}",
        Src(app), (dir / name).string(), seed, (dir / (std::string("run-") + name)).string()));
    ASSERT_EQ(r.code, 0) << r.out;
  }
  auto merged = RunRoam("model merge " + (dir / "a").string() + " " + (dir / "b").string() +
                        " --out " + (dir / "ab").string());
  ASSERT_EQ(merged.code, 0) << merged.out;
  EXPECT_NE(merged.out.find("2 models of de.rampro.activitydiary merged"), std::string::npos)
      << merged.out;
  // The merged model drives a run as any model does.
  auto run = RunRoam("explore --app " + Src("apps/diary.json") + " --strategy fastbot --model " +
                     (dir / "ab").string() + " --events 100 --seed 3 -q --out " +
                     (dir / "run-ab").string());
  EXPECT_EQ(run.code, 0) << run.out;
  auto foreign = RunRoam("model merge " + (dir / "a").string() + " " + (dir / "n").string() +
                         " --out " + (dir / "an").string());
  EXPECT_EQ(foreign.code, 2);
  EXPECT_NE(foreign.out.find("models of different apps do not merge"), std::string::npos)
      << foreign.out;
}

TEST(MergeCli, ARealRecordingImportsToASpecThatChecks) {
  const fs::path real = testing::RealDataDir();
  if (real.empty()) GTEST_SKIP() << "../shared/real is absent";
  fs::path kea;
  for (const auto& e : fs::recursive_directory_iterator(real / "models" / "kea"))
    if (e.path().filename() == "utg.js") kea = e.path().parent_path();
  if (kea.empty()) GTEST_SKIP() << "no Kea recording in ../shared/real";
  const fs::path spec = testing::TempDir("merge_cli_import") / "imported.json";
  auto r = RunRoam("sim import " + kea.string() + " --out " + spec.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("handlers (code units)"), std::string::npos) << r.out;
  auto check = RunRoam("sim check " + spec.string());
  EXPECT_EQ(check.code, 0) << check.out;
  EXPECT_NE(check.out.find(": ok ("), std::string::npos) << check.out;
}

}  // namespace
}  // namespace roam
