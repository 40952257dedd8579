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
    if (shot.ends_with("/after.png")) caption = "after it: what the failure left on the screen";
    std::error_code ec;
    bool exists = fs::exists(bug_dir / shot, ec);
    html +=
        fmt::format("<figure>{}<figcaption>{}</figcaption></figure>\n",
                    exists ? fmt::format("<img loading=\"lazy\" src=\"{}/{}\" alt=\"{}\">",
                                         HtmlEscape(rel), HtmlEscape(shot), HtmlEscape(caption))
                           : fmt::format("<p class=\"notice\">{} is missing</p>", HtmlEscape(shot)),
                    HtmlEscape(caption));
  }
  return html + "</div>\n";
}

std::string StepsList(const std::vector<TraceStep>& trace) {
  size_t first = trace.size() > kMaxStepsListed ? trace.size() - kMaxStepsListed : 0;
  std::string html;
  if (first > 0)
    html += fmt::format(
        "<p class=\"sub\">The last {} of {} steps (the whole trace is in the bug "
        "folder).</p>\n",
        kMaxStepsListed, trace.size());
  html += fmt::format("<ol start=\"{}\">\n", first + 1);
  for (size_t i = first; i < trace.size(); ++i) {
    std::string events;
    for (const std::string& e : trace[i].events) events += " → " + e;
    html += fmt::format("<li>{}{}</li>\n", HtmlEscape(StepSentence(trace[i])),
                        events.empty() ? "" : "<strong>" + HtmlEscape(events) + "</strong>");
  }
  return html + "</ol>\n";
}

std::string BugCard(const fs::path& run_dir, const FailureSummary& failure, bool simulator) {
  const std::string& rel = failure.bug_dir;
  const std::string& kind = failure.kind;
  const fs::path dir = run_dir / rel;
  JsonFile bug = rel.empty() ? JsonFile{} : ReadOptionalJson(dir / "bug.json");
  const bool known = failure.known;
  const std::string& planted = failure.bug_id;
  std::string html = fmt::format(
      "<details class=\"bug\" id=\"{}\"><summary><span class=\"badge {}\">{}</span>"
      "<span class=\"badge {}\">{}</span><code>{}</code> ×{}{}{}</summary>\n",
      HtmlEscape(rel.empty() ? failure.signature : rel), HtmlEscape(kind), HtmlEscape(kind),
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
  if (b.contains("minimized") && !Str(b["minimized"], "trace").empty())
    trace_name = Str(b["minimized"], "trace");
  std::vector<TraceStep> trace;
  if (!trace_name.empty()) {
    auto read = ReadTrace(dir / trace_name);
    if (read.ok()) {
      trace = std::move(*read);
    } else {
      html += fmt::format("<p class=\"notice\">{}</p>\n", HtmlEscape(read.status().message()));
    }
  }
  if (!trace.empty()) {
    html += fmt::format("<h3>Steps{}</h3>\n", trace_name == "trace.jsonl" ? "" : " (minimised)");
    html += StepsStrip(dir, rel, b, trace);
    html += StepsList(trace);
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

std::string FunctionalCard(const fs::path& run_dir, const FunctionalFinding& f, bool simulator) {
  const std::string& rel = f.bug_dir;
  const fs::path dir = run_dir / rel;
  const bool known = f.known;
  const std::string& planted = f.bug_id;
  std::string html = fmt::format(
      "<details class=\"bug\" id=\"{}\"><summary><span class=\"badge functional\">functional"
      "</span><span class=\"badge {}\">{}</span><code>{}</code> on {} ×{}{}</summary>\n",
      HtmlEscape(rel), known ? "known" : "new", known ? "known" : "new", HtmlEscape(f.id),
      HtmlEscape(ShortName(f.activity)), Count(f.count),
      simulator ? fmt::format(" <span class=\"badge\">planted: {}</span>",
                              HtmlEscape(planted.empty() ? "none (a false alarm)" : planted))
                : "");
  html += fmt::format("<p>{}</p>\n", HtmlEscape(f.explanation));
  JsonFile bug = ReadOptionalJson(dir / "bug.json");
  if (bug.present && bug.error.empty()) {
    if (auto tau = Strs(bug.value, "tau"); !tau.empty()) {
      std::string list;
      for (const auto& e : tau) list += (list.empty() ? "" : ", ") + e;
      html += fmt::format("<p>Inserted events (τ): {}</p>\n", HtmlEscape(list));
    }
  }
  html += "<div class=\"pair\">\n";
  for (const auto& [file, caption] : std::vector<std::pair<std::string, std::string>>{
           {"seed_before", "seed, before its steps"},
           {"seed_after", "seed, after them"},
           {"mutant_before", "mutant, before the same steps"},
           {"mutant_after", "mutant, after them"},
           {"stitched", "the function's steps as the Detector saw them (roam vision)"}}) {
    std::error_code ec;
    if (!fs::exists(dir / (file + ".png"), ec)) continue;
    const bool layout = fs::exists(dir / (file + ".xml"), ec);
    html += fmt::format(
        "<figure><img loading=\"lazy\" src=\"{0}/{1}.png\" alt=\"{2}\"><figcaption>{2}{3}"
        "</figcaption></figure>\n",
        HtmlEscape(rel), file, caption,
        layout ? fmt::format(" (<a href=\"{}/{}.xml\">layout</a>)", HtmlEscape(rel), file) : "");
  }
  html += "</div>\n";
  // After `roam minimize`: the steps to do by hand, as steps.txt lists them.
  if (auto steps = ReadFile(dir / "steps.txt"); steps.ok()) {
    const size_t from = steps->find("To reproduce by hand");
    const size_t to = steps->find("\nReplay: ");
    if (from != std::string::npos)
      html += fmt::format(
          "<h3>Steps (minimised)</h3>\n<pre>{}</pre>\n",
          HtmlEscape(steps->substr(
              from, to == std::string::npos || to < from ? std::string::npos : to - from)));
  }
  html += fmt::format("<p>Replay: <code>roam replay {}</code></p>\n",
                      HtmlEscape((fs::absolute(run_dir) / rel).lexically_normal().string()));
  return html + "</details>\n";
}

}  // namespace

std::string BugsSection(const fs::path& run_dir, const Summary& summary) {
  const bool simulator = summary.device.starts_with("sim");
  std::vector<const FailureSummary*> failures;
  for (const auto* list : {&summary.crashes, &summary.anrs})
    for (const auto& f : *list) failures.push_back(&f);
  const size_t functional = summary.functional ? summary.functional->size() : 0;
  size_t total = failures.size() + functional;
  std::string html = fmt::format("<section id=\"bugs\">\n<h2>Bugs ({})</h2>\n", total);
  if (total == 0) return html + "<p>No bug was found.</p>\n</section>\n";
  html +=
      "<div class=\"tools\"><input id=\"bug-filter\" type=\"search\" placeholder=\"Filter bugs "
      "by any text\"><button id=\"bug-toggle\" type=\"button\">Expand all</button></div>\n";
  std::stable_sort(failures.begin(), failures.end(),
                   [](const FailureSummary* a, const FailureSummary* b) {
                     return a->first_step < b->first_step;
                   });
  for (const FailureSummary* f : failures) html += BugCard(run_dir, *f, simulator);
  if (summary.functional)
    for (const auto& f : *summary.functional) html += FunctionalCard(run_dir, f, simulator);
  return html + "</section>\n";
}

}  // namespace roam::report::page
