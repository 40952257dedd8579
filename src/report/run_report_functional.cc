// report.html's card of a functional report: the seed's and the mutant's screens side by side,
// the views the mutant missed outlined over them (from diff.json, matched in each screen's dump
// as the independent-view check reads views), the minimised steps or the command that makes them.
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "base/files.h"
#include "fuzz/view_bag.h"
#include "fuzz/views.h"
#include "gui/uiautomator.h"
#include "report/html.h"
#include "report/run_report_parts.h"

namespace roam::report::page {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A view diff.json names: its ViewKey and what it shows, as the independent-view check compared
// them.
struct MissedView {
  std::string key, content;
  bool removed = false;  // the seed removed it and the mutant did not; else the seed added it
};

// The views of diff.json's "missing" effect: what the seed's steps did that the mutant's did not.
// Numbers the seed changed count as removed (the mutant still shows the old one).
std::vector<MissedView> MissedViews(const json& diff) {
  std::vector<MissedView> out;
  const json missing = diff.is_object() ? diff.value("missing", json()) : json();
  for (const auto& [side, removed] :
       {std::pair{"removed", true}, std::pair{"changed", true}, std::pair{"added", false}}) {
    if (!missing.is_object() || !missing.contains(side) || !missing[side].is_array()) continue;
    for (const json& v : missing[side])
      if (!Str(v, "view").empty()) out.push_back({Str(v, "view"), Str(v, "content"), removed});
  }
  return out;
}

// A view in words: `ImageView entry_photo “Photo of Cinema”`.
std::string ViewWords(const MissedView& v) {
  const size_t bar = v.key.find('|');
  std::string words = ShortName(v.key.substr(0, bar));
  if (bar != std::string::npos) {
    std::string id = v.key.substr(bar + 1);
    if (const size_t at = id.rfind('/'); at != std::string::npos) id = id.substr(at + 1);
    if (!id.empty() && !id.starts_with('|')) words += " " + id;
  }
  // content: "[row]text|content-desc|flags", digits masked.
  std::string_view content = v.content;
  if (content.starts_with('[')) content.remove_prefix(content.find(']') + 1);
  const size_t bar1 = content.find('|');
  std::string_view text = content.substr(0, bar1);
  if (text.empty() && bar1 != std::string_view::npos) {
    text = content.substr(bar1 + 1);
    text = text.substr(0, text.find('|'));
  }
  if (!text.empty()) words += fmt::format(" “{}”", text);
  return words;
}

// Frames over the picture of `dump` (its screen's coordinates, as percentages of its size, so
// they fit the picture at any width) around each widget that is one of `missed`.
std::string Outlines(const std::string& dump, const std::vector<MissedView>& missed) {
  auto screen = gui::ParseDump(dump);
  if (!screen.ok() || screen->width <= 0 || screen->height <= 0) return "";
  const fuzz::Groups groups = fuzz::FindGroups(*screen);
  std::string html;
  for (int i = 0; i < static_cast<int>(screen->widgets.size()); ++i) {
    const fuzz::View view = fuzz::ViewOf(*screen, groups, i);
    for (const MissedView& m : missed) {
      if (view.key() != m.key || view.content() != m.content) continue;
      const gui::Rect& b = screen->widgets[i].bounds;
      const double w = screen->width, h = screen->height;
      html += fmt::format(
          "<span class=\"mark\" style=\"left:{:.2f}%;top:{:.2f}%;width:{:.2f}%;height:{:.2f}%\" "
          "title=\"{}\"></span>",
          100 * b.left / w, 100 * b.top / h, 100 * b.width() / w, 100 * b.height() / h,
          HtmlEscape(fmt::format("{} ({} by the seed, not by the mutant)", ViewWords(m),
                                 m.removed ? "removed" : "added")));
      break;
    }
  }
  return html;
}

// What is outlined, in words: "removed by the seed's steps but not by the mutant's: ...".
std::string OutlineLegend(const std::vector<MissedView>& missed) {
  std::string removed, added;
  for (const MissedView& m : missed) {
    std::string& list = m.removed ? removed : added;
    list += (list.empty() ? "" : ", ") + ViewWords(m);
  }
  std::string html = "<p class=\"sub\">Outlined in red: the views ";
  if (!removed.empty())
    html +=
        "the seed's steps removed (or changed) and the mutant's did not: " + HtmlEscape(removed);
  if (!removed.empty() && !added.empty()) html += "; and those ";
  if (!added.empty())
    html += "the seed's steps added and the mutant's did not: " + HtmlEscape(added);
  return html + ".</p>\n";
}

}  // namespace

std::string FunctionalCard(const fs::path& run_dir, const FunctionalFinding& f, bool simulator,
                           bool open) {
  const std::string& rel = f.bug_dir;
  const fs::path dir = run_dir / rel;
  const bool known = f.known;
  const std::string& planted = f.bug_id;
  JsonFile bug = ReadOptionalJson(dir / "bug.json");
  const json& b = bug.value;
  // Genie's reports and VisionDroid's say "functional"; a property's violation says so.
  const bool property = bug.present && bug.error.empty() && Str(b, "kind") == "property";
  std::string html = fmt::format(
      "<details class=\"bug\" id=\"{}\"{}><summary><span class=\"badge functional\">{}"
      "</span><span class=\"badge {}\">{}</span><code>{}</code> on {} ×{}{}</summary>\n",
      HtmlEscape(rel), open ? " open" : "", property ? "property" : "functional",
      known ? "known" : "new", known ? "known" : "new", HtmlEscape(f.id),
      HtmlEscape(ShortName(f.activity)), Count(f.count),
      simulator ? fmt::format(" <span class=\"badge\">planted: {}</span>",
                              HtmlEscape(planted.empty() ? "none (a false alarm)" : planted))
                : "");
  html += fmt::format("<p>{}</p>\n", HtmlEscape(f.explanation));
  if (property) {  // its screens were taken of trace.jsonl when it was filed
    auto trace = ReadTrace(dir / "trace.jsonl");
    html += StepsStrip(dir, rel, b, trace.ok() ? *trace : std::vector<TraceStep>{});
  }
  if (bug.present && bug.error.empty()) {
    if (auto tau = Strs(b, "tau"); !tau.empty()) {
      std::string list;
      for (const auto& e : tau) list += (list.empty() ? "" : ", ") + e;
      html += fmt::format("<p>Inserted events (τ): {}</p>\n", HtmlEscape(list));
    }
  }
  // After `roam minimize`: the steps to do by hand, as steps.txt lists them; before it, the
  // command (a fuzzing report's; VisionDroid's are not minimised).
  if (auto steps = ReadFile(dir / "steps.txt"); steps.ok()) {
    const size_t from = steps->find("To reproduce by hand");
    const size_t to = steps->find("\nReplay: ");
    if (from != std::string::npos)
      html += fmt::format(
          "<h3>Steps (minimised)</h3>\n<pre>{}</pre>\n",
          HtmlEscape(steps->substr(
              from, to == std::string::npos || to < from ? std::string::npos : to - from)));
  } else if (Str(b, "kind") == "functional" || property) {
    html += MinimizeHint(run_dir, rel);
  }
  const JsonFile diff = ReadOptionalJson(dir / "diff.json");
  const std::vector<MissedView> missed = MissedViews(diff.value);
  if (!missed.empty()) html += OutlineLegend(missed);
  html += "<div class=\"pair\">\n";
  for (const auto& [file, caption] : std::vector<std::pair<std::string, std::string>>{
           {"seed_before", "seed, before its steps"},
           {"seed_after", "seed, after them"},
           {"mutant_before", "mutant, before the same steps"},
           {"mutant_after", "mutant, after them"},
           {"stitched", "the function's steps as the Detector saw them (roam vision)"}}) {
    std::error_code ec;
    if (!fs::exists(dir / (file + ".png"), ec)) continue;
    auto dump = ReadFile(dir / (file + ".xml"));
    const std::string src = HtmlEscape(rel + "/" + file);
    html += fmt::format(
        "<figure><a class=\"shot\" href=\"{0}.png\" target=\"_blank\" title=\"open at full "
        "size\"><img loading=\"lazy\" src=\"{0}.png\" alt=\"{1}\">{2}</a><figcaption>{1}{3}"
        "</figcaption></figure>\n",
        src, caption, dump.ok() && !missed.empty() ? Outlines(*dump, missed) : "",
        dump.ok() ? fmt::format(" (<a href=\"{}.xml\">layout</a>)", src) : "");
  }
  html += "</div>\n";
  html += fmt::format("<p>Replay: <code>roam replay {}</code></p>\n",
                      HtmlEscape((fs::absolute(run_dir) / rel).lexically_normal().string()));
  return html + "</details>\n";
}

}  // namespace roam::report::page
