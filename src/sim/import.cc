#include "sim/import.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "base/utf8.h"

namespace roam::sim {

using nlohmann::json;

namespace {

// The spec's handler for a recorded event: its kind ("" when the simulator has none) and whether
// it is the screen's (a key, a rotation, a swipe of no view in particular) rather than a view's.
struct SpecHandler {
  std::string kind;
  bool on_screen = false;
};
SpecHandler HandlerOf(const RecordedEvent& e) {
  if (e.type == "touch") return {"click"};
  if (e.type == "long_touch") return {"long_click"};
  if (e.type == "set_text") return {"input_text"};
  if (e.type == "rotate") return {"rotate", true};
  if (e.type == "key" && !e.key.empty()) {
    if (e.key == "BACK") return {"back", true};
    if (e.key == "MENU") return {"menu", true};
    return {"key:" + e.key, true};
  }
  if (e.type == "scroll") {
    const std::string dir = AsciiLower(e.direction);
    if (dir == "up" || dir == "down" || dir == "left" || dir == "right")
      return e.view ? SpecHandler{"scroll_" + dir} : SpecHandler{"swipe_" + dir, true};
  }
  return {};
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

// The activity a recorded `am start` names ("am start [-n] pkg/cls ..."), fully qualified; "" when
// it is no start of one of `package`'s activities (am force-stop, another app's).
std::string StartedActivity(const std::string& command, const std::string& package) {
  std::vector<std::string> tokens;
  for (size_t i = 0; i < command.size();) {
    const size_t end = std::min(command.find(' ', i), command.size());
    if (end > i) tokens.push_back(command.substr(i, end - i));
    i = end + 1;
  }
  if (tokens.size() < 3 || tokens[0] != "am" || tokens[1] != "start") return "";
  for (size_t t = 2; t < tokens.size(); ++t) {
    const size_t slash = tokens[t].find('/');
    if (tokens[t][0] == '-' || slash == std::string::npos) continue;
    if (tokens[t].substr(0, slash) != package) return "";
    const std::string cls = tokens[t].substr(slash + 1);
    return !cls.empty() && cls[0] == '.' ? package + cls : cls;
  }
  return "";
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
  // Where event k led: its stop state, or where the recording's next event began when the stop
  // state was taken too early (the app still starting, in the launcher's state; a state whose
  // views were not recorded; nothing changed yet) and the next event began in another of the
  // app's states. Only with the events in time order (events/*.json).
  auto led_to = [&](size_t k) -> const std::string& {
    const RecordedEvent& e = rec.events[k];
    if (!rec.events_from_files || k + 1 == rec.events.size() ||
        (by_id.count(e.to) && e.to != e.from))
      return e.to;
    const std::string& next = rec.events[k + 1].from;
    return by_id.count(next) && next != e.from ? next : e.to;
  };
  // The start: where the first launch intent that reached the app led, else the first state
  // with views.
  std::string start;
  for (size_t k = 0; k < rec.events.size() && start.empty(); ++k)
    if (rec.events[k].type == "intent" && by_id.count(led_to(k)))
      start = ScreenId(by_id[led_to(k)]);
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
  for (size_t k = 0; k < rec.events.size(); ++k) {
    const RecordedEvent& e = rec.events[k];
    if (e.tool) continue;
    const auto [kind, on_screen] = HandlerOf(e);
    auto from = by_id.find(e.from);
    const char* reason = nullptr;
    int widget = kScreen;
    if (kind.empty())
      reason = "an event the simulator has no handler for (a scroll without its direction, ...)";
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
    const std::string& led = led_to(k);
    auto to = by_id.find(led);
    std::string target;
    if (led != e.from && to != by_id.end())
      target = ScreenId(to->second);
    else if (others.count(led))
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
  // What the recording tells of starts from outside: an `am start` of an activity that reached
  // the app says the activity is exported (a shell cannot start one that is not); its first
  // screen says so. Recorders start the app's launcher activity this way, which is often a splash
  // screen the recording never shows.
  std::set<std::string> started;
  for (size_t k = 0; k < rec.events.size(); ++k) {
    const std::string activity = StartedActivity(rec.events[k].intent, package);
    if (rec.events[k].type != "intent" || activity.empty() || !by_id.count(led_to(k)) ||
        !started.insert(activity).second)
      continue;
    auto screen = std::find_if(screens.begin(), screens.end(), [&](const json& s) {
      const std::string a = s["activity"].get<std::string>();
      return (!a.empty() && a[0] == '.' ? package + a : a) == activity;
    });
    if (screen != screens.end())
      (*screen)["exported"] = true;
    else
      stats.notes.push_back(fmt::format(
          "the recording starts {} from outside (am start) but shows none of its screens",
          activity));
  }
  return json{{"app", app},
              {"package", package},
              {"_imported_from", rec.utg.string()},
              {"start", start},
              {"screens", std::move(screens)}};
}

}  // namespace roam::sim
