// report/html: the pieces of Roam's HTML reports (a run's report.html, the benchmark's): text
// escaping, figure cards, line charts drawn as inline SVG, and the page around them with its
// style sheet and script. Pages are self-contained: no network, no CDN; pictures are referenced
// by relative paths. Stateless; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roam::report {

// `text` with &, <, >, " and ' escaped (for element text and attribute values). Bytes that are
// not UTF-8 become U+FFFD.
std::string HtmlEscape(std::string_view text);

// `text` cut to `max` bytes (never inside a character) with "…" when longer.
std::string Cut(std::string_view text, size_t max);
// `text` escaped for element text, cut to about `max` bytes (never inside a character) with "…"
// when longer, the whole of it then in a title attribute: a 5,000-character typed string would
// make a caption a column as tall as a page.
std::string ShortHtml(std::string_view text, size_t max);

// One figure card: a label, the figure and an optional line beneath it; with `href`, the card
// is a link (the Crashes card to the first crash).
struct Card {
  std::string label, value, note;
  std::string href;
};
std::string CardsHtml(const std::vector<Card>& cards);

struct ChartSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), x ascending
};

struct ChartOptions {
  std::string title;
  std::string x_label = "events";
  double y_max = 0;           // 0: the largest y of the series
  size_t max_points = 400;    // per series: more are thinned (the last point is kept)
  bool whole_numbers = true;  // counts: no tick between two whole numbers
};

// A line chart as an inline <svg> element with axes, ticks, a legend and one line per series
// (steps, as coverage only grows between samples). A chart with no points says so.
std::string LineChartSvg(const std::vector<ChartSeries>& series, const ChartOptions& options);

// A whole page: <!doctype html>, the style sheet, `body`, and the script (bug filter, expand
// all). When the script has run without an error it sets <body data-ready="yes">, which the
// browser test checks.
std::string HtmlPage(const std::string& title, const std::string& body);

}  // namespace roam::report
