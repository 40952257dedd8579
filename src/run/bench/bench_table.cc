// The text table of `roam bench`: per app, per strategy, the median over seeds with [min-max];
// ratios of medians to random's and to the best known (the most any run covered); overall,
// geometric means of those ratios.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "run/bench/bench.h"

namespace roam::run {

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

namespace {

struct Stat {
  double median = 0, min = 0, max = 0;
};

Stat Of(const std::vector<double>& v) {
  if (v.empty()) return {};
  auto [min, max] = std::minmax_element(v.begin(), v.end());
  return {Median(v), *min, *max};
}

std::string Cell(const Stat& s) {
  auto num = [](double x) {
    return x == std::floor(x) ? fmt::format("{:.0f}", x) : fmt::format("{:.1f}", x);
  };
  if (s.min == s.max) return num(s.median);
  return fmt::format("{} [{}-{}]", num(s.median), num(s.min), num(s.max));
}

std::string Ratio(double a, double b) { return b > 0 ? fmt::format("{:.2f}", a / b) : "-"; }

// Figures of one (app, strategy) over its seeds.
struct Group {
  Stat events, activities, units, states, crashes, anrs, tp, fp, rate;
  size_t activities_total = 0, units_total = 0;
};

Group Summarise(const std::vector<const BenchRun*>& runs) {
  std::vector<double> ev, a, u, st, c, an, tp, fp, rate;
  Group g;
  for (const auto* r : runs) {
    ev.push_back(r->events);
    a.push_back(r->activities_covered);
    u.push_back(r->units_covered);
    st.push_back(r->states);
    c.push_back(r->crashes);
    an.push_back(r->anrs);
    tp.push_back(r->functional_tp);
    fp.push_back(r->functional_fp);
    rate.push_back(r->seconds > 0 ? r->events / r->seconds : 0);
    g.activities_total = r->activities_total;
    g.units_total = r->units_total;
  }
  g.events = Of(ev);
  g.activities = Of(a);
  g.units = Of(u);
  g.states = Of(st);
  g.crashes = Of(c);
  g.anrs = Of(an);
  g.tp = Of(tp);
  g.fp = Of(fp);
  g.rate = Of(rate);
  return g;
}

// Rows of cells as text: each column as wide as its widest cell, the columns two spaces apart,
// the first `left` flush left and the rest flush right.
std::string Aligned(const std::vector<std::vector<std::string>>& rows, size_t left) {
  std::vector<size_t> width;
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], row[c].size());
    }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) line += "  ";
      line += c < left ? fmt::format("{:<{}}", row[c], width[c])
                       : fmt::format("{:>{}}", row[c], width[c]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

double GeoMean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double log_sum = 0;
  for (double x : v) log_sum += std::log(std::max(x, 1e-9));
  return std::exp(log_sum / v.size());
}

}  // namespace

BestKnown BestKnownOf(const std::vector<BenchRun>& runs) {
  BestKnown best;
  for (const auto& r : runs) {
    auto& b = best[r.app];
    b.activities = std::max(b.activities, r.activities_covered);
    b.units = std::max(b.units, r.units_covered);
  }
  return best;
}

std::string FormatBenchTable(const std::vector<BenchRun>& runs,
                             const std::vector<std::string>& strategies) {
  std::map<std::string, std::map<std::string, std::vector<const BenchRun*>>> by_app;
  for (const auto& r : runs) by_app[r.app][r.strategy].push_back(&r);
  const BestKnown best = BestKnownOf(runs);

  // The strategy column of the overall tables fits the longest name (timetravel:fastbot).
  size_t w = 14;
  for (const auto& s : strategies) w = std::max(w, s.size());
  // The functional-bug column only when fuzz ran.
  const bool fuzz =
      std::find(strategies.begin(), strategies.end(), kFuzzStrategy) != strategies.end();
  // The events column only when runs made different numbers of events (a time budget).
  const bool events = std::any_of(runs.begin(), runs.end(),
                                  [&](const BenchRun& r) { return r.events != runs[0].events; });
  auto row = [&](std::vector<std::string> cells) {
    if (!fuzz) cells.erase(cells.begin() + 7);
    if (!events) cells.erase(cells.begin() + 1);
    return cells;
  };
  const std::vector<std::string> header =
      row({"strategy", "events", "activities", "units", "states", "crashes", "anrs", "func", "ev/s",
           "act/rnd", "act/best", "units/rnd", "units/best"});
  std::string out;
  // Per strategy, the per-app ratios for the overall table.
  std::map<std::string, std::vector<double>> act_rnd, act_best, unit_rnd, unit_best;
  std::map<std::string, double> crashes_total, anrs_total;
  // Wrappers ("timetravel:random") against their base ("random"), when both ran.
  std::map<std::string, std::vector<double>> unit_base;
  std::map<std::string, std::string> base_of;
  for (const auto& [app, by_strategy] : by_app) {
    std::map<std::string, Group> groups;
    for (const auto& [strategy, list] : by_strategy) groups[strategy] = Summarise(list);
    const Group& any = groups.begin()->second;
    const double ba = best.at(app).activities, bu = best.at(app).units;
    out += fmt::format(
        "\n== {} ({} activities, {} code units; best known: {:.0f} activities, {:.0f} units) ==\n",
        app, any.activities_total, any.units_total, ba, bu);
    std::vector<std::vector<std::string>> rows = {header};
    auto median_of = [&](const std::string& s, auto field) {
      auto it = groups.find(s);
      return it == groups.end() ? 0.0 : (it->second.*field).median;
    };
    for (const auto& strategy : strategies) {
      auto it = groups.find(strategy);
      if (it == groups.end()) continue;
      const Group& g = it->second;
      const double ra = median_of("random", &Group::activities),
                   ru = median_of("random", &Group::units);
      rows.push_back(row(
          {strategy, Cell(g.events), Cell(g.activities), Cell(g.units), Cell(g.states),
           Cell(g.crashes), Cell(g.anrs), fmt::format("{}/{}", Cell(g.tp), Cell(g.fp)),
           fmt::format("{:.0f}", g.rate.median), Ratio(g.activities.median, ra),
           Ratio(g.activities.median, ba), Ratio(g.units.median, ru), Ratio(g.units.median, bu)}));
      if (ra > 0) act_rnd[strategy].push_back(g.activities.median / ra);
      if (ba > 0) act_best[strategy].push_back(g.activities.median / ba);
      if (ru > 0) unit_rnd[strategy].push_back(g.units.median / ru);
      if (bu > 0) unit_best[strategy].push_back(g.units.median / bu);
      if (size_t colon = strategy.find(':'); colon != std::string::npos) {
        std::string base = strategy.substr(colon + 1);
        double base_units = median_of(base, &Group::units);
        if (groups.count(base)) base_of[strategy] = base;
        if (base_units > 0) unit_base[strategy].push_back(g.units.median / base_units);
      }
      crashes_total[strategy] += g.crashes.median;
      anrs_total[strategy] += g.anrs.median;
    }
    out += Aligned(rows, (fuzz ? 7 : 6) + (events ? 1 : 0));
  }
  out +=
      fmt::format("\n== overall ({} apps; geometric means of the per-app ratios of medians) ==\n",
                  by_app.size());
  out += fmt::format("{:<{}} {:>8} {:>8} {:>9} {:>10} {:>14} {:>11}\n", "strategy", w, "act/rnd",
                     "act/best", "units/rnd", "units/best", "crashes (sum)", "anrs (sum)");
  auto gm = [](std::map<std::string, std::vector<double>>& m, const std::string& s) {
    return m.count(s) ? fmt::format("{:.2f}", GeoMean(m[s])) : std::string("-");
  };
  for (const auto& strategy : strategies)
    out += fmt::format("{:<{}} {:>8} {:>8} {:>9} {:>10} {:>14} {:>11}\n", strategy, w,
                       gm(act_rnd, strategy), gm(act_best, strategy), gm(unit_rnd, strategy),
                       gm(unit_best, strategy), crashes_total[strategy], anrs_total[strategy]);
  if (!base_of.empty()) {
    out +=
        "\nwrappers against their base: units/base is the geometric mean of the per-app "
        "ratios;\ncrashes/base and anrs/base are ratios of the summed medians\n";
    out += fmt::format("{:<22} {:<12} {:>10} {:>13} {:>10}\n", "strategy", "base", "units/base",
                       "crashes/base", "anrs/base");
    for (const auto& [strategy, base] : base_of)
      out +=
          fmt::format("{:<22} {:<12} {:>10} {:>13} {:>10}\n", strategy, base,
                      gm(unit_base, strategy), Ratio(crashes_total[strategy], crashes_total[base]),
                      Ratio(anrs_total[strategy], anrs_total[base]));
  }
  return out;
}

std::string FormatFunctionalTable(const std::vector<BenchRun>& runs) {
  struct Kind {
    std::string seen_by;
    size_t planted = 0, found = 0;
  };
  std::map<std::string, Kind> kinds;
  size_t fuzz_runs = 0, runs_with = 0, tp = 0, fp = 0, gui_planted = 0, gui_found = 0;
  for (const auto& r : runs) {
    if (r.strategy != kFuzzStrategy) continue;
    ++fuzz_runs;
    // Reports count on every app (a report where no functional bug is planted is a false one);
    // recall on the apps that plant some.
    tp += r.functional_tp;
    fp += r.functional_fp;
    if (r.functional_planted.empty()) continue;
    ++runs_with;
    for (const auto& b : r.functional_planted) {
      Kind& k = kinds[b.kind + "\t" + b.seen_by];
      k.seen_by = b.seen_by;
      const bool found = std::count(r.planted_found.begin(), r.planted_found.end(), b.id) > 0;
      ++k.planted;
      k.found += found;
      if (b.seen_by == "gui_effect") {
        ++gui_planted;
        gui_found += found;
      }
    }
  }
  if (fuzz_runs == 0) return "";
  // Where fuzz's seeds get to, against fastbot's exploration at the same events.
  std::map<std::string, std::vector<double>> fuzz_act, fastbot_act;
  for (const auto& r : runs) {
    if (r.strategy == kFuzzStrategy) fuzz_act[r.app].push_back(r.activities_covered);
    if (r.strategy == "fastbot") fastbot_act[r.app].push_back(r.activities_covered);
  }
  std::vector<double> ratios;
  for (const auto& [app, a] : fuzz_act)
    if (auto it = fastbot_act.find(app); it != fastbot_act.end() && Median(it->second) > 0)
      ratios.push_back(Median(a) / Median(it->second));
  std::string out = fmt::format(
      "\n== functional bugs and fuzz ({} runs; a bug counts once per run that plants it) ==\n"
      "{:<18} {:<11} {:>8} {:>6} {:>7}\n",
      runs_with, "kind", "seen by", "planted", "found", "recall");
  for (const auto& [key, k] : kinds)
    out += fmt::format("{:<18} {:<11} {:>8} {:>6} {:>7}\n", key.substr(0, key.find('\t')),
                       k.seen_by, k.planted, k.found,
                       Ratio(static_cast<double>(k.found), static_cast<double>(k.planted)));
  out += fmt::format(
      "recall over the gui_effect bugs (the ones fuzz is for): {} of {} ({}); reports: {} "
      "true, {} false, precision {}\n",
      gui_found, gui_planted,
      Ratio(static_cast<double>(gui_found), static_cast<double>(gui_planted)), tp, fp,
      Ratio(static_cast<double>(tp), static_cast<double>(tp + fp)));
  if (!ratios.empty())
    out += fmt::format(
        "activities fuzz reached against fastbot's at the same events: {:.2f} (geometric mean "
        "over {} apps of the ratios of medians)\n",
        GeoMean(ratios), ratios.size());
  return out;
}

std::string FormatMinimizeTable(const std::vector<BenchRun>& runs) {
  std::map<std::string, std::vector<const BenchBugTrace*>> by_app;
  size_t total = 0;
  for (const auto& r : runs)
    for (const auto& t : r.bug_traces) {
      by_app[r.app].push_back(&t);
      by_app["overall"].push_back(&t);
      ++total;
    }
  if (total == 0) return "";
  std::string out = fmt::format(
      "\nMinimised traces: every planted crash and ANR the runs found, shrunk by delta debugging "
      "(each candidate replayed until it reproduces every time). Lengths in actions; planner: "
      "the planner's shortest route to the same bug.\n{:<14}{:>5}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}"
      "{:>9}{:>7}{:>9}{:>9}\n",
      "app", "bugs", "before", "max", "after", "max", "planner", "ratio", "replays", "max",
      "reliable", "failed");
  auto row = [&](const std::string& app, const std::vector<const BenchBugTrace*>& traces) {
    std::vector<double> before, after, planner, ratio, replays;
    size_t verified = 0, failed = 0;
    for (const auto* t : traces) {
      if (!t->minimized) {
        ++failed;
        continue;
      }
      before.push_back(t->actions_before);
      after.push_back(t->actions_after);
      replays.push_back(t->replays);
      verified += t->verified;
      if (t->planner_actions && *t->planner_actions > 0) {
        planner.push_back(static_cast<double>(*t->planner_actions));
        ratio.push_back(t->actions_after / static_cast<double>(*t->planner_actions));
      }
    }
    const size_t done = traces.size() - failed;
    auto num = [](double x) {
      return x == std::floor(x) ? fmt::format("{:.0f}", x) : fmt::format("{:.1f}", x);
    };
    out += fmt::format(
        "{:<14}{:>5}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>9}{:>7}{:>9}{:>9}\n", app, traces.size(),
        num(Of(before).median), num(Of(before).max), num(Of(after).median), num(Of(after).max),
        planner.empty() ? "-" : num(Of(planner).median),
        ratio.empty() ? "-" : fmt::format("{:.2f}", Of(ratio).median), num(Of(replays).median),
        num(Of(replays).max),
        done ? fmt::format("{:.0f}%", 100.0 * verified / static_cast<double>(done)) : "-", failed);
  };
  for (const auto& [app, traces] : by_app)
    if (app != "overall") row(app, traces);
  row("overall", by_app["overall"]);
  out +=
      "planner: the shortest route the planner's search finds from a fresh start (`roam sim "
      "route`; '-' none within its limits); ratio: the median over the bugs that have one of "
      "minimised length / planner route; reliable: the minimised trace reproduced every time; "
      "failed: the recorded trace did not reproduce.\n";
  return out;
}

}  // namespace roam::run
