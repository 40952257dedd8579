// Speed of the gui layer on a synthetic but realistic 1,000-node dump (device format: every
// attribute, nested layouts, a toolbar, a list of rows, a bottom bar). Target: parse + screen
// key + actions under 0.3 ms median.
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "gui/abstraction.h"
#include "gui/actions.h"
#include "gui/uiautomator.h"

namespace roam::gui {
namespace {

class DumpBuilder {
 public:
  int Add(int parent, const std::string& cls, const std::string& id, const std::string& text,
          Rect b, bool clickable = false) {
    Widget w;
    w.cls = "android.widget." + cls;
    w.resource_id = id.empty() ? "" : "com.example.mail:id/" + id;
    w.text = text;
    w.package = "com.example.mail";
    w.parent = parent;
    w.bounds = b;
    w.clickable = w.focusable = clickable;
    screen_.widgets.push_back(std::move(w));
    return static_cast<int>(screen_.widgets.size()) - 1;
  }
  Widget& Last() { return screen_.widgets.back(); }
  Screen& screen() { return screen_; }

 private:
  Screen screen_;
};

// About 1,000 nodes: chrome (decor, toolbar, tabs, bottom bar) plus list rows of 8 nodes.
std::string SyntheticDump(int nodes) {
  DumpBuilder d;
  int decor = d.Add(-1, "FrameLayout", "", "", {0, 0, 1080, 2400});
  int content = d.Add(decor, "LinearLayout", "", "", {0, 0, 1080, 2400});
  int frame = d.Add(content, "FrameLayout", "content", "", {0, 63, 1080, 2400});
  int toolbar = d.Add(frame, "LinearLayout", "toolbar", "", {0, 63, 1080, 210});
  d.Add(toolbar, "ImageButton", "", "", {0, 63, 147, 210}, true);
  d.Last().content_desc = "Navigate up";
  d.Add(toolbar, "TextView", "title", "Inbox (12)", {147, 63, 800, 210});
  d.Add(toolbar, "ImageButton", "search", "", {800, 63, 940, 210}, true);
  d.Add(toolbar, "ImageButton", "", "", {940, 63, 1080, 210}, true);
  d.Last().content_desc = "More options";
  int tabs = d.Add(frame, "HorizontalScrollView", "tabs", "", {0, 210, 1080, 330});
  d.Last().scrollable = true;
  int tab_row = d.Add(tabs, "LinearLayout", "", "", {0, 210, 1800, 330});
  for (int t = 0; t < 6; ++t) {
    d.Add(tab_row, "TextView", "", "Tab " + std::to_string(t), {t * 300, 210, t * 300 + 300, 330},
          true);
    d.Last().selected = t == 0;
  }
  int list = d.Add(frame, "ListView", "list", "", {0, 330, 1080, 2200});
  d.Last().scrollable = true;
  int bottom = d.Add(frame, "LinearLayout", "bottom_bar", "", {0, 2200, 1080, 2400});
  for (int b = 0; b < 4; ++b)
    d.Add(bottom, "Button", "nav_" + std::to_string(b), "Nav", {b * 270, 2200, b * 270 + 270, 2400},
          true);
  for (int r = 0; static_cast<int>(d.screen().widgets.size()) + 8 <= nodes; ++r) {
    int top = 330 + r * 200;
    int row = d.Add(list, "LinearLayout", "row", "", {0, top, 1080, top + 200}, true);
    d.Last().long_clickable = true;
    d.Add(row, "ImageView", "avatar", "", {0, top, 150, top + 200});
    int col = d.Add(row, "LinearLayout", "", "", {150, top, 900, top + 200});
    d.Add(col, "TextView", "sender", "Sender number " + std::to_string(r),
          {150, top, 900, top + 70});
    d.Add(col, "TextView", "subject",
          "Re: meeting at " + std::to_string(r % 12) + ":30 — agenda & notes",
          {150, top + 70, 900, top + 140});
    d.Add(col, "TextView", "date", std::to_string(r % 28 + 1) + " Mar",
          {150, top + 140, 900, top + 200});
    d.Add(row, "CheckBox", "star", "", {900, top, 1080, top + 100});
    d.Last().checkable = true;
    d.Last().checked = r % 3 == 0;
    d.Add(row, "ImageButton", "more", "", {900, top + 100, 1080, top + 200}, true);
  }
  while (static_cast<int>(d.screen().widgets.size()) < nodes)
    d.Add(frame, "View", "", "", {0, 0, 1, 1});
  d.screen().Link();
  return WriteDump(d.screen());
}

const std::string& Dump1000() {
  static const std::string dump = SyntheticDump(1000);
  return dump;
}

void BM_ParseAndAbstract1000Nodes(benchmark::State& state) {
  const std::string& xml = Dump1000();
  std::vector<Action> actions;
  for (auto _ : state) {
    Result<Screen> s = ParseDump(xml);
    if (!s.ok()) state.SkipWithError(s.status().message().c_str());
    s->activity = ".MainActivity";
    uint64_t key = ScreenKey(*s);
    ActionsFor(*s, actions);
    benchmark::DoNotOptimize(key);
    benchmark::DoNotOptimize(actions.data());
  }
  state.counters["nodes"] = 1000;
  state.counters["bytes"] = static_cast<double>(xml.size());
  state.counters["actions"] = static_cast<double>(actions.size());
}
BENCHMARK(BM_ParseAndAbstract1000Nodes)->Unit(benchmark::kMicrosecond);

// The same with the Screen reused between dumps (what a run loop does).
void BM_ParseIntoAndAbstract1000Nodes(benchmark::State& state) {
  const std::string& xml = Dump1000();
  Screen s;
  std::vector<Action> actions;
  for (auto _ : state) {
    Status st = ParseDumpInto(xml, s);
    if (!st.ok()) state.SkipWithError(st.message().c_str());
    benchmark::DoNotOptimize(ScreenKey(s));
    ActionsFor(s, actions);
    benchmark::DoNotOptimize(actions.data());
  }
}
BENCHMARK(BM_ParseIntoAndAbstract1000Nodes)->Unit(benchmark::kMicrosecond);

void BM_ParseDump1000Nodes(benchmark::State& state) {
  const std::string& xml = Dump1000();
  for (auto _ : state) benchmark::DoNotOptimize(ParseDump(xml));
}
BENCHMARK(BM_ParseDump1000Nodes)->Unit(benchmark::kMicrosecond);

void BM_ScreenKey1000Nodes(benchmark::State& state) {
  Screen s = *ParseDump(Dump1000());
  for (auto _ : state) benchmark::DoNotOptimize(ScreenKey(s));
}
BENCHMARK(BM_ScreenKey1000Nodes)->Unit(benchmark::kMicrosecond);

void BM_ActionsFor1000Nodes(benchmark::State& state) {
  Screen s = *ParseDump(Dump1000());
  std::vector<Action> actions;
  for (auto _ : state) {
    ActionsFor(s, actions);
    benchmark::DoNotOptimize(actions.data());
  }
}
BENCHMARK(BM_ActionsFor1000Nodes)->Unit(benchmark::kMicrosecond);

void BM_WriteDump1000Nodes(benchmark::State& state) {
  Screen s = *ParseDump(Dump1000());
  for (auto _ : state) benchmark::DoNotOptimize(WriteDump(s));
}
BENCHMARK(BM_WriteDump1000Nodes)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace roam::gui
