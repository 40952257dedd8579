#include "sim/import.h"

#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

namespace roam::sim {

using nlohmann::json;

namespace {

// The spec's event for a recorded event type, or "" for those it has none for.
std::string SpecEvent(const std::string& type) {
  if (type == "touch") return "click";
  if (type == "long_touch") return "long_click";
  if (type == "set_text") return "input_text";
  if (type == "rotate") return "rotate";  // the screen's, not a view's
  return "";
}

// The widget of `screen` a recorded event acted on: same bounds and class (and resource-id when
// recorded), else same bounds; -1 when none.
int FindView(const gui::Screen& screen, const gui::Widget& view) {
  int by_bounds = -1;
  for (int i = 0; i < static_cast<int>(screen.widgets.size()); ++i) {
    const gui::Widget& w = screen.widgets[i];
    if (!(w.bounds == view.bounds)) continue;
    if (w.cls == view.cls && w.resource_id == view.resource_id) return i;
    if (by_bounds < 0) by_bounds = i;
  }
  return by_bounds;
}

std::string ScreenId(size_t state) { return fmt::format("S{}", state + 1); }
constexpr const char* kLeave = "(leave)";  // a handler's target: another app
std::string WidgetId(int widget) { return fmt::format("w{}", widget); }

}  // namespace

Result<json> ImportRecording(const Recording& rec, const std::string& app, ImportStats& stats) {
  stats = ImportStats();
  std::string package = rec.package;
  if (package.empty())  // the package of the first state with views
    for (const auto& st : rec.states)
      if (st.screen && package.empty()) package = st.screen->package;
  // The app's own states with their views: the launcher, the browser and other apps a recorded
  // step led to are not screens of the app (leaving it is the simulator's own).
  std::map<std::string, size_t> by_id;  // state id -> index
  for (size_t i = 0; i < rec.states.size(); ++i)
    if (rec.states[i].screen && !rec.states[i].screen->widgets.empty() &&
        rec.states[i].screen->package == package)
      by_id.emplace(rec.states[i].id, i);
  std::set<std::string> others;  // states of other packages (the launcher, a browser)
  for (const auto& st : rec.states)
    if (!st.package.empty() && st.package != package) others.insert(st.id);
  if (by_id.empty())
    return Status::InvalidArgument(fmt::format(
        "{}: no recorded state of {} has its views (states/*.json or all_states/*.json): "
        "nothing to show",
        rec.utg.string(), package.empty() ? "the app" : package));
  // The start: where the launch intent led, else the first state with views.
  std::string start;
  for (const auto& e : rec.events)
    if (e.type == "intent" && by_id.count(e.to)) {
      start = ScreenId(by_id[e.to]);
      break;
    }
  if (start.empty()) {
    size_t first = rec.states.size();
    for (const auto& [id, i] : by_id) first = std::min(first, i);
    start = ScreenId(first);
  }

  // Per state, widget (kScreen: the screen's own events) and spec event: the state it led to
  // first.
  constexpr int kScreen = -1;
  std::map<size_t, std::map<int, std::map<std::string, std::string>>> handlers;
  size_t conflicts = 0;
  std::map<std::string, size_t> unmapped;  // reason -> count
  for (const auto& e : rec.events) {
    if (e.tool) continue;
    const std::string kind = SpecEvent(e.type);
    auto from = by_id.find(e.from);
    const char* reason = nullptr;
    const bool on_screen = kind == "rotate";
    int widget = kScreen;
    if (kind.empty())
      reason = "an event type the simulator has no handler for (scroll, key, ...)";
    else if (from == by_id.end())
      reason = "from a state whose views were not recorded";
    else if (!on_screen && !e.view)
      reason = "without the view it acted on";
    else if (!on_screen && (widget = FindView(*rec.states[from->second].screen, *e.view)) < 0)
      reason = "on a view its state does not hold";
    if (reason) {
      ++unmapped[reason];
      ++stats.events_unmapped;
      continue;
    }
    ++stats.events_mapped;
    // What it did: open the app state it led to; leave the app for another app's state (the
    // launcher, a browser); nothing when it stayed or led to a state without views.
    auto to = by_id.find(e.to);
    std::string target;
    if (e.to != e.from && to != by_id.end())
      target = ScreenId(to->second);
    else if (auto other = others.find(e.to); other != others.end())
      target = kLeave;
    auto [it, fresh] = handlers[from->second][widget].emplace(kind, target);
    if (!fresh && it->second != target) ++conflicts;  // the first recorded outcome is kept
  }
  for (const auto& [reason, count] : unmapped)
    stats.notes.push_back(fmt::format("{} user events left out: {}", count, reason));
  if (conflicts > 0)
    stats.notes.push_back(fmt::format(
        "{} events led elsewhere than the first event on the same widget: the first is kept",
        conflicts));

  // The spec's `on` of a widget (or the screen's, kScreen): every recorded event a handler (a
  // code unit) that goes where the recording went.
  auto on_of = [&](size_t state, int widget) -> std::optional<json> {
    auto h = handlers.find(state);
    if (h == handlers.end()) return std::nullopt;
    auto on = h->second.find(widget);
    if (on == h->second.end()) return std::nullopt;
    json out = json::object();
    for (const auto& [kind, target] : on->second) {
      json effects = json::array();
      if (target == kLeave)
        effects.push_back({{"leave", true}});
      else if (!target.empty())
        effects.push_back({{"navigate", target}});
      out[kind] = std::move(effects);
      ++stats.handlers;
    }
    return out;
  };

  json screens = json::array();
  for (size_t i = 0; i < rec.states.size(); ++i) {
    if (!by_id.count(rec.states[i].id)) continue;
    const gui::Screen& screen = *rec.states[i].screen;
    json widgets = json::array();
    for (int w = 0; w < static_cast<int>(screen.widgets.size()); ++w) {
      const gui::Widget& v = screen.widgets[w];
      if (v.bounds.empty() || (!v.package.empty() && v.package != package)) continue;
      json j = {{"id", WidgetId(w)},
                {"class", v.cls},
                {"resource_id", v.resource_id},
                {"bounds", {v.bounds.left, v.bounds.top, v.bounds.right, v.bounds.bottom}}};
      if (!v.content_desc.empty()) j["desc"] = v.content_desc;
      if (v.editable) {
        j["input"] = json::object();
        if (!v.text.empty()) j["hint"] = v.text;
      } else if (!v.text.empty()) {
        j["text"] = v.text;
      }
      if (auto on = on_of(i, w)) j["on"] = std::move(*on);
      widgets.push_back(std::move(j));
    }
    std::string title = rec.states[i].activity;
    if (auto dot = title.rfind('.'); dot != std::string::npos) title = title.substr(dot + 1);
    json page = {{"id", ScreenId(i)},
                 {"activity", screen.activity.empty() ? rec.states[i].activity : screen.activity},
                 {"title", title},
                 {"_state", rec.states[i].id},
                 {"widgets", std::move(widgets)}};
    if (auto on = on_of(i, kScreen)) page["on"] = std::move(*on);
    screens.push_back(std::move(page));
    ++stats.screens;
  }
  return json{{"app", app},
              {"package", package},
              {"_imported_from", rec.utg.string()},
              {"start", start},
              {"screens", std::move(screens)}};
}

}  // namespace roam::sim
