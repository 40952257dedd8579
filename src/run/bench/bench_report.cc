// The benchmark's report.html (run/bench.h): the tables as the terminal shows them, and per app
// the median coverage over events of each strategy, read from every run's progress.jsonl, with
// a link to each run's page (or its summary.json when it has none: bench runs write no page).
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "base/files.h"
#include "report/html.h"
#include "report/run_report.h"
#include "run/bench/bench.h"

namespace roam::run {

namespace {

namespace fs = std::filesystem;
using report::ChartSeries;
using report::HtmlEscape;
using report::ProgressPoint;

// The median over runs of a figure at each sampled event count; a run that stopped earlier
// keeps its last value, a run with no sample yet at that count is left out.
ChartSeries MedianSeries(const std::string& name,
                         const std::vector<std::vector<ProgressPoint>>& runs,
                         std::optional<double> ProgressPoint::*field) {
  std::set<double> xs;
  for (const auto& run : runs)
    for (const auto& p : run)
      if (p.*field) xs.insert(p.events);
  ChartSeries series{name, {}};
  std::vector<size_t> at(runs.size(), 0);
  std::vector<std::optional<double>> last(runs.size());
  for (double x : xs) {
    std::vector<double> values;
    for (size_t r = 0; r < runs.size(); ++r) {
      while (at[r] < runs[r].size() && runs[r][at[r]].events <= x) {
        if (runs[r][at[r]].*field) last[r] = runs[r][at[r]].*field;
        ++at[r];
      }
      if (last[r]) values.push_back(*last[r]);
    }
    if (!values.empty()) series.points.emplace_back(x, Median(values));
  }
  return series;
}

}  // namespace

Status WriteBenchReport(const fs::path& out, const std::vector<BenchRun>& runs,
                        const std::vector<std::string>& strategies, const std::string& tables) {
  std::string body = "<h1>Roam benchmark</h1>\n";
  std::set<std::string> app_set;
  for (const auto& r : runs) app_set.insert(r.app);
  body += fmt::format(
      "<p class=\"sub\">{} runs: {} apps × {} strategies; the charts show the median over seeds "
      "of each strategy.</p>\n",
      runs.size(), app_set.size(), strategies.size());
  body +=
      "<p class=\"sub\">Each run is an ordinary run folder; <code>roam report DIR</code> writes "
      "its own page.</p>\n";
  body += "<section id=\"table\">\n<h2>Tables</h2>\n<pre class=\"table\">" + HtmlEscape(tables) +
          "</pre>\n";
  body += "</section>\n";
  for (const std::string& app : app_set) {
    std::vector<ChartSeries> activities, units;
    std::string links;
    size_t activities_total = 0, units_total = 0;
    for (const std::string& strategy : strategies) {
      std::vector<std::vector<ProgressPoint>> samples;
      for (const auto& r : runs) {
        if (r.app != app || r.strategy != strategy) continue;
        size_t bad = 0;
        samples.push_back(report::ReadProgressFile(fs::path(r.dir) / "progress.jsonl", bad));
        activities_total = std::max(activities_total, r.activities_total);
        units_total = std::max(units_total, r.units_total);
        // Runs write no page of their own here (`roam report DIR` writes one): link the
        // page if there is one, else the summary.
        std::error_code ec;
        fs::path page = fs::path(r.dir) / "report.html";
        if (!fs::exists(page, ec)) page = fs::path(r.dir) / "summary.json";
        links += fmt::format(" <a href=\"{}\">{} s{}</a>",
                             HtmlEscape(page.lexically_relative(out).string()),
                             HtmlEscape(strategy), r.seed);
      }
      if (samples.empty()) continue;
      activities.push_back(MedianSeries(strategy, samples, &ProgressPoint::activities));
      units.push_back(MedianSeries(strategy, samples, &ProgressPoint::units));
    }
    body += fmt::format(
        "<section class=\"app\" id=\"app-{0}\">\n<h2>{0}</h2>\n<div class=\"charts\">\n",
        HtmlEscape(app));
    body += "<div class=\"chart\">" +
            report::LineChartSvg(activities,
                                 {.title = fmt::format("Activities (of {})", activities_total),
                                  .y_max = static_cast<double>(activities_total)}) +
            "</div>\n";
    if (units_total > 0)
      body += "<div class=\"chart\">" +
              report::LineChartSvg(units, {.title = fmt::format("Code units (of {})", units_total),
                                           .y_max = static_cast<double>(units_total)}) +
              "</div>\n";
    body += "</div>\n";
    if (!links.empty()) body += "<p class=\"sub\">Runs:" + links + "</p>\n";
    body += "</section>\n";
  }
  body += fmt::format("<footer>Written by <code>roam bench</code> into <code>{}</code>.</footer>\n",
                      HtmlEscape(out.string()));
  return WriteFileAtomic(out / "report.html", report::HtmlPage("Roam benchmark", body));
}

}  // namespace roam::run
