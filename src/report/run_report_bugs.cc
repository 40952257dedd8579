#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "base/files.h"
#include "report/html.h"
#include "report/run_report_parts.h"
#include "report/trace.h"

namespace roam::report::page {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxStepsListed = 60;  // a bug's steps listed on the page (the last ones)
// Characters of a step's words under its screen, and in the list: a long typed string is cut
// (its whole text in a title attribute) rather than made a column as tall as the page.
constexpr size_t kMaxCaption = 80;
constexpr size_t kMaxListedStep = 240;

}  // namespace

std::string StepsStrip(const fs::path& bug_dir, const std::string& rel, const json& bug,
                       const std::vector<TraceStep>& trace) {
  std::vector<std::string> shots = Strs(bug, "screenshots");
  std::string html;
  if (shots.empty()) {
    std::string why = Str(bug, "screenshots_unavailable");
    if (!why.empty()) html += fmt::format("<p class=\"sub\">No screens: {}</p>\n", HtmlEscape(why));
    return html;
  }
  html += "<div class=\"strip\">\n";
  for (const std::string& shot : shots) {
    // steps/NNN.png is the screen before the trace's NNN-th step, its target outlined.
    std::string caption = shot;
    size_t slash = shot.rfind('/');
    int number = std::atoi(shot.c_str() + (slash == std::string::npos ? 0 : slash + 1));
    if (number >= 1 && static_cast<size_t>(number) <= trace.size())
      caption = fmt::format("{}. {}", number, StepSentence(trace[number - 1]));
    // A user's oracle's bug (a property's) begins with where its check began.
    const bool checked = !shots.empty() && shots.front().ends_with("/before.png");
    if (shot.ends_with("/before.png"))
      caption = "where the check began: the widgets it selects outlined";
    if (shot.ends_with("/after.png"))
      caption = checked ? "after it: the widgets the check selects outlined"
                        : "after it: what the failure left on the screen";
    std::error_code ec;
    const std::string src = HtmlEscape(rel + "/" + shot);
    html += fmt::format(
        "<figure>{}<figcaption>{}</figcaption></figure>\n",
        fs::exists(bug_dir / shot, ec)
            ? fmt::format("<a class=\"shot\" href=\"{0}\" target=\"_blank\" title=\"open at full "
                          "size\"><img loading=\"lazy\" src=\"{0}\" alt=\"{1}\"></a>",
                          src, HtmlEscape(Cut(caption, kMaxCaption)))
            : fmt::format("<p class=\"notice\">{} is missing</p>", HtmlEscape(shot)),
        ShortHtml(caption, kMaxCaption));
  }
  return html + "</div>\n";
}

namespace {

// The steps in words, the last kMaxStepsListed; folded away under a line that says how many
// (`folded`: a run's own trace, hundreds of steps long, below its screens).
std::string StepsList(const std::vector<TraceStep>& trace, bool folded) {
  size_t first = trace.size() > kMaxStepsListed ? trace.size() - kMaxStepsListed : 0;
  const std::string how_many =
      first > 0 ? fmt::format("The last {} of {} steps (the whole trace is in the bug folder)",
                              kMaxStepsListed, Count(trace.size()))
                : fmt::format("All {} steps", Count(trace.size()));
  std::string html =
      folded ? fmt::format("<details class=\"steps\"><summary>{} in words</summary>\n", how_many)
      : first > 0 ? fmt::format("<p class=\"sub\">{}.</p>\n", how_many)
                  : "";
  html += fmt::format("<ol start=\"{}\">\n", first + 1);
  for (size_t i = first; i < trace.size(); ++i) {
    std::string events;
    for (const std::string& e : trace[i].events) events += " → " + e;
    html += fmt::format("<li>{}{}</li>\n", ShortHtml(StepSentence(trace[i]), kMaxListedStep),
                        events.empty() ? "" : "<strong>" + HtmlEscape(events) + "</strong>");
  }
  return html + "</ol>\n" + (folded ? "</details>\n" : "");
}

std::string BugCard(const fs::path& run_dir, const FailureSummary& failure, bool simulator,
                    bool open) {
  const std::string& rel = failure.bug_dir;
  const std::string& kind = failure.kind;
  const fs::path dir = run_dir / rel;
  JsonFile bug = rel.empty() ? JsonFile{} : ReadOptionalJson(dir / "bug.json");
  const bool known = failure.known;
  const std::string& planted = failure.bug_id;
  std::string html = fmt::format(
      "<details class=\"bug\" id=\"{}\"{}><summary><span class=\"badge {}\">{}</span>"
      "<span class=\"badge {}\">{}</span><code>{}</code> ×{}{}{}</summary>\n",
      HtmlEscape(BugAnchor(failure)), open ? " open" : "", HtmlEscape(kind), HtmlEscape(kind),
      known ? "known" : "new", known ? "known" : "new", HtmlEscape(failure.signature),
      Count(failure.count), fmt::format(", first at step {}", Count(failure.first_step)),
      simulator ? fmt::format(" <span class=\"badge\">planted: {}</span>",
                              HtmlEscape(planted.empty() ? "none" : planted))
                : "");
  if (!rel.empty()) html += fmt::format("<p>Folder: <code>{}</code></p>\n", HtmlEscape(rel));
  if (!failure.message.empty()) html += fmt::format("<p>{}</p>\n", HtmlEscape(failure.message));
  if (!bug.error.empty())
    return html + fmt::format("<p class=\"notice\">{}</p></details>\n", HtmlEscape(bug.error));
  if (!bug.present) return html + "</details>\n";
  const json& b = bug.value;
  if (b.contains("reproduced") && b["reproduced"].is_boolean())
    html += b["reproduced"].get<bool>()
                ? "<p><span class=\"badge ok\">reproduced</span> on a fresh app before it was "
                  "written</p>\n"
                : "<p><span class=\"badge\">not reproduced</span> on a fresh app</p>\n";
  // The minimised trace when there is one: the screens were then taken of it.
  std::string trace_name = Str(b, "trace");
  const json& minimized = b.contains("minimized") ? b["minimized"] : json();
  const bool is_minimized = !Str(minimized, "trace").empty();
  if (is_minimized) trace_name = Str(minimized, "trace");
  std::vector<TraceStep> trace;
  if (!trace_name.empty()) {
    auto read = ReadTrace(dir / trace_name);
    if (read.ok()) {
      trace = std::move(*read);
    } else {
      html += fmt::format("<p class=\"notice\">{}</p>\n", HtmlEscape(read.status().message()));
    }
  }
  if (!trace.empty() && is_minimized) {
    html += "<h3>Steps (minimised)</h3>\n";
    if (auto before = Num(minimized, "steps_before"))
      html +=
          fmt::format("<p class=\"sub\">{} steps, cut from {} by <code>roam minimize</code>.</p>\n",
                      Count(trace.size()), Count(*before));
    html += StepsStrip(dir, rel, b, trace);
    html += StepsList(trace, /*folded=*/false);
  } else if (!trace.empty()) {
    html += "<h3>Steps</h3>\n" + MinimizeHint(run_dir, rel);
    html += StepsStrip(dir, rel, b, trace);
    html += StepsList(trace, /*folded=*/true);
  }
  if (auto frames = Strs(b, "frames"); !frames.empty()) {
    std::string stack;
    for (const auto& f : frames) stack += "at " + f + "\n";
    html += "<h3>Stack</h3>\n<pre>" + HtmlEscape(stack) + "</pre>\n";
  }
  html += fmt::format("<p>Replay: <code>roam replay {}</code></p>\n",
                      HtmlEscape((fs::absolute(run_dir) / rel).lexically_normal().string()));
  return html + "</details>\n";
}

}  // namespace

std::string MinimizeHint(const fs::path& run_dir, const std::string& rel) {
  return fmt::format(
      "<p class=\"hint\">Not minimised yet: <code>roam minimize {}</code> cuts it down to the few "
      "steps that cause it.</p>\n",
      HtmlEscape((fs::absolute(run_dir) / rel).lexically_normal().string()));
}

std::string BugsSection(const fs::path& run_dir, const Summary& summary) {
  const bool simulator = summary.device.starts_with("sim");
  std::vector<const FailureSummary*> failures;
  for (const auto* list : {&summary.crashes, &summary.anrs})
    for (const auto& f : *list) failures.push_back(&f);
  const size_t functional = summary.functional ? summary.functional->size() : 0;
  size_t total = failures.size() + functional;
  std::string html = fmt::format("<section id=\"bugs\">\n<h2>Bugs ({})</h2>\n", total);
  if (total == 0) return html + "<p>No bug was found.</p>\n</section>\n";
  if (total > 1)
    html +=
        "<div class=\"tools\"><input id=\"bug-filter\" type=\"search\" placeholder=\"Filter bugs "
        "by any text\" aria-label=\"Filter bugs\"><button id=\"bug-toggle\" type=\"button\">Expand "
        "all</button></div>\n";
  std::stable_sort(failures.begin(), failures.end(),
                   [](const FailureSummary* a, const FailureSummary* b) {
                     return a->first_step < b->first_step;
                   });
  // The first bug is open: a person opens the page for it.
  bool open = true;
  for (const FailureSummary* f : failures) {
    html += BugCard(run_dir, *f, simulator, open);
    open = false;
  }
  if (summary.functional)
    for (const auto& f : *summary.functional) {
      html += FunctionalCard(run_dir, f, simulator, open);
      open = false;
    }
  return html + "</section>\n";
}

}  // namespace roam::report::page
