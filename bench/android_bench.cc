// Steps per second of exploration through AndroidDevice against the simulator served over the
// adb protocol on loopback (SimAdbServer in-process, ephemeral port): the protocol overhead of
// `roam explore --serial` against `roam sim serve`. Reports steps/s and the per-step split
// (observe, decide, act, events) as counters.
#include <filesystem>

#include <benchmark/benchmark.h>

#include "run/explore/explore.h"
#include "serve/sim_adb_server.h"
#include "sim/spec.h"

namespace {

using namespace roam;

void BM_AndroidExploreCrashy(benchmark::State& state) {
  auto spec = sim::LoadSpec(std::filesystem::path(ROAM_SOURCE_DIR) / "tests/apps/crashy.json");
  if (!spec.ok()) {
    state.SkipWithError(spec.status().message().c_str());
    return;
  }
  serve::SimAdbServerOptions so;
  so.port = 0;
  serve::SimAdbServer server(*spec, so);
  if (!server.Start().ok()) {
    state.SkipWithError("cannot start the served simulator");
    return;
  }
  const int64_t events = state.range(0);
  report::StepTiming total;
  double wall = 0;
  uint64_t seed = 1;
  for (auto _ : state) {
    run::ExploreOptions o;
    o.seed = seed++;
    o.out = std::filesystem::temp_directory_path() / "roam_android_bench";
    o.force = true;
    o.budget.events = events;
    o.target.android.serial = so.serial;
    o.target.android.port = server.port();
    o.target.android.package = "org.roam.crashy";
    auto summary = run::Explore(o);
    if (!summary.ok()) {
      state.SkipWithError(summary.status().message().c_str());
      return;
    }
    wall += summary->wall_seconds;
    const auto& t = summary->timing;
    total.steps += t.steps;
    total.observe += t.observe;
    total.decide += t.decide;
    total.act += t.act;
    total.events += t.events;
    total.launch += t.launch;
  }
  auto per_step_ms = [&](double s) { return total.steps ? s * 1000.0 / total.steps : 0.0; };
  state.counters["steps_per_s"] = wall > 0 ? total.steps / wall : 0;
  state.counters["observe_ms"] = per_step_ms(total.observe);
  state.counters["decide_ms"] = per_step_ms(total.decide);
  state.counters["act_ms"] = per_step_ms(total.act);
  state.counters["events_ms"] = per_step_ms(total.events);
  state.counters["launch_ms"] = per_step_ms(total.launch);
  state.SetItemsProcessed(total.steps);
}
BENCHMARK(BM_AndroidExploreCrashy)->Arg(2000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
