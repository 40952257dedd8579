// report.html of a large run: 100,000 events over 40 activities with 20 bugs, each with a
// 300-step trace and 20 screens. The targets: written in under 2 s, under 10 MB.
#include <filesystem>
#include <fstream>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "base/files.h"
#include "base/rng.h"
#include "report/run_report.h"

namespace {

using namespace roam;
namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kEvents = 100000, kActivities = 40, kBugs = 20, kBugSteps = 300, kScreens = 20;

std::string Activity(int i) { return fmt::format("org.bench.app.ui.Screen{}Activity", i); }

std::string ActLine(int step, int activity, Rng& rng) {
  return JsonLine({{"step", step},
                   {"op", "act"},
                   {"activity", Activity(activity)},
                   {"state", "00000000deadbeef"},
                   {"widget_text", fmt::format("Button {}", rng.Below(30))},
                   {"resource_id", "org.bench.app:id/button"},
                   {"action",
                    {{"kind", "click"},
                     {"bounds", {0, 200, 1080, 330}},
                     {"path", "0/1/2"},
                     {"widget", 5}}}}) +
         "\n";
}

fs::path MakeLargeRun() {
  fs::path dir = fs::temp_directory_path() / "roam_bench_report";
  fs::remove_all(dir);
  fs::create_directories(dir);
  Rng rng(7);
  json summary = {{"app", "bench"},
                  {"device", "sim:org.bench.app"},
                  {"strategy", "random"},
                  {"seed", 7},
                  {"events", kEvents},
                  {"wall_seconds", 30.0},
                  {"stop_reason", "events"},
                  {"activities_total", kActivities},
                  {"units_total", 2000},
                  {"units_covered", 1500},
                  {"states", 900}};
  for (int a = 0; a < kActivities; ++a) {
    summary["activities_declared"].push_back(Activity(a));
    if (a < 34) summary["activities_covered"].push_back(Activity(a));
  }
  {
    std::ofstream trace(dir / "trace.jsonl");
    int at = 0;
    for (int step = 0; step < kEvents; ++step) {
      if (rng.Below(10) < 3) at = static_cast<int>(rng.Below(34));
      trace << ActLine(step, at, rng);
    }
    std::ofstream progress(dir / "progress.jsonl");
    for (int e = 0; e <= kEvents; e += 100)
      progress << JsonLine({{"events", e},
                            {"activities", std::min(34, 1 + e / 2000)},
                            {"units", std::min(1500, e / 50)},
                            {"states", e / 110},
                            {"crashes", e * kBugs / kEvents},
                            {"anrs", 0}})
               << "\n";
  }
  for (int b = 1; b <= kBugs; ++b) {
    std::string rel = fmt::format("bugs/B{}", b);
    summary["crashes"].push_back(
        {{"kind", "crash"},
         {"signature", fmt::format("java.lang.RuntimeException@org.bench.app.F{}.onClick", b)},
         {"count", b},
         {"first_step", b * 4000},
         {"bug_dir", rel},
         {"message", "boom"}});
    fs::create_directories(dir / rel / "steps");
    json bug = {{"id", fmt::format("B{}", b)},
                {"frames", {"org.bench.app.F.onClick(F.java:1)", "android.view.View.performClick"}},
                {"trace", "trace.jsonl"},
                {"reproduced", true}};
    std::ofstream trace(dir / rel / "trace.jsonl");
    for (int s = 0; s < kBugSteps; ++s) trace << ActLine(s, s % kActivities, rng);
    for (int s = kBugSteps - kScreens; s < kBugSteps; ++s) {
      char name[32];
      std::snprintf(name, sizeof name, "steps/%03d.png", s + 1);
      bug["screenshots"].push_back(name);
      std::ofstream(dir / rel / name) << "png";
    }
    (void)WriteJsonFile(dir / rel / "bug.json", bug);
  }
  (void)WriteJsonFile(dir / "summary.json", summary);
  (void)WriteJsonFile(dir / "config.json", {{"app", "bench"}, {"events", kEvents}});
  return dir;
}

void BM_WriteRunReport100kEvents20Bugs(benchmark::State& state) {
  fs::path dir = MakeLargeRun();
  for (auto _ : state) {
    Status s = report::WriteRunReport(dir);
    if (!s.ok()) {
      state.SkipWithError(s.message().c_str());
      return;
    }
  }
  state.counters["html_bytes"] = static_cast<double>(fs::file_size(dir / "report.html"));
  fs::remove_all(dir);
}
BENCHMARK(BM_WriteRunReport100kEvents20Bugs)->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace
