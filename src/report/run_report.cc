#include "report/run_report.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "draw/graph.h"
#include "report/html.h"
#include "report/run_report_parts.h"
#include "report/trace.h"

namespace roam::report {

namespace {

using nlohmann::json;
using namespace page;  // NOLINT(google-build-using-namespace): the page's own parts
namespace fs = std::filesystem;

// Arrows drawn in the transition graph: dot's layout time grows fast with edges (a real app's
// thousand transitions take minutes), and so many arrows are unreadable anyway.
constexpr size_t kMaxGraphEdges = 80;

// Each JSON line of `path` given to `each`; lines that do not parse are counted (a run killed
// mid-write leaves half a line).
template <typename Each>
size_t ForEachJsonLine(const fs::path& path, Each each) {
  auto text = ReadFile(path);
  if (!text.ok()) return 0;
  std::istringstream in(*text);
  std::string line;
  size_t bad = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = ParseJson(line, path.string());  // the one reading path, with its depth guard
    if (!j.ok() || !j->is_object()) {
      ++bad;
      continue;
    }
    each(*j);
  }
  return bad;
}

struct Transitions {
  std::map<std::pair<std::string, std::string>, int64_t> edges;  // from, to: count
  std::map<std::string, int64_t> launches;                       // activity after a launch
  std::set<std::string> seen;
  bool present = false;
  StateSteps states;  // the same steps between screens, where the run kept screens to show
};

// The string value of a top-level "key" of a trace line as Roam writes it, found without
// parsing the line (a 100,000-line trace parsed as JSON took most of a report's time). A quote
// inside a JSON string is escaped, so `"key":"` cannot occur inside a value. nullopt when the
// key is absent or its value holds an escape (the caller then parses the line).
std::optional<std::string_view> FastString(std::string_view line, std::string_view key) {
  std::string pattern = fmt::format("\"{}\":\"", key);
  size_t at = line.find(pattern);
  if (at == std::string_view::npos) return std::nullopt;
  at += pattern.size();
  size_t end = line.find('"', at);
  if (end == std::string_view::npos) return std::nullopt;
  std::string_view value = line.substr(at, end - at);
  if (value.find('\\') != std::string_view::npos) return std::nullopt;
  return value;
}

// From a trace: consecutive actions on different activities are a transition; the first
// action after a clear, launch, stop or restore counts as a launch into its activity. Lines that
// do not parse (half a line from a kill) are skipped. The steps out of the states whose screen
// the run kept (t.states.kept) too.
void AddTransitions(const fs::path& trace, Transitions& t) {
  const std::set<std::string>& pictured = t.states.kept;
  // Line by line: a long run's trace is hundreds of megabytes (238 MB at 1,000,000 steps), and
  // read whole, with its copy, it was most of the run's peak memory.
  std::ifstream in(trace);
  if (!in) return;
  t.present = true;
  std::string previous, line;
  std::string previous_state, previous_words;  // the last action's state and words
  bool after_launch = true;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::string op, activity, state, words;
    auto fast_op = FastString(line, "op");
    auto fast_activity = FastString(line, "activity");
    if (line.back() == '}' && fast_op && (*fast_op != "act" || fast_activity)) {
      op = *fast_op;
      if (fast_activity) activity = *fast_activity;
      if (!pictured.empty()) state = FastString(line, "state").value_or("");
      if (pictured.count(state)) {
        // The first "kind" is the action's: keys are written in order, "action" first.
        auto kind = FastString(line, "kind");
        auto text = FastString(line, "widget_text");
        words = std::string(kind.value_or(""));
        if (text && !text->empty()) words += fmt::format(" \"{}\"", *text);
      }
    } else {
      auto j = ParseJson(line, trace.string());
      if (!j.ok() || !j->is_object()) continue;
      op = Str(*j, "op");
      activity = Str(*j, "activity");
      state = Str(*j, "state");
      words = j->contains("action") ? Str((*j)["action"], "kind") : "";
      if (!Str(*j, "widget_text").empty()) words += " \"" + Str(*j, "widget_text") + "\"";
    }
    if (op != "act") {
      if (op == "clear" || op == "launch" || op == "stop" || op == "restore") {
        after_launch = true;
        previous_state.clear();
      }
      continue;
    }
    if (!previous_state.empty() && !state.empty())
      ++t.states.edges[{previous_state, state}][previous_words];
    previous_state.clear();
    if (pictured.count(state)) {
      ++t.states.visits[state];
      if (after_launch) ++t.states.starts[state];
      t.states.activities.try_emplace(state, activity);
      previous_state = state;
      previous_words = std::move(words);
    }
    if (activity.empty()) continue;
    t.seen.insert(activity);
    if (after_launch) {
      ++t.launches[activity];
    } else if (activity != previous) {
      ++t.edges[{previous, activity}];
    }
    previous = std::move(activity);
    after_launch = false;
  }
}

// trace.jsonl, or a run on several devices: each device's trace-<device>.jsonl.
Transitions ReadTransitions(const fs::path& run_dir) {
  Transitions t;
  std::vector<fs::path> traces = {run_dir / "trace.jsonl"};
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(run_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("trace-") && name.ends_with(".jsonl")) traces.push_back(entry.path());
  }
  std::sort(traces.begin() + 1, traces.end());
  // The steps out of the screens the run kept, for the screen view.
  for (const auto& entry : fs::directory_iterator(run_dir / "screens", ec))
    if (entry.path().extension() == ".png") t.states.kept.insert(entry.path().stem().string());
  for (const auto& trace : traces) AddTransitions(trace, t);
  return t;
}

// A figure of a campaign's section as a cell: numbers grouped (two decimals where not whole),
// an object as "name value" pairs.
std::string FigureCell(const json& v) {
  if (v.is_number()) {
    const double x = v.get<double>();
    return x == std::floor(x) ? Count(x) : fmt::format("{:.2f}", x);
  }
  if (v.is_object()) {
    std::string out;
    for (const auto& [k, inner] : v.items())
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", k, FigureCell(inner));
    return out;
  }
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// A figure of a campaign's section as a person reads it, in the order the campaign works.
struct FigureRow {
  const char* key;      // in the section of summary.json
  const char* label;    // what it counts
  const char* unit;     // after the figure (" s"), or ""
  int decimals;         // figures after the point; 0: whole and grouped (1,595)
  const char* meaning;  // what it says
};

// summary.json's "fuzz" (run/fuzz/fuzz.h's FuzzStats; docs/fuzzing.md says how fuzzing works).
constexpr FigureRow kFuzzRows[] = {
    {"seeds", "Seeds run", "", 0,
     "tests of a few events (--seed-length), each run twice: views that differ between the runs "
     "(clocks, ads) are ignored"},
    {"ways", "Seeds begun on a way", "", 0,
     "seeds that first replayed the way an earlier seed took to a screen, to test it there"},
    {"ways_failed", "Ways that led elsewhere", "", 0,
     "of those ways, the ones that, replayed, did not lead to their screen again (not taken "
     "again)"},
    {"unstable_seeds", "Unstable seeds", "", 0,
     "seeds whose second run could not follow the first; no mutants are made of them"},
    {"seed_scrolls", "Scrolls and swipes", "", 0,
     "events of the seeds (their own, not a way's) that scrolled a list or swiped the screen"},
    {"mutants_generated", "Mutants made", "", 0,
     "a seed with a few events (τ) inserted that should not change what its later steps do"},
    {"mutants_executed", "Mutants run", "", 0, "each from cleared data, compared with its seed"},
    {"restored_mutants", "Mutants begun from a snapshot", "", 0,
     "of those run, the ones restored at their seed's start or pivot instead of replaying the "
     "events before (a device with snapshots)"},
    {"mutants_dropped", "Mutants dropped", "", 0,
     "τ did not replay, or did not come back to a screen like the one it started on: nothing to "
     "compare"},
    {"mutant_seconds", "Time running mutants", " s", 2, "wall time, all mutants together"},
    {"mutants_per_second", "Mutants a second", "", 1, "mutants run in a second of that time"},
    {"violations", "Independent-view violations", "", 0,
     "mutants in which an effect their seed had on the screen was missing; the functional "
     "reports count each missing effect once"},
};

// What a fuzzing or vision campaign did (summary.json's "fuzz" or "vision" section): the figures
// a row each, labelled, in order and explained where the page knows them, the rest as written;
// "" for an exploration.
std::string CampaignSection(const Summary& s) {
  if (!s.sections.is_object()) return "";
  std::string html;
  for (const auto& [key, title] :
       {std::pair{"fuzz", "What fuzzing did"}, std::pair{"vision", "What VisionDroid did"}}) {
    const json& section = s.sections.value(key, json());
    if (!section.is_object() || section.empty()) continue;
    html +=
        fmt::format("<section id=\"campaign\">\n<h2>{}</h2>\n<table class=\"figures\">\n", title);
    std::set<std::string> shown;
    if (std::string_view(key) == "fuzz")
      for (const FigureRow& row : kFuzzRows) {
        auto value = Num(section, row.key);
        if (!value) continue;
        shown.insert(row.key);
        html += fmt::format(
            "<tr><th>{}</th><td class=\"num\">{}{}</td><td class=\"sub\">{}</td></tr>\n", row.label,
            row.decimals > 0 ? fmt::format("{:.{}f}", *value, row.decimals) : Count(*value),
            row.unit, HtmlEscape(row.meaning));
      }
    for (const auto& [name, value] : section.items()) {
      if (shown.count(name)) continue;
      std::string words = name;
      std::replace(words.begin(), words.end(), '_', ' ');
      html += fmt::format("<tr><th>{}</th><td class=\"num\">{}</td><td></td></tr>\n",
                          HtmlEscape(words), HtmlEscape(FigureCell(value)));
    }
    html += "</table>\n</section>\n";
  }
  return html;
}

std::string GraphSection(const Summary& summary, const Transitions& t) {
  const std::vector<std::string>& declared = summary.activities_declared;
  const std::vector<std::string>& covered = summary.activities_covered;
  std::set<std::string> visited(covered.begin(), covered.end());
  visited.insert(t.seen.begin(), t.seen.end());
  std::vector<std::string> names = declared;
  for (const std::string& v : covered)
    if (std::find(names.begin(), names.end(), v) == names.end()) names.push_back(v);
  for (const std::string& v : t.seen)
    if (std::find(names.begin(), names.end(), v) == names.end()) names.push_back(v);

  std::string html = "<section id=\"graph\">\n<h2>Activity transitions</h2>\n";
  size_t unvisited = 0;
  for (const auto& n : names) unvisited += visited.count(n) ? 0 : 1;
  html += fmt::format(
      "<p class=\"sub\">{} activities reached{}; an arrow is a step that led from one activity to "
      "another, labelled with how often it was taken. Hover for full names.{}</p>\n",
      visited.size(),
      declared.empty() ? " (the device did not list the activities it declares)"
      : unvisited == 0
          ? fmt::format(", all {} declared", declared.size())
          : fmt::format(", {} of the {} declared never (dashed)", unvisited, declared.size()),
      t.present ? "" : " This run recorded no trace.jsonl, so there are no arrows to draw.");
  if (names.empty()) return html + "<p>No activity was reached.</p>\n</section>\n";
  if (!t.present) {  // boxes without arrows say no more than a list (a fuzz run)
    html += "<ul>\n";
    for (const auto& n : names)
      html += fmt::format("<li>{}{}</li>\n", HtmlEscape(n),
                          visited.count(n) ? "" : " <span class=\"sub\">(never reached)</span>");
    return html + "</ul>\n</section>\n";
  }

  draw::Graph g;
  std::map<std::string, size_t> index;
  if (!t.launches.empty()) g.nodes.push_back({.label = "launch", .tooltip = "the app's launch"});
  for (const auto& n : names) {
    index[n] = g.nodes.size();
    g.nodes.push_back({.label = ShortName(n), .tooltip = n, .visited = visited.count(n) > 0});
  }
  if (!t.launches.empty()) g.nodes[0].visited = true;
  std::vector<draw::GraphEdge> edges;
  for (const auto& [to, count] : t.launches) edges.push_back({0, index.at(to), count});
  for (const auto& [edge, count] : t.edges)
    edges.push_back({index.at(edge.first), index.at(edge.second), count});
  // The most taken arrow into each activity first (how it was reached), then the most taken of
  // the rest, up to kMaxGraphEdges.
  std::stable_sort(edges.begin(), edges.end(),
                   [](const auto& a, const auto& b) { return a.count > b.count; });
  std::vector<bool> reached(g.nodes.size(), false), kept(edges.size(), false);
  for (size_t i = 0; i < edges.size(); ++i)
    if (!reached[edges[i].to] && g.edges.size() < kMaxGraphEdges) {
      reached[edges[i].to] = kept[i] = true;
      g.edges.push_back(edges[i]);
    }
  for (size_t i = 0; i < edges.size() && g.edges.size() < kMaxGraphEdges; ++i)
    if (!kept[i]) g.edges.push_back(edges[i]);
  if (g.edges.size() < edges.size())
    html += fmt::format(
        "<p class=\"sub\">The {} most taken of {} transitions are drawn (each activity keeps the "
        "arrow it was reached by most often).</p>\n",
        g.edges.size(), edges.size());
  auto svg = draw::GraphSvg(g);
  if (!svg.ok()) {
    return html +
           fmt::format("<p class=\"notice\">The graph could not be laid out: {}</p>\n",
                       HtmlEscape(svg.status().message())) +
           "</section>\n";
  }
  return html + "<div class=\"graph\">\n" + *svg + "</div>\n</section>\n";
}

// A run on several devices (summary.json "devices"): each one's figures and how it ended.
std::string DevicesSection(const Summary& summary) {
  const json& sections = summary.sections;
  if (!sections.is_object() || !sections.contains("devices") || !sections["devices"].is_array())
    return "";
  std::string html =
      "<h2>Devices</h2>\n<p class=\"sub\">One run on several devices at once; each device's steps "
      "are in "
      "its trace.</p>\n<table>\n<tr><th>Device</th><th>Events</th>"
      "<th>Activities</th><th>States</th><th>Ended</th><th>Trace</th></tr>\n";
  for (const auto& d : sections["devices"]) {
    std::string ended = HtmlEscape(Str(d, "stop_reason"));
    if (d.contains("dropped") && d["dropped"].is_object())
      ended =
          fmt::format("dropped after {} s: {}", Count(Num(d["dropped"], "at_seconds").value_or(0)),
                      HtmlEscape(Str(d["dropped"], "error")));
    html += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></"
        "tr>\n",
        HtmlEscape(Str(d, "device")), Count(Num(d, "events").value_or(0)),
        Count(Num(d, "activities").value_or(0)), Count(Num(d, "states").value_or(0)), ended,
        HtmlEscape(Str(d, "trace")));
  }
  return html + "</table>\n";
}

std::string ConfigSection(const JsonFile& config) {
  std::string html = "<details id=\"config\"><summary>Configuration (config.json)</summary>\n";
  if (!config.error.empty())
    return html + fmt::format("<p class=\"notice\">{}</p></details>\n", HtmlEscape(config.error));
  if (!config.value.is_object()) return html + "<p>No config.json.</p></details>\n";
  html += "<table>\n";
  for (const auto& [key, value] : config.value.items())
    html += fmt::format("<tr><th>{}</th><td><code>{}</code></td></tr>\n", HtmlEscape(key),
                        HtmlEscape(value.is_string() ? value.get<std::string>() : value.dump()));
  return html + "</table>\n</details>\n";
}

std::string ChartsSection(const std::vector<ProgressPoint>& samples, const Summary& summary,
                          size_t bad) {
  auto total = [](const std::optional<size_t>& n) {
    return n ? std::optional<double>(static_cast<double>(*n)) : std::nullopt;
  };
  auto series = [&](const char* name, std::optional<double> ProgressPoint::*field) {
    ChartSeries s{name, {}};
    for (const ProgressPoint& p : samples)
      if (p.*field) s.points.emplace_back(p.events, *(p.*field));
    return s;
  };
  std::string html =
      "<section id=\"coverage\">\n<h2>Coverage over events</h2>\n<div class=\"charts\">\n";
  if (samples.empty())
    html += "<p>This run recorded no progress.jsonl (runs before Roam wrote one).</p>\n";
  auto chart = [&](const char* title, const char* name, std::optional<double> ProgressPoint::*field,
                   std::optional<double> total) {
    ChartSeries s = series(name, field);
    if (s.points.empty()) return;
    html += "<div class=\"chart\">" +
            LineChartSvg({s}, {.title = total ? fmt::format("{} (of {})", title, Count(*total))
                                              : std::string(title),
                               .y_max = total.value_or(0)}) +
            "</div>\n";
  };
  if (!samples.empty()) {
    chart("Activities", "activities", &ProgressPoint::activities, total(summary.activities_total));
    if (summary.coverage_link)  // probes of the classes that ran so far: no ceiling to show
      chart("JaCoCo probes hit", "units", &ProgressPoint::units, std::nullopt);
    else
      chart("Code units", "units", &ProgressPoint::units, total(summary.units_total));
    chart("Abstract states", "states", &ProgressPoint::states, std::nullopt);
    ChartSeries crashes = series("crashes", &ProgressPoint::crashes),
                anrs = series("ANRs", &ProgressPoint::anrs);
    html += "<div class=\"chart\">" + LineChartSvg({crashes, anrs}, {.title = "Unique bugs"}) +
            "</div>\n";
  }
  html += "</div>\n";
  if (bad > 0)
    html +=
        fmt::format("<p class=\"sub\">{} lines of progress.jsonl could not be read.</p>\n", bad);
  return html + "</section>\n";
}

// The run's figures: from its summary (null: none could be read), else the last progress sample.
std::vector<Card> FigureCards(const Summary* s, const std::vector<ProgressPoint>& samples) {
  std::vector<Card> cards;
  std::optional<double> events;
  if (s) events = static_cast<double>(s->events);
  if (!events && !samples.empty()) events = samples.back().events;
  if (events) cards.push_back({"Events", Count(*events), ""});
  if (!s) return cards;
  cards.push_back(
      {"Time", fmt::format("{:.1f} s", s->wall_seconds),
       EventsPerSecond(*s) > 0 ? fmt::format("{:.0f} events/s", EventsPerSecond(*s)) : ""});
  if (s->phone_seconds)
    cards.push_back({"A phone's time", fmt::format("{:.0f} s", *s->phone_seconds),
                     fmt::format("{:.1f} events a minute", s->events * 60 / *s->phone_seconds)});
  if (!s->activities_covered.empty() || s->activities_total) {
    cards.push_back(
        {"Activities", Count(static_cast<double>(s->activities_covered.size())),
         s->activities_total ? fmt::format("of {} declared", Count(*s->activities_total)) : ""});
  }
  if (const auto& link = s->coverage_link; link && !link->working) {
    cards.push_back(
        {"Coverage", "none", "the link did not work: " + Excerpt(link->last_error, 160)});
  } else if (link && s->units_covered && s->units_total) {
    // JaCoCo lists only the classes that ran: a share of their probes is no share of the app.
    cards.push_back({"JaCoCo probes hit", Count(*s->units_covered),
                     fmt::format("of {} in the {} classes that ran; {} of {} dumps failed",
                                 Count(*s->units_total), Count(link->classes), Count(link->failed),
                                 Count(link->dumps))});
  } else if (s->units_covered && s->units_total) {
    const double units = *s->units_covered, total = *s->units_total;
    cards.push_back(
        {"Code units", Count(units),
         fmt::format("of {} ({:.0f}%)", Count(total), total > 0 ? 100.0 * units / total : 0.0)});
  }
  if (const auto& c = s->code_coverage) {  // JaCoCo's own figures, from the class files
    for (const auto& [name, counter] :
         {std::pair{"Lines", c->line}, std::pair{"Branches", c->branch},
          std::pair{"Methods", c->method}})
      cards.push_back(
          {name, Count(counter.covered),
           fmt::format("of {} ({:.0f}%): JaCoCo, from the class files", Count(counter.total()),
                       counter.total() > 0 ? 100.0 * counter.covered / counter.total() : 0.0)});
  }
  cards.push_back({"Abstract states", Count(s->states), ""});
  // The bug cards link to the first bug of their kind in the bugs section.
  auto first = [](const std::vector<FailureSummary>& list) {
    auto it = std::min_element(list.begin(), list.end(), [](const auto& a, const auto& b) {
      return a.first_step < b.first_step;
    });
    return it == list.end() ? std::string() : "#" + BugAnchor(*it);
  };
  cards.push_back({"Crashes", Count(s->crashes.size()), "unique", first(s->crashes)});
  cards.push_back({"ANRs", Count(s->anrs.size()), "unique", first(s->anrs)});
  if (s->functional)
    cards.push_back({"Functional reports", Count(s->functional->size()), "unique",
                     s->functional->empty() ? "" : "#" + s->functional->front().bug_dir});
  cards.push_back({"Relaunches", Count(s->relaunches), "the app was left or closed"});
  if (s->device_life.away > 0)
    cards.push_back({"Device away", Count(s->device_life.away),
                     fmt::format("{:.0f} s waited for it, all told", s->device_life.away_seconds)});
  if (s->device_life.driver_restarts > 0)
    cards.push_back({"Driver restarts", Count(s->device_life.driver_restarts),
                     "it died, or the device came back"});
  if (s->restores > 0)
    cards.push_back(
        {"Restores", Count(s->restores), fmt::format("{} failed", Count(s->failed_restores))});
  return cards;
}

}  // namespace

std::vector<ProgressPoint> ReadProgressFile(const fs::path& path, size_t& bad) {
  std::vector<ProgressPoint> out;
  bad = 0;
  std::error_code ec;
  if (!fs::exists(path, ec)) return out;
  bad = ForEachJsonLine(path, [&](const json& j) {
    auto events = Num(j, "events");
    if (!events) return;
    out.push_back({*events, Num(j, "activities"), Num(j, "units"), Num(j, "states"),
                   Num(j, "crashes"), Num(j, "anrs")});
  });
  return out;
}

// What the reader must know before the figures: a run that did not finish (no summary.json,
// one that cannot be read, or one still "running"), and a vision run whose model's answers were
// mostly replaced.
std::string NoticesHtml(const Summary& s, bool read, const JsonFile& summary,
                        const std::string& summary_error, bool has_progress) {
  std::string body;
  const std::string& stop = s.stop_reason;
  if (!read || stop == "running") {
    body += fmt::format(
        "<p class=\"notice\">This run did not finish: {}. The figures are those last "
        "written{}.</p>\n",
        !summary.present         ? "it wrote no summary.json"
        : !summary_error.empty() ? HtmlEscape(summary_error)
                                 : "its summary.json still says \"running\"",
        has_progress ? " (progress.jsonl is read to its last whole line)" : "");
  }
  // A vision run whose answers were mostly replaced (summary.json "vision").
  if (const json& v = s.sections.is_object() ? s.sections.value("vision", json()) : json();
      v.is_object()) {
    const double questions = Num(v, "questions").value_or(0);
    const double replaced = Num(v, "answers_replaced").value_or(0);
    if (replaced > 0 && 2 * replaced > questions)
      body += fmt::format(
          "<p class=\"notice\">{} of {} of the model's answers were replaced by a random action "
          "or a \"no bug\" (it failed or answered nonsense): this run says little about the "
          "model.</p>\n",
          Count(replaced), Count(questions));
  }
  return body;
}

Result<std::string> RunReportHtml(const fs::path& run_dir) {
  JsonFile config = ReadOptionalJson(run_dir / "config.json");
  JsonFile summary = ReadOptionalJson(run_dir / "summary.json");
  if (!config.present && !summary.present)
    return Status::NotFound(fmt::format(
        "{}: not a run folder (it holds neither config.json nor summary.json)", run_dir.string()));
  // The summary, typed; one that cannot be read is named on the page, which shows the rest.
  std::string summary_error = summary.error;
  std::optional<Summary> read;
  if (summary.present && summary_error.empty()) {
    auto typed = SummaryFromJson(summary.value, (run_dir / "summary.json").string());
    if (typed.ok()) {
      read = std::move(*typed);
    } else {
      summary_error = typed.status().message();
    }
  }
  const Summary s = read.value_or(Summary{});
  const json& c = config.value.is_object() ? config.value : json::object();
  size_t bad_progress = 0;
  std::vector<ProgressPoint> samples = ReadProgressFile(run_dir / "progress.jsonl", bad_progress);

  const std::string app = s.app.empty() ? Str(c, "app") : s.app;
  const std::string strategy = s.strategy.empty() ? Str(c, "strategy") : s.strategy;
  const std::string& stop = s.stop_reason;
  // The heading names a spec by its file name (its path follows) and an app on a device by its
  // package.
  const std::string name = app.empty() ? "run" : fs::path(app).filename().string();
  std::string body = fmt::format("<h1>Roam: {}</h1>\n", HtmlEscape(name));
  // On a device: how it was driven and where its coverage came from (config.json).
  std::string device_notes;
  if (!Str(c, "driver").empty())
    device_notes += fmt::format(" · driver <strong>{}</strong>", HtmlEscape(Str(c, "driver")));
  if (const std::string coverage = Str(c, "coverage"); !coverage.empty())
    device_notes += fmt::format(
        " · coverage <code>{}</code>{}", HtmlEscape(coverage),
        coverage == "none" || c.value("coverage_working", true) ? "" : " (did not work)");
  body += fmt::format(
      "<p class=\"sub\">{}strategy <strong>{}</strong> · device {}{} · seed {} · stopped by "
      "<strong>{}</strong></p>\n",
      name == app || app.empty() ? "" : fmt::format("<code>{}</code> · ", HtmlEscape(app)),
      HtmlEscape(strategy), HtmlEscape(s.device.empty() ? Str(c, "device") : s.device),
      device_notes, read ? std::to_string(s.seed) : c.value("seed", json()).dump(),
      HtmlEscape(stop.empty() ? "unknown" : stop));
  body += NoticesHtml(s, read.has_value(), summary, summary_error, !samples.empty());
  body += "<section id=\"figures\">\n" + CardsHtml(FigureCards(read ? &s : nullptr, samples)) +
          "</section>\n";
  // The bugs first: what a person opens the page for.
  body += BugsSection(run_dir, s);
  body += CampaignSection(s);
  body += ChartsSection(samples, s, bad_progress);
  Transitions transitions = ReadTransitions(run_dir);
  body += GraphSection(s, transitions);
  body += StateGraphSection(run_dir, transitions.states, s.states);
  body += ScreensSection(run_dir, transitions.states, s.states);
  body += DevicesSection(s);
  body += "<h2>Run</h2>\n" + ConfigSection(config);
  body += fmt::format(
      "<footer>Written by Roam from the files of <code>{}</code>; <code>roam report {}</code> "
      "writes it again.</footer>\n",
      HtmlEscape(run_dir.string()), HtmlEscape(run_dir.string()));
  return HtmlPage(fmt::format("Roam: {} · {}", name, strategy), body);
}

Status WriteRunReport(const fs::path& run_dir) {
  auto html = RunReportHtml(run_dir);
  if (!html.ok()) return html.status();
  return WriteFileAtomic(run_dir / "report.html", *html);
}

}  // namespace roam::report
