// The breadth-first walk of a simulated app behind `roam sim stats SPEC`: every state's every
// widget action and back, from saved simulator states, into an ExplorationGraph.
#include <deque>
#include <map>
#include <set>

#include <fmt/format.h>

#include "gui/abstraction.h"
#include "gui/actions.h"
#include "sim/interpreter.h"
#include "sim/sim_app.h"
#include "sim/spec.h"
#include "sim/stats.h"

namespace roam::sim {
namespace {

// Resource-ids of widgets that change on their own (clocks, rotating ads).
void CollectDynamic(const std::vector<WidgetSpec>& widgets, std::set<std::string>& out) {
  for (const WidgetSpec& w : widgets) {
    if (w.dynamic != DynamicKind::kNone && !w.resource_id.empty()) out.insert(w.resource_id);
    CollectDynamic(w.children, out);
    CollectDynamic(w.row, out);
  }
}

// The state: the screen key plus what was typed into its edit fields.
std::string StateKey(const gui::Screen& screen) {
  std::string key = gui::KeyHex(gui::ScreenKey(screen));
  for (const gui::Widget& w : screen.widgets)
    if (w.editable) key += "\x1f" + w.text;
  return key;
}

// What DroidBot's state_str would hash, less the texts of self-changing widgets: the set of
// every widget's class, resource-id, text, description and flags.
std::string Content(const gui::Screen& screen, const std::set<std::string>& dynamic) {
  std::set<std::string> parts;
  for (const gui::Widget& w : screen.widgets) {
    bool changes = dynamic.count(w.resource_id) > 0;
    parts.insert(fmt::format("{}|{}|{}|{}|{}{}{}", w.cls, w.resource_id, changes ? "" : w.text,
                             w.content_desc, w.enabled, w.checked, w.selected));
  }
  std::string out = screen.package + "/" + screen.activity;
  for (const auto& p : parts) out += "\x1e" + p;
  return out;
}

// The walk told states apart by what was typed, so as to pass forms; the figures count one
// state a screen key (each text typed into a field would otherwise be a state of its own).
// Events keep whether the content changed.
ExplorationGraph MergeTypedStates(const ExplorationGraph& walk) {
  ExplorationGraph g;
  g.package = walk.package;
  g.notes = walk.notes;
  std::map<uint64_t, int> merged;
  std::vector<int> index(walk.states.size());
  for (size_t s = 0; s < walk.states.size(); ++s) {
    const auto& st = walk.states[s];
    auto [it, inserted] =
        merged.emplace(gui::ScreenKey(*st.screen), static_cast<int>(g.states.size()));
    if (inserted) {
      g.states.push_back(st);
      if (st.package != g.package) g.states.back().screen.reset();  // not the app's
    }
    index[s] = it->second;
  }
  for (auto e : walk.events) {
    e.from = index[e.from];
    e.to = index[e.to];
    g.events.push_back(e);
  }
  return g;
}

}  // namespace

ExplorationGraph WalkSpec(const std::shared_ptr<const AppSpec>& spec, const WalkOptions& options) {
  ExplorationGraph g;
  g.package = spec->package();
  std::set<std::string> dynamic;
  for (const PageSpec& p : spec->screens()) CollectDynamic(p.widgets, dynamic);
  for (const PageSpec& p : spec->dialogs()) CollectDynamic(p.widgets, dynamic);

  SimApp app(spec, SimOptions{});
  std::map<std::string, int> index;
  std::vector<std::unique_ptr<SimState>> saved;  // by state, while it waits to be expanded
  std::deque<int> queue;
  bool capped = false;
  // The state the app shows now, added (and queued, if it is the app's) when new.
  auto state_of = [&](const gui::Screen& screen) {
    auto [it, inserted] = index.emplace(StateKey(screen), static_cast<int>(g.states.size()));
    if (inserted) {
      g.states.push_back({screen.package, screen.activity, screen});
      saved.push_back(nullptr);
      if (screen.package == g.package && g.states.size() <= options.max_states) {
        saved.back() = app.Save();
        queue.push_back(it->second);
      } else if (screen.package == g.package) {
        capped = true;
      }
    }
    return it->second;
  };

  int launcher = state_of(app.screen());
  app.Launch();
  g.events.push_back({launcher, state_of(app.screen()), /*tool=*/true, true, false});

  std::vector<gui::Action> actions;
  while (!queue.empty() && g.events.size() < options.max_events) {
    int from = queue.front();
    queue.pop_front();
    std::unique_ptr<SimState> here = std::move(saved[from]);
    app.Load(*here);
    const gui::Screen& screen = app.screen();
    std::string before = Content(screen, dynamic);
    gui::ActionsFor(screen, actions);
    std::vector<gui::Action> all;
    for (const gui::Action& a : actions) {
      if (a.kind != gui::ActionKind::kInputText) {
        all.push_back(a);
        continue;
      }
      for (const std::string& text : options.texts) {
        all.push_back(a);
        all.back().text = text;
      }
    }
    all.push_back(gui::MakeGlobalAction(gui::ActionKind::kBack));
    for (const gui::Action& a : all) {
      app.Load(*here);
      app.Perform(a);
      bool crashed = !app.DrainFaults().empty();
      const gui::Screen& after = app.screen();
      bool changed = Content(after, dynamic) != before;
      g.events.push_back({from, state_of(after), false, changed, crashed});
    }
  }
  if (capped || !queue.empty())
    g.notes.push_back(fmt::format("the walk stopped at {} states and {} events", g.states.size(),
                                  g.events.size()));
  return MergeTypedStates(g);
}

}  // namespace roam::sim
