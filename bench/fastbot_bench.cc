// Fastbot2's costs: one decision plus one learning update (FastbotStrategy::Next, which maps the
// screen's actions to hyper-events, records the last transition, computes its reward, picks an
// event and makes the N-step SARSA update) on a screen of 50 actions with a model of 100,000
// hyper-events; and saving and loading a model of 1,000,000 transitions (file size as a
// counter). Targets: the decision median under 10 us; save and load under 1 s and 100 MB.
#include <filesystem>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "bench_screens.h"
#include "explore/fastbot.h"
#include "gui/actions.h"
#include "model/model_file.h"

namespace {

using namespace roam;
using gui::ActionKind;

using bench::Buttons;

// `events` hyper-events over 1,000 activities, each with `per_event` transitions into the
// first `targets` activities.
model::Model BigModel(int events, int per_event, int targets = 1000) {
  model::Model m("org.bench");
  std::vector<model::ActivityId> activities;
  for (int a = 0; a < 1000; ++a)
    activities.push_back(m.InternActivity(fmt::format("org.bench.A{}", a)));
  for (int i = 0; i < events; ++i) {
    gui::HyperEvent e{.activity = fmt::format("org.bench.A{}", i % 1000),
                      .resource_id = fmt::format("org.bench:id/w{}", i),
                      .text = "Item #",
                      .kind = ActionKind::kClick};
    model::EventId id = m.Intern(e);
    for (int t = 0; t < per_event; ++t) m.RecordTransition(id, activities[(i + 7 * t) % targets]);
    m.SetQ(id, (i % 100) / 50.0);
  }
  return m;
}

void BM_FastbotDecideAndLearn(benchmark::State& state) {
  explore::FastbotOptions o;
  explore::FastbotStrategy strategy(explore::FastbotMode::kCombined, o, BigModel(100000, 2));
  gui::Screen pages[2] = {Buttons("org.bench.A1", 50), Buttons("org.bench.A2", 50)};
  std::vector<gui::Action> actions[2];
  for (int p = 0; p < 2; ++p) gui::ActionsFor(pages[p], actions[p]);
  Rng rng(1);
  int64_t step = 0;
  // Warm up: past expansion, so the timed steps are the model and Q-table decisions.
  for (; step < 400; ++step)
    strategy.Next({pages[step % 2], uint64_t(step % 2), actions[step % 2], step}, rng);
  for (auto _ : state) {
    const int p = step % 2;
    benchmark::DoNotOptimize(strategy.Next({pages[p], uint64_t(p), actions[p], step}, rng));
    ++step;
  }
  state.counters["actions"] = static_cast<double>(actions[0].size());
  state.counters["hyper_events"] = static_cast<double>(strategy.model().event_count());
}
BENCHMARK(BM_FastbotDecideAndLearn)->Repetitions(5)->ReportAggregatesOnly(true);

// fastbot:pm where E says nothing: every event leads to A1..A3, all visited, so each decision
// looks ahead over the whole model (model/lookahead.h).
void BM_FastbotPmLookahead(benchmark::State& state) {
  explore::FastbotOptions o;
  explore::FastbotStrategy strategy(explore::FastbotMode::kModel, o, BigModel(100000, 2, 3));
  gui::Screen pages[3] = {Buttons("org.bench.A0", 50), Buttons("org.bench.A1", 50),
                          Buttons("org.bench.A2", 50)};
  std::vector<gui::Action> actions[3];
  for (int p = 0; p < 3; ++p) gui::ActionsFor(pages[p], actions[p]);
  Rng rng(1);
  int64_t step = 0;
  for (; step < 600; ++step)
    strategy.Next({pages[step % 3], uint64_t(step % 3), actions[step % 3], step}, rng);
  for (auto _ : state) {
    const int p = step % 3;
    benchmark::DoNotOptimize(strategy.Next({pages[p], uint64_t(p), actions[p], step}, rng));
    ++step;
  }
  state.counters["hyper_events"] = static_cast<double>(strategy.model().event_count());
}
BENCHMARK(BM_FastbotPmLookahead)->Repetitions(3)->ReportAggregatesOnly(true);

std::filesystem::path ModelPath() {
  return std::filesystem::temp_directory_path() / "roam_fastbot_bench" / "model.bin";
}

// 250,000 hyper-events with 4 transitions each: 1,000,000 transitions.
const model::Model& MillionTransitions() {
  static const model::Model m = BigModel(250000, 4);
  return m;
}

void BM_FastbotSaveModel(benchmark::State& state) {
  const model::Model& m = MillionTransitions();
  std::filesystem::create_directories(ModelPath().parent_path());
  for (auto _ : state) {
    Status s = model::SaveModel(m, ModelPath());
    if (!s.ok()) state.SkipWithError(s.message().c_str());
  }
  state.counters["transitions"] = static_cast<double>(m.transition_count());
  state.counters["file_MB"] = std::filesystem::file_size(ModelPath()) / 1e6;
}
BENCHMARK(BM_FastbotSaveModel)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_FastbotLoadModel(benchmark::State& state) {
  const model::Model& m = MillionTransitions();
  std::filesystem::create_directories(ModelPath().parent_path());
  if (!model::SaveModel(m, ModelPath()).ok()) state.SkipWithError("cannot save the model");
  size_t transitions = 0;
  for (auto _ : state) {
    auto loaded = model::LoadModel(ModelPath(), "org.bench");
    if (!loaded.ok()) {
      state.SkipWithError(loaded.status().message().c_str());
      break;
    }
    transitions = loaded->transition_count();
  }
  state.counters["transitions"] = static_cast<double>(transitions);
  state.counters["file_MB"] = std::filesystem::file_size(ModelPath()) / 1e6;
}
BENCHMARK(BM_FastbotLoadModel)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
