// Time travel's costs: selectFittestState over a dense state graph (walks of k = 3 edges counted
// by dynamic programming), and steps per second of timetravel:random against plain random on
// the settings app (the controller's own overhead: graph, stuck detector, snapshots).
#include <filesystem>

#include <benchmark/benchmark.h>

#include "explore/timetravel.h"
#include "run/explore/explore.h"

namespace {

using namespace roam;

void BM_SelectFittestDense(benchmark::State& state) {
  const uint64_t n = static_cast<uint64_t>(state.range(0));
  explore::StateGraph g;
  gui::Action a;
  for (uint64_t i = 0; i < n; ++i)
    for (uint64_t j = 0; j < n; ++j) g.AddEdge(i, j, a);
  std::vector<uint64_t> candidates;
  for (uint64_t i = 0; i < 100 && i < n; ++i) candidates.push_back(i);
  for (auto _ : state) benchmark::DoNotOptimize(explore::SelectFittestState(candidates, g, 3, {}));
  state.counters["edges"] = static_cast<double>(n * (n - 1));
}
BENCHMARK(BM_SelectFittestDense)->Arg(100)->Arg(300)->Unit(benchmark::kMillisecond);

void BM_ExploreSettings(benchmark::State& state, const char* strategy) {
  uint64_t seed = 1;
  double events = 0, seconds = 0;
  for (auto _ : state) {
    run::ExploreOptions o;
    o.target.app = std::filesystem::path(ROAM_SOURCE_DIR) / "apps/bench/settings.json";
    o.strategy = strategy;
    o.seed = seed++;
    o.out = std::filesystem::temp_directory_path() / "roam_timetravel_bench";
    o.force = true;
    o.budget.events = 5000;
    auto s = run::Explore(o);
    if (!s.ok()) {
      state.SkipWithError(s.status().message().c_str());
      return;
    }
    events += static_cast<double>(s->events);
    seconds += s->wall_seconds;
  }
  state.counters["steps_per_s"] = seconds > 0 ? events / seconds : 0;
}
BENCHMARK_CAPTURE(BM_ExploreSettings, random, "random")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ExploreSettings, timetravel, "timetravel:random")
    ->Unit(benchmark::kMillisecond);

}  // namespace
