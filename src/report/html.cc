#include "report/html.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/utf8.h"

namespace roam::report {

namespace {

constexpr const char* kPalette[] = {"#2f6db3", "#d9822b", "#2e9e5b", "#b3415e",
                                    "#7a5cc2", "#0f8c8c", "#8a6d1f", "#5b6b7f"};

// A round step for about `ticks` ticks up to `max` (1, 2 or 5 times a power of ten).
double NiceStep(double max, int ticks) {
  if (max <= 0) return 1;
  double raw = max / ticks;
  double power = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * power) return m * power;
  return 10 * power;
}

// 950, 12k, 1.5M: tick labels that fit.
std::string Short(double v) {
  if (std::fabs(v) >= 1e6) return fmt::format("{:g}M", v / 1e6);
  if (std::fabs(v) >= 1e4) return fmt::format("{:g}k", v / 1e3);
  return fmt::format("{:g}", v);
}

// Every point when there are few; else evenly spaced ones and the last.
std::vector<std::pair<double, double>> Thin(const std::vector<std::pair<double, double>>& points,
                                            size_t max_points) {
  if (max_points < 2 || points.size() <= max_points) return points;
  std::vector<std::pair<double, double>> out;
  double stride = static_cast<double>(points.size() - 1) / static_cast<double>(max_points - 1);
  for (size_t i = 0; i < max_points; ++i)
    out.push_back(points[static_cast<size_t>(std::llround(static_cast<double>(i) * stride))]);
  out.back() = points.back();
  return out;
}

constexpr const char* kStyle = R"css(
:root { --ink:#1d2733; --muted:#5d6b7a; --line:#d9e0e7; --bg:#f6f8fa; --card:#fff;
        --accent:#2f6db3; --bad:#b3261e; --warn:#a15c00; --ok:#2e7d32; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.45 "DejaVu Sans", system-ui, sans-serif; color:var(--ink);
       background:var(--bg); }
/* Long signatures, paths and JSON values wrap anywhere rather than widen the page. */
main { max-width:1120px; margin:0 auto; padding:16px; overflow-wrap:anywhere; }
h1 { font-size:1.45em; margin:.2em 0 .1em; word-break:break-word; }
h2 { font-size:1.15em; margin:1.6em 0 .5em; border-bottom:1px solid var(--line); padding-bottom:.2em; }
.sub { color:var(--muted); margin:0 0 .8em; }
.badge { display:inline-block; padding:1px 8px; border-radius:10px; font-size:.82em;
         background:#e8eef5; color:var(--ink); margin-right:4px; white-space:nowrap; }
.badge.crash, .badge.native_crash, .badge.new { background:#fbe3e1; color:var(--bad); }
.badge.anr { background:#fdf0d8; color:var(--warn); }
.badge.functional { background:#ece4f8; color:#5b3a96; }
.badge.known, .badge.ok { background:#e3f1e4; color:var(--ok); }
.notice { background:#fff6e0; border:1px solid #f0d49b; padding:8px 12px; border-radius:6px; }
.cards { display:grid; grid-template-columns:repeat(auto-fill,minmax(150px,1fr)); gap:10px; }
.card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:10px 12px; }
.card .label { color:var(--muted); font-size:.85em; }
.card .value { font-size:1.5em; font-weight:bold; }
.card .note { color:var(--muted); font-size:.8em; }
a.card { display:block; color:inherit; text-decoration:none; }
a.card .value { color:var(--accent); }
a.card:hover, a.card:focus { border-color:var(--accent); }
.charts { display:grid; grid-template-columns:repeat(auto-fill,minmax(340px,1fr)); gap:10px; }
.chart, .graph { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:6px; }
.chart svg { width:100%; height:auto; display:block; }
.graph { overflow:auto; }
.graph svg { max-width:100%; height:auto; display:block; margin:0 auto; }
details.bug { background:var(--card); border:1px solid var(--line); border-radius:8px;
              margin:8px 0; padding:6px 12px; }
details.bug > summary { cursor:pointer; list-style-position:outside; word-break:break-word; }
details.bug > summary code { font-size:.88em; }
.strip { display:flex; gap:10px; overflow-x:auto; padding:8px 0; }
.strip figure { margin:0; flex:0 0 auto; width:170px; }
.strip img, .pair img { width:100%; border:1px solid var(--line); border-radius:4px; background:#fff;
                       display:block; }
/* A picture opens at full size (a link to its PNG); a functional bug's view is outlined over it. */
.shot { position:relative; display:block; }
.shot .mark { position:absolute; border:2px solid #e0201b; border-radius:2px;
              box-shadow:0 0 0 1px #fff; pointer-events:none; }
.hint { font-size:.9em; }
details.steps > summary { cursor:pointer; color:var(--muted); }
.strip figcaption, .pair figcaption { font-size:.78em; color:var(--muted); }
.pair { display:grid; grid-template-columns:repeat(auto-fill,minmax(150px,1fr)); gap:10px; }
.pair figure { margin:0; }
pre { background:#f0f3f6; padding:8px; border-radius:6px; overflow-x:auto; font-size:.85em;
      white-space:pre-wrap; word-break:break-word; }
pre.table { white-space:pre; word-break:normal; font-size:.8em; }
table { border-collapse:collapse; font-size:.9em; }
td, th { border-bottom:1px solid var(--line); padding:3px 8px; text-align:left; vertical-align:top; }
td.num { text-align:right; white-space:nowrap; }
table.figures td.sub { margin:0; font-size:.92em; }
.tools { display:flex; gap:8px; flex-wrap:wrap; margin:.4em 0; }
.tools input { flex:1 1 200px; padding:5px 8px; border:1px solid var(--line); border-radius:6px; }
.tools button { padding:5px 10px; border:1px solid var(--line); border-radius:6px; background:#fff; }
.screens { display:grid; grid-template-columns:repeat(auto-fill,minmax(120px,1fr)); gap:10px;
           align-items:start; }
.screen { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:6px; }
.screen > summary { cursor:pointer; list-style:none; font-size:.8em; }
.screen > summary img { width:100%; border:1px solid var(--line); border-radius:4px; display:block;
                        margin-bottom:4px; }
.screen[open] { grid-column:1 / -1; }
.screen[open] > summary img { width:auto; max-width:100%; max-height:75vh; }
/* The state graph scrolls in its own box; the page does not scroll sideways. */
.states { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:6px;
          overflow:auto; max-height:85vh; }
.states svg { display:block; margin:0 auto; }
.states a:hover rect, .states a:focus rect { stroke:var(--accent); stroke-width:3; }
.screen h3 { font-size:.95em; margin:.6em 0 .2em; }
.widgets, .actions { font-size:.85em; margin:.2em 0; padding-left:1.6em; }
.actions img { width:48px; vertical-align:middle; border:1px solid var(--line); border-radius:3px; }
footer { color:var(--muted); font-size:.8em; margin:2em 0 1em; }
@media (max-width:600px) { main { padding:10px; } .strip figure { width:130px; } }
)css";

constexpr const char* kScript = R"js(
(function () {
  var filter = document.getElementById('bug-filter');
  var bugs = Array.prototype.slice.call(document.querySelectorAll('details.bug'));
  if (filter) {
    filter.addEventListener('input', function () {
      var q = filter.value.toLowerCase();
      bugs.forEach(function (b) {
        b.style.display = b.textContent.toLowerCase().indexOf(q) >= 0 ? '' : 'none';
      });
    });
  }
  var toggle = document.getElementById('bug-toggle');
  if (toggle) {
    toggle.addEventListener('click', function () {
      var open = !bugs.every(function (b) { return b.open; });
      bugs.forEach(function (b) { b.open = open; });
      toggle.textContent = open ? 'Collapse all' : 'Expand all';
    });
  }
  // A link to a screen of the screen view opens it.
  function openScreen() {
    var target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (target && target.classList.contains('screen')) target.open = true;
  }
  window.addEventListener('hashchange', openScreen);
  openScreen();
  document.body.setAttribute('data-ready', 'yes');
})();
)js";

}  // namespace

std::string HtmlEscape(std::string_view text) {
  std::string valid = ToValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (char c : valid) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Cut(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "…";
}

std::string ShortHtml(std::string_view text, size_t max) {
  if (text.size() <= max) return HtmlEscape(text);
  return fmt::format("<span title=\"{}\">{}</span>", HtmlEscape(text), HtmlEscape(Cut(text, max)));
}

std::string CardsHtml(const std::vector<Card>& cards) {
  std::string html = "<div class=\"cards\">\n";
  for (const Card& c : cards) {
    const std::string inside = fmt::format(
        "<div class=\"label\">{}</div><div class=\"value\">{}</div>{}", HtmlEscape(c.label),
        HtmlEscape(c.value),
        c.note.empty() ? "" : fmt::format("<div class=\"note\">{}</div>", HtmlEscape(c.note)));
    html += c.href.empty()
                ? fmt::format("<div class=\"card\">{}</div>\n", inside)
                : fmt::format("<a class=\"card\" href=\"{}\">{}</a>\n", HtmlEscape(c.href), inside);
  }
  return html + "</div>\n";
}

std::string LineChartSvg(const std::vector<ChartSeries>& series, const ChartOptions& options) {
  // A legend row under the axis when there is more than one line.
  const double legend = series.size() > 1 ? 22 : 0;
  const double kWidth = 560, kLeft = 60, kRight = 26, kTop = 30, kBottom = 40 + legend;
  const double kHeight = 250 + legend;
  double x_max = 0, y_max = options.y_max;
  bool any = false;
  for (const ChartSeries& s : series)
    for (const auto& [x, y] : s.points) {
      any = true;
      x_max = std::max(x_max, x);
      if (options.y_max <= 0) y_max = std::max(y_max, y);
    }
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" role=\"img\" "
      "aria-label=\"{}\"><title>{}</title>\n"
      "<text x=\"{}\" y=\"18\" font-size=\"15\" font-weight=\"bold\" fill=\"#1d2733\">{}</text>\n",
      kWidth, kHeight, HtmlEscape(options.title), HtmlEscape(options.title), kLeft,
      HtmlEscape(options.title));
  if (!any) {
    return svg + fmt::format(
                     "<text x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"#5d6b7a\">no samples "
                     "recorded</text></svg>\n",
                     kLeft, kHeight / 2);
  }
  const double x_step = NiceStep(x_max, 5);
  const double y_step =
      options.whole_numbers ? std::max(1.0, NiceStep(y_max, 4)) : NiceStep(y_max, 4);
  const double x_top = std::max(x_step, std::ceil(x_max / x_step) * x_step);
  const double y_top = std::max(y_step, std::ceil(y_max / y_step) * y_step);
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto px = [&](double x) { return kLeft + x / x_top * plot_w; };
  auto py = [&](double y) { return kTop + plot_h - y / y_top * plot_h; };
  for (double y = 0; y <= y_top + y_step / 2; y += y_step)
    svg += fmt::format(
        "<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e3e8ee\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"13\" text-anchor=\"end\" "
        "fill=\"#5d6b7a\">{}</text>\n",
        kLeft, kWidth - kRight, py(y), py(y), kLeft - 6, py(y) + 4, Short(y));
  for (double x = 0; x <= x_top + x_step / 2; x += x_step)
    svg += fmt::format(
        "<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#aab4bf\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"13\" text-anchor=\"middle\" "
        "fill=\"#5d6b7a\">{}</text>\n",
        px(x), px(x), kTop + plot_h, kTop + plot_h + 4, px(x), kTop + plot_h + 18, Short(x));
  svg += fmt::format(
      "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#5d6b7a\"/>"
      "<text x=\"{3:.1f}\" y=\"{4}\" font-size=\"13\" text-anchor=\"middle\" "
      "fill=\"#5d6b7a\">{5}</text>\n",
      kLeft, kWidth - kRight, kTop + plot_h, kLeft + plot_w / 2, kTop + plot_h + 34,
      HtmlEscape(options.x_label));
  double legend_x = kLeft;
  for (size_t i = 0; i < series.size(); ++i) {
    const char* colour = kPalette[i % std::size(kPalette)];
    if (legend > 0) {
      const double y = kHeight - 8;
      svg += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"14\" height=\"4\" fill=\"{}\"/>"
          "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"13\" fill=\"#1d2733\">{}</text>\n",
          legend_x, y - 5, colour, legend_x + 18, y, HtmlEscape(series[i].name));
      legend_x += 30 + 7.5 * static_cast<double>(series[i].name.size());
    }
    const auto points = Thin(series[i].points, options.max_points);
    if (points.empty()) continue;
    std::string path = fmt::format("M{:.1f} {:.1f}", px(points[0].first), py(points[0].second));
    for (size_t k = 1; k < points.size(); ++k)
      path += fmt::format("H{:.1f}V{:.1f}", px(points[k].first), py(points[k].second));
    svg += fmt::format(
        "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"><title>{}: {:g} at {:g} "
        "{}</title></path>\n",
        path, colour, HtmlEscape(series[i].name), points.back().second, points.back().first,
        HtmlEscape(options.x_label));
  }
  return svg + "</svg>\n";
}

std::string HtmlPage(const std::string& title, const std::string& body) {
  return fmt::format(
      "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<main>\n{}</main>\n"
      "<script>{}</script>\n</body>\n</html>\n",
      HtmlEscape(title), kStyle, body, kScript);
}

}  // namespace roam::report
