#include "explore/dqn.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include <gtest/gtest.h>

#include "base/files.h"
#include "gui/actions.h"
#include "test_paths.h"

namespace roam::explore {
namespace {

// A stand-in network: Q is a fixed function of the row, and every Fit is recorded.
class FakeNetwork final : public QNetwork {
 public:
  explicit FakeNetwork(DqnShape shape) : shape_(shape) {}
  void Predict(const float* rows, size_t n, float* q) override {
    for (size_t i = 0; i < n; ++i) q[i] = q_of(rows + i * shape_.width());
  }
  double Fit(const float* rows, const float* targets, size_t n) override {
    (void)rows;
    fits.push_back(std::vector<float>(targets, targets + n));
    return 1.0;
  }
  std::string Weights() const override { return "fake-weights"; }

  std::function<float(const float* row)> q_of = [](const float* row) { return -row[0]; };
  std::vector<std::vector<float>> fits;  // the targets of each Fit

 private:
  DqnShape shape_;
};

gui::Screen Buttons(const std::string& activity, const std::vector<std::string>& texts) {
  gui::Screen s;
  s.package = "org.app";
  s.activity = activity;
  gui::Widget root;
  root.cls = "android.widget.FrameLayout";
  root.package = "org.app";
  root.bounds = {0, 0, 1080, 1920};
  s.widgets.push_back(root);
  for (size_t i = 0; i < texts.size(); ++i) {
    gui::Widget w;
    w.cls = "android.widget.Button";
    w.text = texts[i];
    w.clickable = true;
    w.package = "org.app";
    w.parent = 0;
    w.bounds = {0, static_cast<int>(i) * 100, 500, static_cast<int>(i) * 100 + 90};
    s.widgets.push_back(w);
  }
  s.Link();
  return s;
}

struct Harness {
  explicit Harness(DqnOptions options = {}) {
    DqnShape shape{.words = 6, .dim = 8, .generations = 3, .histogram = 10};
    auto net = std::make_unique<FakeNetwork>(shape);
    network = net.get();
    auto shared = std::make_shared<DqnShared>();
    shared->vectors = WordVectors::Hashed(8);
    shared->meta = {.shape = shape};
    shared->network = std::move(net);
    shared->loaded = true;
    strategy = std::make_unique<DqnStrategy>(options, "coverage", std::move(shared));
  }
  gui::Action Step(const gui::Screen& screen, Rng& rng, size_t new_units = 0) {
    gui::ActionsFor(screen, actions);
    StepView view{screen, 1, actions, step++, broadcasts};
    gui::Action a = strategy->Next(view, rng);
    strategy->Learn({.from = 1, .to = 1, .action = a, .new_units = new_units});
    return a;
  }
  std::unique_ptr<DqnStrategy> strategy;
  FakeNetwork* network = nullptr;
  std::vector<gui::Action> actions;
  std::vector<std::string> broadcasts;  // what the app's receivers take
  int64_t step = 0;
};

TEST(Dqn, WarmsUpAtRandomThenPicksTheLargestQ) {
  DqnOptions o;
  o.epsilon = 0;
  o.system_every = 0;
  Harness h(o);
  Rng rng(3);
  auto screen = Buttons(".Main", {"A", "B", "C"});
  std::map<std::string, int> picks;
  for (int i = 0; i < o.warmup; ++i) picks[h.Step(screen, rng).Describe()]++;
  EXPECT_EQ(h.strategy->stats().decisions, 0);
  // Q = -log(1 + FCR): the least executed event wins, so the greedy picks even out the counts
  // of the page's eleven events: three buttons; back, menu, the four swipes (a navigation
  // drawer opens with a swipe from the edge), rotate, restart.
  for (int i = 0; i < 110; ++i) picks[h.Step(screen, rng).Describe()]++;
  EXPECT_EQ(h.strategy->stats().decisions, 110);
  ASSERT_EQ(picks.size(), 11u);
  EXPECT_TRUE(picks.contains(gui::MakeGlobalAction(gui::ActionKind::kSwipeRight).Describe()));
  auto [lo, hi] = std::minmax_element(picks.begin(), picks.end(),
                                      [](auto& a, auto& b) { return a.second < b.second; });
  EXPECT_LE(hi->second - lo->second, 1);
}

TEST(Dqn, EpsilonGreedyWithASeededRng) {
  auto run = [](double epsilon, uint64_t seed) {
    DqnOptions o;
    o.epsilon = epsilon;
    o.system_every = 0;
    o.warmup = 0;
    Harness h(o);
    Rng rng(seed);
    auto screen = Buttons(".Main", {"A", "B"});
    std::vector<std::string> trace;
    for (int i = 0; i < 1000; ++i) trace.push_back(h.Step(screen, rng).Describe());
    return std::pair{h.strategy->stats().decisions, trace};
  };
  EXPECT_EQ(run(1.0, 1).first, 0);
  EXPECT_EQ(run(0.0, 1).first, 1000);
  auto [greedy, trace] = run(0.2, 7);
  EXPECT_NEAR(static_cast<double>(greedy), 800, 40);
  EXPECT_EQ(run(0.2, 7).second, trace);  // the same seed, the same run
}

TEST(Dqn, LearnsEachStepWithUpToReplayHistorySamplesAndThePapersRewards) {
  DqnOptions o;
  o.system_every = 0;
  o.gamma = 0.5;
  Harness h(o);
  h.network->q_of = [](const float*) { return 2.0f; };  // max Q of every page: 2
  Rng rng(1);
  auto screen = Buttons(".Main", {"A"});
  h.Step(screen, rng, /*new_units=*/3);  // rewarded +5, learned at the next step
  h.Step(screen, rng);                   // -2
  for (int i = 0; i < 6; ++i) h.Step(screen, rng);
  const auto& fits = h.network->fits;
  ASSERT_EQ(fits.size(), 7u);  // every step but the first, which has no earlier sample
  EXPECT_EQ(fits[0], std::vector<float>{5 + 0.5f * 2});
  EXPECT_EQ(fits[1].front(), -2 + 0.5f * 2);
  // 1 new sample + min(4, samples in memory).
  std::vector<size_t> sizes;
  for (const auto& f : fits) sizes.push_back(f.size());
  EXPECT_EQ(sizes, (std::vector<size_t>{1, 2, 3, 4, 5, 5, 5}));
  EXPECT_EQ(h.strategy->stats().positive, 1);
}

TEST(Dqn, SendsASystemEventEveryTenStepsAndFrozenNeverLearns) {
  DqnOptions o;
  o.frozen = true;
  Harness h(o);
  Rng rng(5);
  auto screen = Buttons(".Main", {"A", "B"});
  for (int i = 1; i <= 30; ++i) {
    gui::Action a = h.Step(screen, rng);
    if (i % 10 == 0) {
      EXPECT_TRUE(a.kind == gui::ActionKind::kRotate || a.kind == gui::ActionKind::kKey)
          << i << ": " << a.Describe();
    }
  }
  EXPECT_TRUE(h.network->fits.empty());
}

TEST(Dqn, TheSystemEventsIncludeTheBroadcastsTheAppTakesUnlessTold) {
  auto run = [](bool broadcasts) {
    DqnOptions o;
    o.system_every = 2;
    o.broadcasts = broadcasts;
    Harness h(o);
    h.broadcasts = {"android.intent.action.BATTERY_LOW", "org.app.REFRESH"};
    Rng rng(5);
    auto screen = Buttons(".Main", {"A", "B"});
    std::map<std::string, int> system;
    for (int i = 1; i <= 400; ++i) {
      gui::Action a = h.Step(screen, rng);
      if (i % 2 == 0) {
        ++system[a.Describe()];
      } else {
        EXPECT_NE(a.kind, gui::ActionKind::kBroadcast) << i;
      }
    }
    return system;
  };
  // Six system events, each as likely: a rotation, three volume keys, two broadcasts.
  const auto with = run(true);
  EXPECT_EQ(with.size(), 6u);
  EXPECT_GT(with.at("broadcast \"android.intent.action.BATTERY_LOW\""), 15);
  EXPECT_GT(with.at("broadcast \"org.app.REFRESH\""), 15);
  const auto without = run(false);
  EXPECT_EQ(without.size(), 4u);
  for (const auto& [what, n] : without) EXPECT_FALSE(what.starts_with("broadcast")) << what;
}

TEST(Dqn, OnRequestEveryStepsQValuesAndHowItPickedAreRecorded) {
  DqnOptions o;
  o.warmup = 2;
  o.epsilon = 0;
  o.system_every = 5;
  o.record_q = true;
  Harness h(o);
  h.network->q_of = [](const float* row) { return 1.0f - row[0]; };
  Rng rng(1);
  auto screen = Buttons(".Main", {"A", "B"});
  std::vector<gui::Action> done;
  for (int i = 0; i < 5; ++i) done.push_back(h.Step(screen, rng));
  std::vector<FiguresFile> files;
  h.strategy->AddFigures(files);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[1].name, "dqn-steps");
  const auto& steps = files[1].figures;
  ASSERT_EQ(steps.size(), 5u);
  std::vector<std::string> how;
  for (const auto& st : steps) how.push_back(st["how"]);
  EXPECT_EQ(how, (std::vector<std::string>{"warmup", "warmup", "network", "network", "system"}));
  EXPECT_EQ(steps[4]["chosen"], -1);
  // A network step: its events are the page's (two buttons and the eight globals), their Q
  // values are the network's, and the chosen one has the largest and is what was done.
  const auto& third = steps[2];
  EXPECT_EQ(third["activity"], ".Main");
  ASSERT_EQ(third["events"].size(), 10u);
  const int chosen = third["chosen"];
  double best = -1e9;
  for (const auto& e : third["events"]) best = std::max(best, e["q"].get<double>());
  EXPECT_EQ(third["events"][chosen]["q"].get<double>(), best);
  EXPECT_EQ(third["events"][0]["event"], "click A");
  // Off (the default): no such file.
  Harness quiet;
  files.clear();
  quiet.strategy->AddFigures(files);
  EXPECT_EQ(files.size(), 1u);
}

TEST(Dqn, TheNoveltyRuleRewardsNewStatesWhereThereIsNoCoverage) {
  EXPECT_EQ(ResolveRewardRule("auto", true), "coverage");
  EXPECT_EQ(ResolveRewardRule("auto", false), "novelty");
  EXPECT_EQ(ResolveRewardRule("novelty", true), "novelty");
  DqnOptions bad;
  bad.reward = "units";
  EXPECT_NE(CheckDqnOptions(bad).message().find("dqn.reward \"units\""), std::string::npos);
  bad = {};
  bad.epsilon = 1.5;
  EXPECT_FALSE(CheckDqnOptions(bad).ok());
}

TEST(DqnModel, RoundTripsAndRefusesCorruptOrForeignFiles) {
  DqnModelMeta meta{.shape = {.words = 6, .dim = 100, .generations = 3, .histogram = 10},
                    .vectors_fingerprint = 0x1234,
                    .trained_events = 99,
                    .apps = {"a.json", "b.json"}};
  std::string bytes = EncodeDqnModel(meta, "WEIGHTS");
  auto back = DecodeDqnModel(bytes, "m.bin");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->meta.shape, meta.shape);
  EXPECT_EQ(back->meta.vectors_fingerprint, 0x1234u);
  EXPECT_EQ(back->meta.trained_events, 99);
  EXPECT_EQ(back->meta.apps, meta.apps);
  EXPECT_EQ(back->weights, "WEIGHTS");

  auto fault = [](std::string_view b) {
    auto m = DecodeDqnModel(b, "m.bin");
    EXPECT_FALSE(m.ok());
    return m.ok() ? std::string() : m.status().message();
  };
  std::string flipped = bytes;
  flipped[flipped.size() - 2] ^= 1;
  EXPECT_NE(fault(flipped).find("m.bin: corrupt: checksum mismatch"), std::string::npos);
  EXPECT_NE(fault(bytes.substr(0, 40)).find("truncated"), std::string::npos);
  EXPECT_NE(fault("ROAMMODL" + bytes.substr(8)).find("not a Roam DQN model file"),
            std::string::npos);
  std::string newer = bytes;
  newer[8] = 2;
  EXPECT_NE(fault(newer).find("model format version 2"), std::string::npos);

  auto dir = testing::TempDir("dqn_model_file");
  ASSERT_TRUE(SaveDqnModel(meta, "W", dir / "sub" / "m.bin").ok());
  auto loaded = LoadDqnModel(dir / "sub" / "m.bin");
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->weights, "W");
  EXPECT_TRUE(LoadDqnModel(dir / "none.bin").status().IsNotFound());
}

// Make: a missing model is an error unless a fresh one is asked for; a model of another input
// shape is refused with both shapes.
TEST(Dqn, MakeLoadsCreatesOrRefusesTheModel) {
  auto dir = testing::TempDir("dqn_make");
  DqnOptions o;
  o.vectors = "hashed";
  o.model = dir / "m.bin";
  int fresh = 0;
  o.networks.fresh = [&](const DqnShape& s, double, uint64_t) -> Result<std::unique_ptr<QNetwork>> {
    ++fresh;
    return std::unique_ptr<QNetwork>(std::make_unique<FakeNetwork>(s));
  };
  o.networks.load = [](std::string_view w, const DqnShape& s, double,
                       const std::string&) -> Result<std::unique_ptr<QNetwork>> {
    EXPECT_EQ(w, "fake-weights");
    return std::unique_ptr<QNetwork>(std::make_unique<FakeNetwork>(s));
  };
  auto missing = DqnStrategy::Make(o, true);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no such model file (`roam train --model"),
            std::string::npos);
  o.create = true;
  o.app = "gen1.json";
  auto made = DqnStrategy::Make(o, true);
  ASSERT_TRUE(made.ok()) << made.status().message();
  EXPECT_EQ(fresh, 1);
  ASSERT_TRUE((*made)->Flush().ok());
  auto saved = LoadDqnModel(o.model);
  ASSERT_TRUE(saved.ok());
  EXPECT_EQ(saved->meta.apps, std::vector<std::string>{"gen1.json"});
  auto again = DqnStrategy::Make(o, true);  // loads what was saved
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(fresh, 1);
  o.words = 4;
  auto other = DqnStrategy::Make(o, true);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("reads 6 words of 100-d vectors"), std::string::npos);
  ASSERT_TRUE(WriteFileAtomic(o.model, "garbage").ok());
  o.words = 6;
  auto corrupt = DqnStrategy::Make(o, true);
  ASSERT_FALSE(corrupt.ok());
  EXPECT_NE(corrupt.status().message().find("not a Roam DQN model file"), std::string::npos);
}

}  // namespace
}  // namespace roam::explore
