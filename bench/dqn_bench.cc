// DinoDroid's costs (--strategy dqn): the network's prediction and learning step alone, one
// decision on a screen of 50 events (the compacted graph's lookups, the three features of every
// event and one batched forward pass of the torch network), one learning update (a forward and
// backward pass and an Adam step on the step's sample and 4 replayed ones), and training throughput
// end to end (a fresh network learning on a simulated app, as `roam train` runs it). Targets: the
// decision median under 1 ms on one core, the update under 10 ms.
#include <filesystem>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "bench_screens.h"
#include "explore/dqn.h"
#include "gui/actions.h"
#include "run/explore/explore.h"
#include "run/networks.h"

namespace {

using namespace roam;

using bench::Buttons;

// A fresh network over the vectors setup.sh builds (hashed ones when they are absent).
std::unique_ptr<explore::DqnStrategy> Fresh(bool frozen) {
  explore::DqnOptions o;
  o.networks = run::TorchNetworks();
  o.vectors =
      std::filesystem::exists(run::DefaultWordVectors()) ? run::DefaultWordVectors() : "hashed";
  o.model = std::filesystem::temp_directory_path() / "roam_bench_dqn_absent.bin";
  o.create = true;
  o.save = false;
  o.frozen = frozen;
  o.warmup = 0;
  o.epsilon = 0;
  o.system_every = 0;
  auto made = explore::DqnStrategy::Make(o, true);
  if (!made.ok()) {
    fmt::print(stderr, "dqn: {}\n", made.status().message());
    std::abort();
  }
  return std::move(*made);
}

// Two screens of 42 buttons, visited in turn: with the 8 page events every screen has (back,
// menu, four swipes, rotate, restart), 50 events each.
struct TwoPages {
  gui::Screen pages[2] = {Buttons("org.bench.A", 42), Buttons("org.bench.B", 42)};
  std::vector<gui::Action> actions[2];
  int64_t step = 0;
  TwoPages() {
    for (int p = 0; p < 2; ++p) gui::ActionsFor(pages[p], actions[p]);
  }
  size_t events() const { return actions[0].size() + 8; }
  gui::Action Step(explore::DqnStrategy& strategy, Rng& rng) {
    const int p = static_cast<int>(step % 2);
    return strategy.Next({pages[p], uint64_t(p), actions[p], step++}, rng);
  }
};

// Decision only: features and the forward pass, nothing learned (--dqn-frozen).
void BM_DqnDecision50(benchmark::State& state) {
  auto strategy = Fresh(/*frozen=*/true);
  TwoPages pages;
  Rng rng(1);
  for (int i = 0; i < 200; ++i) pages.Step(*strategy, rng);
  for (auto _ : state) benchmark::DoNotOptimize(pages.Step(*strategy, rng));
  state.counters["events"] = static_cast<double>(pages.events());
}
BENCHMARK(BM_DqnDecision50)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// A step as a run makes it: the decision plus the learning update on the last step's reward.
void BM_DqnDecideAndLearn(benchmark::State& state) {
  auto strategy = Fresh(/*frozen=*/false);
  TwoPages pages;
  Rng rng(1);
  auto one = [&] {
    gui::Action a = pages.Step(*strategy, rng);
    strategy->Learn({.action = a, .new_units = static_cast<size_t>(pages.step % 3 == 0)});
  };
  for (int i = 0; i < 200; ++i) one();
  for (auto _ : state) one();
  state.counters["updates"] = static_cast<double>(strategy->stats().updates);
}
BENCHMARK(BM_DqnDecideAndLearn)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// The network alone, with the shipped shape (6 words of 100-d vectors): one prediction over a
// page of `n` events, one learning step on 5 samples (the step's and 4 replayed).
const explore::DqnShape kShippedShape{.words = 6, .dim = 100};

std::unique_ptr<explore::QNetwork> FreshNetwork() {
  auto made = run::TorchNetworks().fresh(kShippedShape, 1e-4, 1);
  if (!made.ok()) {
    fmt::print(stderr, "dqn: {}\n", made.status().message());
    std::abort();
  }
  return std::move(*made);
}

std::vector<float> Rows(size_t n) {
  std::vector<float> rows(n * static_cast<size_t>(kShippedShape.width()));
  Rng rng(3);
  for (float& x : rows) x = static_cast<float>(rng.Unit() * 2 - 1);
  return rows;
}

void BM_QNetPredict(benchmark::State& state) {
  auto net = FreshNetwork();
  const size_t n = static_cast<size_t>(state.range(0));
  auto rows = Rows(n);
  std::vector<float> q(n);
  for (auto _ : state) net->Predict(rows.data(), n, q.data());
}
BENCHMARK(BM_QNetPredict)->Arg(15)->Arg(50)->Unit(benchmark::kMicrosecond);

void BM_QNetFit5(benchmark::State& state) {
  auto net = FreshNetwork();
  auto rows = Rows(5);
  const std::vector<float> targets = {5, -2, -2, 5, -2};
  for (auto _ : state) benchmark::DoNotOptimize(net->Fit(rows.data(), targets.data(), 5));
}
BENCHMARK(BM_QNetFit5)->Unit(benchmark::kMicrosecond);

// Training throughput: a fresh network on the suite's settings app (apps/bench), 2,000
// events per iteration, as `roam train` runs an app.
void BM_DqnTrainingThroughput(benchmark::State& state) {
  const auto dir = std::filesystem::temp_directory_path() / "roam_bench_dqn_train";
  std::filesystem::remove_all(dir);
  int64_t events = 0;
  for (auto _ : state) {
    run::ExploreOptions o;
    o.target.app = std::filesystem::path(ROAM_SOURCE_DIR) / "apps/bench/settings.json";
    o.strategy = "dqn";
    o.seed = 1;
    o.out = dir / "run";
    o.force = true;
    o.budget.events = 2000;
    o.html_report = false;
    o.campaign.session.bug_screenshots = 0;
    o.campaign.session.state_screens = 0;  // as run/explore/train.cc
    o.strategy_settings.dqn.model = dir / "model.bin";
    o.strategy_settings.dqn.create = true;
    o.strategy_settings.dqn.save = false;
    auto summary = run::Explore(o);
    if (!summary.ok()) {
      state.SkipWithError(summary.status().message().c_str());
      return;
    }
    events += summary->events;
  }
  state.counters["events_per_s"] =
      benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_DqnTrainingThroughput)->Iterations(3)->Unit(benchmark::kMillisecond);

}  // namespace
