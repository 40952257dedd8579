// Figures of screens and of exploration graphs, pooling, and the table `roam sim stats` prints.
// The walk of a spec is in stats_walk.cc.
#include "sim/stats.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "gui/actions.h"

namespace roam::sim {
namespace {

bool IsLauncher(const std::string& package) {
  return package.find("launcher") != std::string::npos;
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<int> Children(const gui::Screen& screen, int node) {
  std::vector<int> out;
  for (int c = node + 1; c < screen.widgets[node].subtree_end; ++c)
    if (screen.widgets[c].parent == node) out.push_back(c);
  return out;
}

// The items of a scrollable widget: its children, or those of the first node below it with
// other than one child (a ScrollView holds one LinearLayout that holds the items).
int ListLength(const gui::Screen& screen, int node) {
  std::vector<int> kids = Children(screen, node);
  while (kids.size() == 1) {
    std::vector<int> below = Children(screen, kids[0]);
    if (below.empty()) break;
    kids = std::move(below);
  }
  return static_cast<int>(kids.size());
}

void Append(Figure& to, const Figure& from) {
  to.values.insert(to.values.end(), from.values.begin(), from.values.end());
}

// The per-screen figures of `screen` into `stats`.
void AddScreen(const gui::Screen& screen, AppStats& stats) {
  ScreenFigures f = MeasureScreen(screen);
  ++stats.screens_measured;
  stats.actionable.Add(f.actionable);
  stats.text_fields.Add(f.text_fields);
  stats.lists.Add(static_cast<double>(f.list_lengths.size()));
  for (int n : f.list_lengths) stats.list_length.Add(n);
  stats.dialogs += f.dialog;
}

double Share(size_t part, size_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

double Figure::Quantile(double q) const {
  if (values.empty()) return 0;
  std::vector<double> v = values;
  std::sort(v.begin(), v.end());
  size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

double Figure::Mean() const {
  if (values.empty()) return 0;
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

ScreenFigures MeasureScreen(const gui::Screen& screen) {
  ScreenFigures f;
  std::vector<gui::Action> actions;
  gui::ActionsFor(screen, actions);
  std::set<int> actionable;
  for (const gui::Action& a : actions) actionable.insert(a.widget);
  f.actionable = static_cast<int>(actionable.size());
  for (size_t i = 0; i < screen.widgets.size(); ++i) {
    const gui::Widget& w = screen.widgets[i];
    if (w.package == "com.android.systemui") continue;
    if (w.editable) ++f.text_fields;
    if (w.scrollable) f.list_lengths.push_back(ListLength(screen, static_cast<int>(i)));
    for (std::string_view part : {":id/alertTitle", ":id/button1", ":id/parentPanel"})
      if (EndsWith(w.resource_id, part)) f.dialog = true;
  }
  return f;
}

ExplorationGraph GraphOfRecording(const Recording& rec) {
  ExplorationGraph g;
  g.package = rec.package;
  g.no_change_recorded = rec.events_from_files;
  std::map<std::string, int> index;
  for (const RecordedState& s : rec.states) {
    index.emplace(s.id, static_cast<int>(g.states.size()));
    g.states.push_back({s.package, s.activity, s.screen});
  }
  auto state = [&](const std::string& id) {
    auto [it, inserted] = index.emplace(id, static_cast<int>(g.states.size()));
    if (inserted) g.states.push_back({});
    return it->second;
  };
  auto add = [&](const RecordedEvent& e, bool counted) {
    ExplorationGraph::Event ev;
    ev.from = state(e.from);
    ev.to = state(e.to);
    ev.tool = e.tool;
    ev.changed = e.from != e.to;
    ev.counted = counted;
    g.events.push_back(ev);
  };
  for (const RecordedEvent& e : rec.events) add(e, true);
  if (rec.events_from_files)
    for (const RecordedEvent& e : rec.edges) add(e, false);
  if (!rec.events_from_files)
    g.notes.push_back(
        "no events/ folder: events from the utg's edges, which omit those that "
        "changed nothing");
  for (const std::string& s : rec.skipped) g.notes.push_back("skipped " + s);
  return g;
}

AppStats StatsOfGraph(const ExplorationGraph& g, const std::string& source,
                      const std::string& kind) {
  AppStats st;
  st.source = source;
  st.kind = kind;
  st.has_graph = true;
  st.no_change_recorded = g.no_change_recorded;
  st.notes = g.notes;
  auto in_app = [&](int s) { return g.states[s].package == g.package; };

  std::map<std::string, int> per_activity;
  for (size_t s = 0; s < g.states.size(); ++s) {
    if (!in_app(static_cast<int>(s))) continue;
    ++st.states;
    ++per_activity[g.states[s].activity];
    if (g.states[s].screen) AddScreen(*g.states[s].screen, st);
  }
  st.activities = per_activity.size();
  for (const auto& [activity, n] : per_activity) st.screens_per_activity.Add(n);

  std::vector<std::set<int>> targets(g.states.size());
  std::vector<std::vector<int>> next(g.states.size());
  for (const auto& e : g.events) {
    next[e.from].push_back(e.to);
    if (e.tool) continue;
    if (e.to != e.from && in_app(e.from)) targets[e.from].insert(e.to);
    if (!e.counted) continue;
    ++st.events;
    st.no_change += !e.changed;
    st.crashes += e.crashed;
    const std::string& to = g.states[e.to].package;
    if (to.empty()) continue;
    ++st.known_target;
    if (IsLauncher(to))
      ++st.to_launcher;
    else if (to != g.package)
      ++st.leave;
  }
  for (size_t s = 0; s < g.states.size(); ++s)
    if (in_app(static_cast<int>(s)) && !targets[s].empty()) st.fanout.Add(targets[s].size());

  // Depth of each activity: the fewest events from a launcher state to one of its states.
  std::vector<int> depth(g.states.size(), -1);
  std::deque<int> queue;
  for (size_t s = 0; s < g.states.size(); ++s)
    if (IsLauncher(g.states[s].package)) {
      depth[s] = 0;
      queue.push_back(static_cast<int>(s));
    }
  // A launch by the tool counts as the tap on the app's icon, wherever it came from (DroidBot
  // records launches from states it did not keep).
  for (const auto& e : g.events)
    if (e.tool && depth[e.to] < 0 && !IsLauncher(g.states[e.to].package)) {
      depth[e.to] = 1;
      queue.push_back(e.to);
    }
  while (!queue.empty()) {
    int u = queue.front();
    queue.pop_front();
    for (int v : next[u])
      if (depth[v] < 0) {
        depth[v] = depth[u] + 1;
        queue.push_back(v);
      }
  }
  std::map<std::string, int> activity_depth;
  for (size_t s = 0; s < g.states.size(); ++s) {
    if (!in_app(static_cast<int>(s)) || depth[s] < 0) continue;
    auto [it, inserted] = activity_depth.emplace(g.states[s].activity, depth[s]);
    if (!inserted) it->second = std::min(it->second, depth[s]);
  }
  for (const auto& [activity, d] : activity_depth) st.activity_depth.Add(d);
  return st;
}

AppStats StatsOfScreens(const std::vector<gui::Screen>& screens, const std::string& package,
                        const std::string& source) {
  AppStats st;
  st.source = source;
  st.kind = "dumps";
  for (const gui::Screen& s : screens)
    if (package.empty() || s.package == package) AddScreen(s, st);
  return st;
}

AppStats Pool(const std::vector<AppStats>& all, const std::string& source) {
  AppStats p;
  p.source = source;
  p.kind = "pooled";
  for (const AppStats& s : all) {
    p.screens_measured += s.screens_measured;
    Append(p.actionable, s.actionable);
    Append(p.text_fields, s.text_fields);
    Append(p.lists, s.lists);
    Append(p.list_length, s.list_length);
    p.dialogs += s.dialogs;
    p.has_graph = p.has_graph || s.has_graph;
    p.states += s.states;
    p.activities += s.activities;
    Append(p.screens_per_activity, s.screens_per_activity);
    Append(p.activity_depth, s.activity_depth);
    Append(p.fanout, s.fanout);
    p.events += s.events;
    p.no_change += s.no_change;
    p.known_target += s.known_target;
    p.leave += s.leave;
    p.to_launcher += s.to_launcher;
    p.crashes += s.crashes;
    p.no_change_recorded = p.no_change_recorded && s.no_change_recorded;
  }
  return p;
}

namespace {

std::string Dist(const Figure& f) {
  if (f.empty()) return "-";
  return fmt::format("{:g} / {:g}", f.Median(), f.P90());
}

std::string Pct(size_t part, size_t whole, bool known = true) {
  if (!known || whole == 0) return "-";
  return fmt::format("{:.0f}% ({}/{})", 100 * Share(part, whole), part, whole);
}

struct Row {
  const char* name;
  std::string (*cell)(const AppStats&);
};

const std::vector<Row>& Rows() {
  static const std::vector<Row> kRows = {
      {"screens measured", [](const AppStats& s) { return fmt::format("{}", s.screens_measured); }},
      {"actionable widgets / screen", [](const AppStats& s) { return Dist(s.actionable); }},
      {"text fields / screen", [](const AppStats& s) { return Dist(s.text_fields); }},
      {"lists / screen", [](const AppStats& s) { return Dist(s.lists); }},
      {"list length (children)", [](const AppStats& s) { return Dist(s.list_length); }},
      {"screens showing a dialog",
       [](const AppStats& s) { return Pct(s.dialogs, s.screens_measured); }},
      {"states", [](const AppStats& s) { return s.has_graph ? fmt::format("{}", s.states) : "-"; }},
      {"activities",
       [](const AppStats& s) { return s.has_graph ? fmt::format("{}", s.activities) : "-"; }},
      {"states / activity", [](const AppStats& s) { return Dist(s.screens_per_activity); }},
      {"activity depth from launcher", [](const AppStats& s) { return Dist(s.activity_depth); }},
      {"deepest activity",
       [](const AppStats& s) {
         return s.activity_depth.empty() ? "-" : fmt::format("{:g}", s.activity_depth.Quantile(1));
       }},
      {"fan-out (targets / state)", [](const AppStats& s) { return Dist(s.fanout); }},
      {"user events",
       [](const AppStats& s) { return s.has_graph ? fmt::format("{}", s.events) : "-"; }},
      {"  that change nothing",
       [](const AppStats& s) { return Pct(s.no_change, s.events, s.no_change_recorded); }},
      {"  that leave the app", [](const AppStats& s) { return Pct(s.leave, s.known_target); }},
      {"  that reach the launcher",
       [](const AppStats& s) { return Pct(s.to_launcher, s.known_target); }},
      {"  that crash it", [](const AppStats& s) { return Pct(s.crashes, s.events); }},
  };
  return kRows;
}

}  // namespace

std::string FormatStatsTable(const std::vector<AppStats>& all) {
  // Each column is headed by its input's file name (a spec's without ".json"); the columns are
  // printed in blocks that fit kLine columns of a terminal, the row names repeated.
  constexpr size_t kLine = 100, kMaxHeader = 24;
  std::vector<std::string> headers;
  for (const AppStats& s : all) {
    const std::filesystem::path p(s.source);
    std::string h = p.extension() == ".json" ? p.stem().string() : p.filename().string();
    if (h.empty()) h = s.source;
    if (h.size() > kMaxHeader) h = h.substr(0, kMaxHeader - 3) + "...";
    headers.push_back(h);
  }
  size_t first = 0;
  for (const Row& r : Rows()) first = std::max(first, std::string_view(r.name).size());
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> width;
  for (size_t c = 0; c < all.size(); ++c) {
    width.push_back(headers[c].size());
    cells.emplace_back();
    for (const Row& r : Rows()) {
      cells[c].push_back(r.cell(all[c]));
      width[c] = std::max(width[c], cells[c].back().size());
    }
  }
  std::string out;
  for (size_t from = 0; from < all.size();) {
    size_t to = from + 1, line = first + 2 + width[from];
    while (to < all.size() && line + 2 + width[to] <= kLine) line += 2 + width[to++];
    if (from > 0) out += "\n";
    out += fmt::format("{:<{}}", "", first);
    for (size_t c = from; c < to; ++c) out += fmt::format("  {:>{}}", headers[c], width[c]);
    out += "\n";
    for (size_t r = 0; r < Rows().size(); ++r) {
      out += fmt::format("{:<{}}", Rows()[r].name, first);
      for (size_t c = from; c < to; ++c) out += fmt::format("  {:>{}}", cells[c][r], width[c]);
      out += "\n";
    }
    from = to;
  }
  out += "(median / p90; shares of user events, launches and kills by the tool left out)\n";
  for (const AppStats& s : all)
    for (const std::string& n : s.notes) out += fmt::format("note: {}: {}\n", s.source, n);
  return out;
}

nlohmann::json StatsToJson(const AppStats& s) {
  auto dist = [](const Figure& f) {
    return nlohmann::json{{"n", f.values.size()},
                          {"median", f.Median()},
                          {"p90", f.P90()},
                          {"mean", f.Mean()},
                          {"max", f.Quantile(1)}};
  };
  nlohmann::json j = {{"source", s.source},
                      {"kind", s.kind},
                      {"screens_measured", s.screens_measured},
                      {"actionable_per_screen", dist(s.actionable)},
                      {"text_fields_per_screen", dist(s.text_fields)},
                      {"lists_per_screen", dist(s.lists)},
                      {"list_length", dist(s.list_length)},
                      {"dialog_screens", s.dialogs}};
  if (s.has_graph) {
    j["states"] = s.states;
    j["activities"] = s.activities;
    j["states_per_activity"] = dist(s.screens_per_activity);
    j["activity_depth"] = dist(s.activity_depth);
    j["fanout"] = dist(s.fanout);
    j["events"] = s.events;
    if (s.no_change_recorded) j["events_no_change"] = s.no_change;
    j["events_known_target"] = s.known_target;
    j["events_leave"] = s.leave;
    j["events_to_launcher"] = s.to_launcher;
    j["events_crash"] = s.crashes;
  }
  j["notes"] = s.notes;
  return j;
}

}  // namespace roam::sim
