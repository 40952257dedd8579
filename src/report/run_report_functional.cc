// report.html's card of a functional report: the seed's and the mutant's screens side by side,
// the minimised steps or the command that makes them.
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "base/files.h"
#include "report/html.h"
#include "report/run_report_parts.h"

namespace roam::report::page {

using nlohmann::json;
namespace fs = std::filesystem;

std::string FunctionalCard(const fs::path& run_dir, const FunctionalFinding& f, bool simulator,
                           bool open) {
  const std::string& rel = f.bug_dir;
  const fs::path dir = run_dir / rel;
  const bool known = f.known;
  const std::string& planted = f.bug_id;
  std::string html = fmt::format(
      "<details class=\"bug\" id=\"{}\"{}><summary><span class=\"badge functional\">functional"
      "</span><span class=\"badge {}\">{}</span><code>{}</code> on {} ×{}{}</summary>\n",
      HtmlEscape(rel), open ? " open" : "", known ? "known" : "new", known ? "known" : "new",
      HtmlEscape(f.id), HtmlEscape(ShortName(f.activity)), Count(f.count),
      simulator ? fmt::format(" <span class=\"badge\">planted: {}</span>",
                              HtmlEscape(planted.empty() ? "none (a false alarm)" : planted))
                : "");
  html += fmt::format("<p>{}</p>\n", HtmlEscape(f.explanation));
  JsonFile bug = ReadOptionalJson(dir / "bug.json");
  const json& b = bug.value;
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
  } else if (Str(b, "kind") == "functional") {
    html += MinimizeHint(run_dir, rel);
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
    const std::string src = HtmlEscape(rel + "/" + file);
    html += fmt::format(
        "<figure><a class=\"shot\" href=\"{0}.png\" target=\"_blank\" title=\"open at full "
        "size\"><img loading=\"lazy\" src=\"{0}.png\" alt=\"{1}\"></a><figcaption>{1}{2}"
        "</figcaption></figure>\n",
        src, caption, layout ? fmt::format(" (<a href=\"{}.xml\">layout</a>)", src) : "");
  }
  html += "</div>\n";
  html += fmt::format("<p>Replay: <code>roam replay {}</code></p>\n",
                      HtmlEscape((fs::absolute(run_dir) / rel).lexically_normal().string()));
  return html + "</details>\n";
}

}  // namespace roam::report::page
