// Reading DroidBot and Kea recordings: utg.js, events/*.json and the state files.
#include "sim/recording.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"

namespace roam::sim {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

// A string field that may be null or absent ("" then); any other type is an error.
Status Text(const json& object, const char* key, std::string& out, const std::string& where) {
  out.clear();
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return Status::Ok();
  if (!it->is_string())
    return Status::Corruption(
        fmt::format("{}: {}: expected a string, got {}", where, key, JsonExcerpt(*it)));
  out = it->get<std::string>();
  return Status::Ok();
}

bool Flag(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

// "pkg/.Activity" -> {"pkg", ".Activity"}.
std::pair<std::string, std::string> SplitComponent(const std::string& component) {
  size_t slash = component.find('/');
  if (slash == std::string::npos) return {component, ""};
  return {component.substr(0, slash), component.substr(slash + 1)};
}

// The JSON object of a `var utg = {...};` file: the text before the first '{' is blanked (not
// cut), so line:column in errors point into the file as it is.
Result<json> ParseUtg(const fs::path& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  std::string& s = *text;
  size_t open = s.find('{');
  if (open == std::string::npos)
    return Status::Corruption(path.string() + ": no JSON object (expected `var utg = {...}`)");
  for (size_t i = 0; i < open; ++i)
    if (s[i] != '\n') s[i] = ' ';
  size_t close = s.rfind('}');
  for (size_t i = close + 1; i < s.size(); ++i)
    if (s[i] != '\n') s[i] = ' ';
  return ParseJson(s, path.string());
}

// The files of `dir` ending in ".json", sorted by name (DroidBot names them by time).
std::vector<fs::path> JsonFiles(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".json") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

Status ReadNodes(const json& utg, const std::string& where, Recording& rec,
                 std::map<std::string, size_t>& index) {
  auto nodes = utg.find("nodes");
  if (nodes == utg.end() || !nodes->is_array())
    return Status::Corruption(where + ": nodes: expected an array");
  for (size_t i = 0; i < nodes->size(); ++i) {
    const json& n = (*nodes)[i];
    std::string at = fmt::format("{}: nodes[{}]", where, i);
    if (!n.is_object()) return Status::Corruption(at + ": expected an object");
    RecordedState st;
    ROAM_RETURN_IF_ERROR(Text(n, "id", st.id, at));
    ROAM_RETURN_IF_ERROR(Text(n, "package", st.package, at));
    ROAM_RETURN_IF_ERROR(Text(n, "activity", st.activity, at));
    if (st.id.empty()) return Status::Corruption(at + ": a node without an id");
    index.emplace(st.id, rec.states.size());
    rec.states.push_back(std::move(st));
  }
  return Status::Ok();
}

Status ReadEdges(const json& utg, const std::string& where, Recording& rec) {
  auto edges = utg.find("edges");
  if (edges == utg.end() || !edges->is_array())
    return Status::Corruption(where + ": edges: expected an array");
  for (size_t i = 0; i < edges->size(); ++i) {
    const json& e = (*edges)[i];
    std::string at = fmt::format("{}: edges[{}]", where, i);
    if (!e.is_object()) return Status::Corruption(at + ": expected an object");
    RecordedEvent ev;
    ROAM_RETURN_IF_ERROR(Text(e, "from", ev.from, at));
    ROAM_RETURN_IF_ERROR(Text(e, "to", ev.to, at));
    auto events = e.find("events");
    size_t count = events != e.end() && events->is_array() ? events->size() : 1;
    for (size_t k = 0; k < count; ++k) {
      RecordedEvent one = ev;
      one.type = "unknown";
      if (events != e.end() && events->is_array() && (*events)[k].is_object()) {
        ROAM_RETURN_IF_ERROR(Text((*events)[k], "event_type", one.type, at));
        (void)Text((*events)[k], "intent", one.intent, at);
      }
      one.tool = one.type == "intent" || one.type == "kill_app";
      rec.edges.push_back(std::move(one));
    }
  }
  return Status::Ok();
}

// A DroidBot view (in a state's `views`, or an event's target) as a widget, parent unset.
Status WidgetOfView(const json& v, const std::string& at, gui::Widget& w) {
  ROAM_RETURN_IF_ERROR(Text(v, "class", w.cls, at));
  ROAM_RETURN_IF_ERROR(Text(v, "resource_id", w.resource_id, at));
  ROAM_RETURN_IF_ERROR(Text(v, "text", w.text, at));
  ROAM_RETURN_IF_ERROR(Text(v, "content_description", w.content_desc, at));
  ROAM_RETURN_IF_ERROR(Text(v, "package", w.package, at));
  auto b = v.find("bounds");
  if (b != v.end() && b->is_array() && b->size() == 2 && (*b)[0].is_array() && (*b)[1].is_array() &&
      (*b)[0].size() == 2 && (*b)[1].size() == 2) {
    auto num = [](const json& x) { return x.is_number_integer() ? x.get<int>() : 0; };
    w.bounds = {num((*b)[0][0]), num((*b)[0][1]), num((*b)[1][0]), num((*b)[1][1])};
  }
  w.clickable = Flag(v, "clickable");
  w.long_clickable = Flag(v, "long_clickable");
  w.checkable = Flag(v, "checkable");
  w.checked = Flag(v, "checked");
  w.scrollable = Flag(v, "scrollable");
  w.editable = Flag(v, "editable");
  w.password = Flag(v, "is_password");
  w.enabled = v.contains("enabled") ? Flag(v, "enabled") : true;
  w.focusable = Flag(v, "focusable");
  w.focused = Flag(v, "focused");
  w.selected = Flag(v, "selected");
  return Status::Ok();
}

// An events/*.json or states/*.json, refused past kMaxStateFileBytes before it is parsed.
Result<json> ReadRecordedFile(const fs::path& file) {
  auto text = ReadFile(file, kMaxStateFileBytes);
  if (!text.ok()) return text.status();
  return ParseJson(*text, file.string());
}

// One events/*.json; false (with the reason in `skipped`) when it cannot be used.
void ReadEventFile(const fs::path& file, Recording& rec) {
  auto doc = ReadRecordedFile(file);
  if (!doc.ok()) {
    rec.skipped.push_back(doc.status().message());
    return;
  }
  RecordedEvent ev;
  std::string where = file.string();
  Status s = Text(*doc, "start_state", ev.from, where);
  if (s.ok()) s = Text(*doc, "stop_state", ev.to, where);
  auto event = doc->find("event");
  if (s.ok() && event != doc->end() && event->is_object())
    s = Text(*event, "event_type", ev.type, where + ": event");
  if (!s.ok() || ev.from.empty() || ev.to.empty()) {
    rec.skipped.push_back(s.ok() ? where + ": no start_state or stop_state" : s.message());
    return;
  }
  // Kea writes some events with a null event_type, naming them only in event_str.
  std::string named;
  if (ev.type.empty() && Text(*doc, "event_str", named, where).ok() &&
      named.starts_with("RotateDevice"))
    ev.type = "rotate";
  if (ev.type.empty()) ev.type = "unknown";
  ev.tool = ev.type == "intent" || ev.type == "kill_app";
  if (event != doc->end() && event->is_object()) {
    if (auto v = event->find("view"); v != event->end() && v->is_object()) {
      gui::Widget w;
      if (WidgetOfView(*v, where + ": event.view", w).ok()) ev.view = std::move(w);
    }
    (void)Text(*event, "text", ev.text, where);  // set_text: what was typed
    (void)Text(*event, "name", ev.key, where);   // key: BACK, MENU, ...
    (void)Text(*event, "direction", ev.direction, where);
    (void)Text(*event, "intent", ev.intent, where);  // intent: the tool's am command
  }
  rec.events.push_back(std::move(ev));
}

void ReadStateFile(const fs::path& file, Recording& rec, std::map<std::string, size_t>& index) {
  auto doc = ReadRecordedFile(file);
  if (!doc.ok()) {
    rec.skipped.push_back(doc.status().message());
    return;
  }
  std::string id;
  if (Status s = Text(*doc, "state_str", id, file.string()); !s.ok() || id.empty()) {
    rec.skipped.push_back(s.ok() ? file.string() + ": no state_str" : s.message());
    return;
  }
  auto screen = ScreenOfDroidBotState(*doc, file.string());
  if (!screen.ok()) {
    rec.skipped.push_back(screen.status().message());
    return;
  }
  auto [it, inserted] = index.emplace(id, rec.states.size());
  if (inserted) {
    RecordedState st;
    st.id = id;
    st.package = screen->package;
    st.activity = screen->activity;
    rec.states.push_back(std::move(st));
  }
  RecordedState& st = rec.states[it->second];
  if (!st.screen) st.screen = std::move(*screen);
}

}  // namespace

Result<gui::Screen> ScreenOfDroidBotState(const json& state, const std::string& where) {
  if (!state.is_object()) return Status::Corruption(where + ": expected an object");
  gui::Screen screen;
  std::string component;
  ROAM_RETURN_IF_ERROR(Text(state, "foreground_activity", component, where));
  std::tie(screen.package, screen.activity) = SplitComponent(component);
  if (auto w = state.find("width"); w != state.end() && w->is_number_integer()) screen.width = *w;
  if (auto h = state.find("height"); h != state.end() && h->is_number_integer()) screen.height = *h;
  auto views = state.find("views");
  if (views == state.end() || !views->is_array())
    return Status::Corruption(where + ": views: expected an array");
  // Views by temp_id (their index), emitted in pre-order from the roots.
  const size_t n = views->size();
  std::vector<std::vector<int>> children(n);
  std::vector<int> roots;
  for (size_t i = 0; i < n; ++i) {
    const json& v = (*views)[i];
    if (!v.is_object())
      return Status::Corruption(fmt::format("{}: views[{}]: not an object", where, i));
    auto parent = v.find("parent");
    int p = parent != v.end() && parent->is_number_integer() ? parent->get<int>() : -1;
    if (p >= 0 && static_cast<size_t>(p) < n && static_cast<size_t>(p) != i)
      children[p].push_back(static_cast<int>(i));
    else
      roots.push_back(static_cast<int>(i));
  }
  std::vector<bool> seen(n, false);
  std::vector<std::pair<int, int>> stack;  // (view, parent index in screen.widgets)
  for (auto r = roots.rbegin(); r != roots.rend(); ++r) stack.emplace_back(*r, -1);
  while (!stack.empty()) {
    auto [i, parent] = stack.back();
    stack.pop_back();
    if (seen[i]) continue;  // a cycle in parent links: each view once
    seen[i] = true;
    const json& v = (*views)[i];
    std::string at = fmt::format("{}: views[{}]", where, i);
    gui::Widget w;
    ROAM_RETURN_IF_ERROR(WidgetOfView(v, at, w));
    w.parent = parent;
    int index = static_cast<int>(screen.widgets.size());
    screen.widgets.push_back(std::move(w));
    for (auto c = children[i].rbegin(); c != children[i].rend(); ++c) stack.emplace_back(*c, index);
  }
  screen.Link();
  return screen;
}

Result<Recording> ReadRecording(const fs::path& path) {
  std::error_code ec;
  fs::path utg = path;
  if (fs::is_directory(path, ec)) {
    utg = path / "utg.js";
    if (!fs::exists(utg, ec) && fs::exists(path / "output" / "utg.js", ec))
      utg = path / "output" / "utg.js";
  }
  if (!fs::exists(utg, ec))
    return Status::NotFound(path.string() + ": no utg.js (a DroidBot or Kea output folder)");
  auto doc = ParseUtg(utg);
  if (!doc.ok()) return doc.status();
  if (!doc->is_object()) return Status::Corruption(utg.string() + ": expected an object");

  Recording rec;
  rec.utg = utg;
  std::string where = utg.string();
  ROAM_RETURN_IF_ERROR(Text(*doc, "app_package", rec.package, where));
  std::map<std::string, size_t> index;
  ROAM_RETURN_IF_ERROR(ReadNodes(*doc, where, rec, index));

  ROAM_RETURN_IF_ERROR(ReadEdges(*doc, where, rec));
  fs::path dir = utg.parent_path();
  if (fs::is_directory(dir / "events", ec)) {
    rec.events_from_files = true;
    for (const auto& file : JsonFiles(dir / "events")) ReadEventFile(file, rec);
  } else {
    rec.events = rec.edges;
  }
  for (const char* states : {"states", "all_states"})
    if (fs::is_directory(dir / states, ec))
      for (const auto& file : JsonFiles(dir / states)) ReadStateFile(file, rec, index);
  return rec;
}

}  // namespace roam::sim
