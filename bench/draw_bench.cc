// Drawing one 1080x1920 screen as PNG (the simulator's screenshots, bug strips, reports), and
// the two halves of it: painting with cairo, and encoding the PNG.
#include <benchmark/benchmark.h>

#include "device/sim_device.h"
#include "draw/draw.h"
#include "sim/spec.h"

namespace {

using namespace roam;

void BM_DrawDiaryStartScreen(benchmark::State& state) {
  std::string path = ROAM_SOURCE_DIR;  // appended, not +: GCC 12 -O2 warns falsely on the +
  path.append("/apps/diary.json");
  auto spec = sim::LoadSpec(path);
  if (!spec.ok()) {
    state.SkipWithError(spec.status().message().c_str());
    return;
  }
  sim::SimApp app(*spec, {});
  app.Launch();
  size_t bytes = 0;
  for (auto _ : state) {
    auto png = device::DrawSimApp(app);
    bytes = png.ok() ? png->size() : 0;
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["png_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_DrawDiaryStartScreen)->Unit(benchmark::kMillisecond);

}  // namespace
