// End to end on the simulator with the dqn strategy (DinoDroid): `Train` across generated apps,
// then an app it never saw; the model file as the runs keep it.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/files.h"
#include "explore/dqn_model.h"
#include "run/explore/explore.h"
#include "run/explore/train.h"
#include "test_paths.h"

namespace roam::run {
namespace {

constexpr const char* kGoal = "org.roam.deep.GoalActivity";

// Three small generated apps (seeds no benchmark uses) as a training set.
std::vector<std::filesystem::path> TrainingApps(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> apps;
  for (uint64_t seed : {7101, 7102, 7103}) {
    auto path = dir / ("train" + std::to_string(seed) + ".json");
    auto r = testing::RunRoam(
        fmt::format("sim generate --seed {} --activities 15 --out {}", seed, path.string()));
    EXPECT_EQ(r.code, 0) << r.out;
    apps.push_back(path);
  }
  return apps;
}

ExploreOptions Deep(const std::string& strategy, uint64_t seed, const std::string& out) {
  ExploreOptions o;
  o.target.app = testing::SourceDir() / "tests/apps/deep.json";
  o.strategy = strategy;
  o.seed = seed;
  o.out = testing::TempDir(out);
  o.force = true;
  o.budget.events = 800;
  o.html_report = false;
  return o;
}

bool Reached(const report::Summary& s) {
  return std::count(s.activities_covered.begin(), s.activities_covered.end(), kGoal) > 0;
}

// tests/apps/deep.json: GoalActivity is 6 clicks from the start, and on every screen two of six
// buttons lead back to the start. A network trained on other apps learns to prefer events whose
// children pages hold unexecuted events; random rarely gets that deep in 800 events.
TEST(DqnExplore, TrainedOnOtherAppsReachesTheDeepActivityMoreOftenThanRandom) {
  auto dir = testing::TempDir("dqn_train");
  TrainOptions t;
  t.apps = TrainingApps(dir);
  t.events = 1500;
  t.model = dir / "model.bin";
  t.out = dir / "runs";
  auto trained = Train(t, {}, nullptr);
  ASSERT_TRUE(trained.ok()) << trained.status().message();
  ASSERT_EQ(trained->size(), 3u);
  auto model = explore::LoadDqnModel(t.model);
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_EQ(model->meta.apps.size(), 3u);
  EXPECT_GE(model->meta.trained_events, 4000);

  int dqn = 0, random = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    ExploreOptions o = Deep("dqn", seed, "dqn_deep");
    o.strategy_settings.dqn.model = t.model;
    o.strategy_settings.dqn.frozen = true;  // every seed starts from the trained model
    auto d = Explore(o);
    ASSERT_TRUE(d.ok()) << d.status().message();
    dqn += Reached(*d);
    auto r = Explore(Deep("random", seed, "dqn_deep_random"));
    ASSERT_TRUE(r.ok());
    random += Reached(*r);
  }
  EXPECT_GT(dqn, random) << "dqn reached the goal in " << dqn << " of 5 seeds, random in "
                         << random;
  EXPECT_GE(dqn, 3);
}

TEST(DqnExplore, TheRunRecordsItsSettingsAndKeepsTeachingTheModel) {
  auto dir = testing::TempDir("dqn_keep");
  TrainOptions t;
  t.apps = {TrainingApps(dir).front()};
  t.events = 200;
  t.model = dir / "model.bin";
  t.out = dir / "runs";
  ASSERT_TRUE(Train(t, {}, nullptr).ok());
  const int64_t before = explore::LoadDqnModel(t.model)->meta.trained_events;

  ExploreOptions o = Deep("dqn", 1, "dqn_keep_run");
  o.budget.events = 100;
  o.strategy_settings.dqn.model = t.model;
  auto run = Explore(o);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(explore::LoadDqnModel(t.model)->meta.trained_events, before + 100);
  auto config = ReadJsonFile(o.out / "config.json");
  ASSERT_TRUE(config.ok());
  const auto& dqn = (*config)["dqn"];
  EXPECT_EQ(dqn["epsilon"], 0.2);
  EXPECT_EQ(dqn["warmup"], 20);
  EXPECT_EQ(dqn["replay"], 4);
  EXPECT_EQ(dqn["learning_rate"], 1e-4);
  EXPECT_EQ(dqn["reward_positive"], 5.0);
  EXPECT_EQ(dqn["reward_negative"], -2.0);
  EXPECT_EQ(dqn["reward_rule"], "coverage");  // the simulator reports code units
  EXPECT_EQ(dqn["model"], t.model.string());
  auto stats = ReadJsonFile(o.out / "dqn.json");
  ASSERT_TRUE(stats.ok());
  EXPECT_GT((*stats)["updates"].get<int>(), 50);

  // Frozen: the file stays as it was.
  o.strategy_settings.dqn.frozen = true;
  ASSERT_TRUE(Explore(o).ok());
  EXPECT_EQ(explore::LoadDqnModel(t.model)->meta.trained_events, before + 100);

  // With time travel around it, the dqn's figures are still written.
  o.strategy = "timetravel:dqn";
  std::filesystem::remove(o.out / "dqn.json");
  ASSERT_TRUE(Explore(o).ok());
  EXPECT_TRUE(std::filesystem::exists(o.out / "dqn.json"));
}

// `roam explore --strategy dqn` with no model named runs on the model compiled in
// (data/dqn/model.bin), which fits the word vectors setup.sh builds.
TEST(DqnExplore, TheShippedModelRunsOutOfTheBox) {
  ASSERT_FALSE(explore::ShippedDqnModel().empty()) << "data/dqn/model.bin was not compiled in";
  auto shipped = explore::DecodeDqnModel(explore::ShippedDqnModel(), "the shipped model");
  ASSERT_TRUE(shipped.ok()) << shipped.status().message();
  EXPECT_GE(shipped->meta.trained_events, 100000);
  std::vector<std::string> notes;
  ExploreOptions o = Deep("dqn", 1, "dqn_shipped");
  o.budget.events = 300;
  o.strategy_settings.dqn.note = [&](const std::string& n) { notes.push_back(n); };
  auto run = Explore(o);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->events, 300);
  // Trained with these very word vectors: when scripts/word_vectors.sh's corpus changes (an
  // app's texts), the shipped model must be trained again (bench/dinodroid.sh says how).
  EXPECT_TRUE(notes.empty()) << notes.front();
  auto config = ReadJsonFile(o.out / "config.json");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ((*config)["dqn"]["model"], "shipped");
}

}  // namespace
}  // namespace roam::run
