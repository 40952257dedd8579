// report.html's screen view: the screens a run kept, their widgets and the actions between them.
#include <algorithm>
#include <map>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/files.h"
#include "gui/uiautomator.h"
#include "report/html.h"
#include "report/run_report_parts.h"

namespace roam::report::page {

namespace {

namespace fs = std::filesystem;

// Actions listed out of one screen, the most taken first.
constexpr size_t kMaxActionsListed = 12;

// The widgets a person can act on, a line each: class, text or description, id, what it takes.
std::string WidgetsList(const gui::Screen& screen) {
  std::string html = "<ol class=\"widgets\">\n";
  size_t listed = 0;
  for (const gui::Widget& w : screen.widgets) {
    const bool acts = w.clickable || w.long_clickable || w.checkable || w.scrollable || w.editable;
    const std::string& label = w.text.empty() ? w.content_desc : w.text;
    if (!acts && label.empty()) continue;
    std::vector<std::string> takes;
    if (w.clickable) takes.push_back("click");
    if (w.long_clickable) takes.push_back("long click");
    if (w.editable) takes.push_back("text");
    if (w.checkable) takes.push_back(w.checked ? "checked" : "unchecked");
    if (w.scrollable) takes.push_back("scroll");
    if (!w.enabled) takes.push_back("disabled");
    const size_t slash = w.resource_id.rfind('/');
    html += fmt::format(
        "<li><code>{}</code>{}{}{}</li>\n", HtmlEscape(ShortName(w.cls)),
        label.empty() ? "" : fmt::format(" “{}”", HtmlEscape(label)),
        w.resource_id.empty()
            ? ""
            : fmt::format(" <span class=\"sub\">id/{}</span>",
                          HtmlEscape(slash == std::string::npos ? w.resource_id
                                                                : w.resource_id.substr(slash + 1))),
        takes.empty() ? "" : fmt::format(" — {}", fmt::join(takes, ", ")));
    ++listed;
  }
  if (listed == 0) return "<p class=\"sub\">No widget to act on.</p>\n";
  return html + "</ol>\n";
}

}  // namespace

std::string ScreensSection(const fs::path& run_dir, const StateSteps& steps, size_t states) {
  // The kept screens, the most visited first.
  std::vector<std::string> kept(steps.kept.begin(), steps.kept.end());
  if (kept.empty()) return "";
  auto visits = [&](const std::string& s) {
    auto it = steps.visits.find(s);
    return it == steps.visits.end() ? int64_t{0} : it->second;
  };
  std::stable_sort(kept.begin(), kept.end(), [&](const std::string& a, const std::string& b) {
    return visits(a) > visits(b);
  });
  // The actions out of each state, with where they led.
  struct Out {
    std::string words, to;
    int64_t count = 0;
  };
  std::map<std::string, std::vector<Out>> outs;
  for (const auto& [from_to, by_words] : steps.edges)
    for (const auto& [words, count] : by_words)
      outs[from_to.first].push_back({words, from_to.second, count});

  std::string html = "<section id=\"screens\">\n<h2>Screens</h2>\n";
  html += fmt::format(
      "<p class=\"sub\">The first screen of {} of the {} states the run reached (as the device "
      "showed it), the most visited first. Open one to see it large, its widgets and the actions "
      "taken on it; an action's screen links to where it led.</p>\n",
      kept.size(), std::max(states, kept.size()));
  html += "<div class=\"screens\">\n";
  for (const std::string& state : kept) {
    const std::string activity = steps.activities.count(state) ? steps.activities.at(state) : "";
    html += fmt::format(
        "<details class=\"screen\" id=\"screen-{0}\"><summary title=\"state {0}\"><img "
        "loading=\"lazy\" src=\"screens/{0}.png\" alt=\"state {0}\"><span>{1}<br><span "
        "class=\"sub\">{2} action{3}</span></span></summary>\n",
        HtmlEscape(state), HtmlEscape(activity.empty() ? "(no activity)" : ShortName(activity)),
        Count(visits(state)), visits(state) == 1 ? "" : "s");
    html += fmt::format(
        "<p><a href=\"screens/{}.png\" target=\"_blank\">The screen at full size</a></p>\n",
        HtmlEscape(state));
    auto xml = ReadFile(run_dir / "screens" / (state + ".xml"));
    auto screen = xml.ok() ? gui::ParseDump(*xml) : Result<gui::Screen>(xml.status());
    html += "<h3>Widgets</h3>\n";
    html += screen.ok() ? WidgetsList(*screen)
                        : fmt::format("<p class=\"notice\">{}</p>\n",
                                      HtmlEscape(screen.status().message()));
    auto& out = outs[state];
    std::sort(out.begin(), out.end(), [](const Out& a, const Out& b) { return a.count > b.count; });
    if (!out.empty()) {
      html += "<h3>Actions taken here</h3>\n<ul class=\"actions\">\n";
      for (size_t i = 0; i < out.size() && i < kMaxActionsListed; ++i) {
        const Out& o = out[i];
        const std::string where =
            o.to == state ? "stayed on this screen"
            : steps.kept.count(o.to)
                ? fmt::format(
                      "<a href=\"#screen-{0}\"><img loading=\"lazy\" src=\"screens/{0}.png\" "
                      "alt=\"state {0}\"></a>",
                      HtmlEscape(o.to))
                : fmt::format("state {}", HtmlEscape(o.to));
        html += fmt::format("<li><code>{}</code> ×{} → {}</li>\n", HtmlEscape(o.words),
                            Count(o.count), where);
      }
      if (out.size() > kMaxActionsListed)
        html += fmt::format("<li class=\"sub\">and {} more</li>\n", out.size() - kMaxActionsListed);
      html += "</ul>\n";
    }
    html += "</details>\n";
  }
  return html + "</div>\n</section>\n";
}

}  // namespace roam::report::page
