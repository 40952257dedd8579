#include "report/run_report.h"

#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "base/files.h"
#include "test_paths.h"

namespace roam::report {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  ASSERT_TRUE(WriteFileAtomic(path, text).ok()) << path;
}

std::string Act(const std::string& activity, const std::string& text) {
  return JsonLine(
             {{"op", "act"},
              {"activity", activity},
              {"widget_text", text},
              {"action",
               {{"kind", "click"}, {"bounds", {0, 0, 10, 10}}, {"path", "0"}, {"widget", 1}}}}) +
         "\n";
}

// A finished run of a simulated app: a crash with screens and a minimised trace, an ANR without
// a folder, a functional report with its four layouts, three declared activities of which one
// was never reached, and a trace with a launch and two transitions.
fs::path MakeRun(const std::string& name) {
  fs::path dir = testing::TempDir(name);
  Write(
      dir / "config.json",
      JsonLine({{"app", "apps/notes.json"}, {"strategy", "random"}, {"seed", 7}, {"events", 300}}));
  json summary = {
      {"app", "apps/notes.json"},
      {"device", "sim:org.notes"},
      {"strategy", "random"},
      {"seed", 7},
      {"events", 300},
      {"wall_seconds", 1.5},
      {"stop_reason", "events"},
      {"activities_total", 3},
      {"activities_covered", {"org.notes.Main", "org.notes.Edit"}},
      {"activities_declared", {"org.notes.Main", "org.notes.Edit", "org.notes.Settings"}},
      {"units_total", 40},
      {"units_covered", 22},
      {"states", 9},
      {"relaunches", 4},
      {"crashes",
       {{{"kind", "crash"},
         {"signature", "java.lang.IllegalStateException@org.notes.Edit.save"},
         {"count", 2},
         {"first_step", 120},
         {"bug_dir", "bugs/B1"},
         {"bug_id", "save-crash"},
         {"message", "title <empty>"}}}},
      {"anrs",
       {{{"kind", "anr"},
         {"signature", "ANR@org.notes.Main.onClick"},
         {"count", 1},
         {"first_step", 200},
         {"bug_dir", ""},
         {"known", true}}}},
      {"functional",
       {{{"id", "F1"},
         {"activity", "org.notes.Main"},
         {"bug_dir", "bugs/F1"},
         {"count", 3},
         {"explanation", "the seed's delete removed 'B'; the mutant's removed 'A'"},
         {"bug_id", nullptr}}}}};
  Write(dir / "summary.json", summary.dump());
  std::string progress;
  for (int e = 0; e <= 300; e += 100)
    progress += JsonLine({{"events", e},
                          {"activities", 1 + e / 150},
                          {"units", e / 15},
                          {"states", e / 40},
                          {"crashes", e >= 200},
                          {"anrs", 0}}) +
                "\n";
  Write(dir / "progress.jsonl", progress);
  Write(dir / "trace.jsonl", JsonLine({{"op", "clear"}}) + "\n" + JsonLine({{"op", "launch"}}) +
                                 "\n" + Act("org.notes.Main", "New") +
                                 Act("org.notes.Edit", "Save") + Act("org.notes.Main", "New"));
  fs::path b1 = dir / "bugs/B1";
  Write(b1 / "bug.json", json{{"id", "B1"},
                              {"frames", {"org.notes.Edit.save(Edit.java:12)"}},
                              {"trace", "trace.jsonl"},
                              {"reproduced", true},
                              {"minimized", {{"trace", "trace.min.jsonl"}}},
                              {"screenshots", {"steps/002.png", "steps/003.png"}}}
                             .dump());
  Write(b1 / "trace.jsonl", JsonLine({{"op", "launch"}}) + "\n" + Act("org.notes.Main", "Old"));
  Write(b1 / "trace.min.jsonl", JsonLine({{"op", "launch"}}) + "\n" + Act("org.notes.Main", "New") +
                                    Act("org.notes.Edit", "Save"));
  Write(b1 / "steps/002.png", "png");
  Write(b1 / "steps/003.png", "png");
  fs::path f1 = dir / "bugs/F1";
  Write(f1 / "bug.json", json{{"id", "F1"}, {"tau", {"click \"A\""}}}.dump());
  for (const char* f : {"seed_before", "seed_after", "mutant_before", "mutant_after"}) {
    Write(f1 / (std::string(f) + ".png"), "png");
    Write(f1 / (std::string(f) + ".xml"), "<hierarchy/>");
  }
  return dir;
}

TEST(RunReport, ShowsEveryBugWithItsScreensStepsAndReplayCommand) {
  fs::path dir = MakeRun("run_report_bugs");
  ASSERT_TRUE(WriteRunReport(dir).ok());
  auto html = ReadFile(dir / "report.html");
  ASSERT_TRUE(html.ok());
  for (const char* section :
       {"id=\"figures\"", "id=\"coverage\"", "id=\"graph\"", "id=\"bugs\"", "id=\"config\""})
    EXPECT_NE(html->find(section), std::string::npos) << section;
  EXPECT_NE(html->find("java.lang.IllegalStateException@org.notes.Edit.save"), std::string::npos);
  EXPECT_NE(html->find("ANR@org.notes.Main.onClick"), std::string::npos);
  EXPECT_NE(html->find("planted: save-crash"), std::string::npos);
  EXPECT_NE(html->find("title &lt;empty&gt;"), std::string::npos);
  EXPECT_NE(html->find("Bugs (3)"), std::string::npos);
  // The minimised trace is the one shown, and the screens are captioned with its steps.
  EXPECT_NE(html->find("Steps (minimised)"), std::string::npos);
  EXPECT_NE(html->find("3. tap &quot;Save&quot; on Edit"), std::string::npos) << *html;
  EXPECT_EQ(html->find("&quot;Old&quot;"), std::string::npos);
  EXPECT_NE(html->find("roam replay " + (fs::absolute(dir) / "bugs/B1").string()),
            std::string::npos);
  // Every picture the page names is in the folder, and every screen of a bug is on the page.
  std::regex src("src=\"([^\"]+)\"");
  std::set<std::string> named;
  for (auto it = std::sregex_iterator(html->begin(), html->end(), src);
       it != std::sregex_iterator(); ++it) {
    named.insert((*it)[1]);
    EXPECT_TRUE(fs::exists(dir / (*it)[1].str())) << (*it)[1];
  }
  for (const char* expected : {"bugs/B1/steps/002.png", "bugs/B1/steps/003.png",
                               "bugs/F1/seed_before.png", "bugs/F1/mutant_after.png"})
    EXPECT_TRUE(named.count(expected)) << expected;
  EXPECT_NE(html->find("Inserted events (τ): click &quot;A&quot;"), std::string::npos);
  EXPECT_NE(html->find("planted: none (a false alarm)"), std::string::npos);
}

TEST(RunReport, TheGraphTellsVisitedFromUnvisitedActivities) {
  fs::path dir = MakeRun("run_report_graph");
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok());
  EXPECT_NE(html->find("2 activities reached, 1 of the 3 declared never (dashed)"),
            std::string::npos);
  size_t graph = html->find("<div class=\"graph\">");
  ASSERT_NE(graph, std::string::npos);
  for (const char* node : {">Main<", ">Edit<", ">Settings<", ">launch<"})
    EXPECT_NE(html->find(node, graph), std::string::npos) << node;
  EXPECT_NE(html->find("Main → Edit: taken 1 time\""), std::string::npos);
}

TEST(RunReport, ABusyGraphKeepsTheMostTakenArrowsAndOneIntoEveryActivity) {
  fs::path dir = MakeRun("run_report_busy_graph");
  // 16 activities, every ordered pair taken: 240 transitions; "A15" is entered only once.
  std::string trace = JsonLine({{"op", "launch"}}) + "\n";
  for (int round = 0; round < 3; ++round)
    for (int a = 0; a < 15; ++a)
      for (int b = 0; b < 15; ++b)
        if (a != b)
          trace +=
              Act("org.x.A" + std::to_string(a), "x") + Act("org.x.A" + std::to_string(b), "y");
  trace += Act("org.x.A15", "rare");
  Write(dir / "trace.jsonl", trace);
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok());
  EXPECT_NE(html->find("The 80 most taken of"), std::string::npos);
  size_t graph = html->find("<div class=\"graph\">");
  ASSERT_NE(graph, std::string::npos);
  size_t arrows = 0;
  for (size_t at = graph; (at = html->find("class=\"edge\"", at)) != std::string::npos; ++at)
    ++arrows;
  EXPECT_EQ(arrows, 80u);
  EXPECT_NE(html->find("→ A15: taken 1 time\""), std::string::npos)
      << "the rare way into A15 is kept";
}

TEST(RunReport, ARunThatWasKilledStillGetsAPage) {
  fs::path dir = MakeRun("run_report_killed");
  fs::remove(dir / "summary.json");
  // Half a line at the end of each file, as a kill mid-write leaves.
  auto progress = ReadFile(dir / "progress.jsonl");
  Write(dir / "progress.jsonl", *progress + "{\"events\": 40");
  auto trace = ReadFile(dir / "trace.jsonl");
  Write(dir / "trace.jsonl", *trace + "{\"op\":\"act\",\"activ");
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok()) << html.status().message();
  EXPECT_NE(html->find("This run did not finish: it wrote no summary.json"), std::string::npos);
  EXPECT_NE(html->find("1 lines of progress.jsonl could not be read"), std::string::npos);
  EXPECT_NE(html->find("<div class=\"value\">300</div>"), std::string::npos)
      << "the events come from the last whole sample";
  EXPECT_NE(html->find("<svg"), std::string::npos);
}

// Issue 62 item 5 (the header) and issue 61: a device run's page says its driver and where its
// coverage came from, and a link that did not work says so; a simulator's page says neither.
TEST(RunReport, TheHeaderNamesADevicesDriverAndCoverageSource) {
  fs::path dir = MakeRun("run_report_device_header");
  auto sim = RunReportHtml(dir);
  ASSERT_TRUE(sim.ok()) << sim.status().message();
  EXPECT_EQ(sim->find(" · driver "), std::string::npos);
  Write(dir / "config.json", JsonLine({{"app", "org.notes"},
                                       {"driver", "uia2"},
                                       {"coverage", "jacoco-file:/data/data/org.notes/files/c.ec"},
                                       {"coverage_working", false}}));
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok()) << html.status().message();
  EXPECT_NE(html->find(" · driver <strong>uia2</strong> · coverage "
                       "<code>jacoco-file:/data/data/org.notes/files/c.ec</code> (did not work)"),
            std::string::npos);
}

// Issue 62 item 5: the bugs come right after the figure cards, the first one open, and the cards
// of crashes, ANRs and functional reports link to the first of their kind.
TEST(RunReport, TheBugsComeFirstAndTheCardsLinkToThem) {
  fs::path dir = MakeRun("run_report_bugs_first");
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok()) << html.status().message();
  const size_t bugs = html->find("<section id=\"bugs\">");
  ASSERT_NE(bugs, std::string::npos);
  EXPECT_LT(html->find("<section id=\"figures\">"), bugs);
  for (const char* later : {"<section id=\"coverage\">", "<section id=\"graph\">"})
    EXPECT_GT(html->find(later), bugs) << later;
  EXPECT_NE(html->find("<a class=\"card\" href=\"#bugs/B1\"><div class=\"label\">Crashes</div>"),
            std::string::npos);
  EXPECT_NE(html->find("<a class=\"card\" href=\"#ANR@org.notes.Main.onClick\"><div "
                       "class=\"label\">ANRs</div>"),
            std::string::npos);
  EXPECT_NE(html->find("<a class=\"card\" href=\"#bugs/F1\"><div class=\"label\">Functional"),
            std::string::npos);
  for (const char* anchor :
       {"id=\"bugs/B1\"", "id=\"ANR@org.notes.Main.onClick\"", "id=\"bugs/F1\""})
    EXPECT_NE(html->find(anchor), std::string::npos) << anchor;
  EXPECT_NE(html->find("<details class=\"bug\" id=\"bugs/B1\" open>"), std::string::npos);
  EXPECT_EQ(html->find("<details class=\"bug\" id=\"bugs/F1\" open>"), std::string::npos);
  // A card of nothing links nowhere.
  Write(dir / "summary.json", json{{"app", "a"}, {"events", 5}}.dump());
  auto none = RunReportHtml(dir);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->find("<a class=\"card\""), std::string::npos);
}

// A bug `roam minimize` has not cut shows the command that does; a minimised one its steps.
TEST(RunReport, AnUnminimisedBugSaysHowToMinimiseIt) {
  fs::path dir = MakeRun("run_report_minimize_hint");
  const std::string b1 = (fs::absolute(dir) / "bugs/B1").lexically_normal().string();
  const std::string f1 = (fs::absolute(dir) / "bugs/F1").lexically_normal().string();
  auto minimised = RunReportHtml(dir);
  ASSERT_TRUE(minimised.ok());
  EXPECT_EQ(minimised->find("roam minimize " + b1), std::string::npos);
  EXPECT_NE(minimised->find("<h3>Steps (minimised)</h3>"), std::string::npos);

  Write(dir / "bugs/B1/bug.json",
        json{{"id", "B1"}, {"trace", "trace.jsonl"}, {"screenshots", {"steps/002.png"}}}.dump());
  Write(dir / "bugs/F1/bug.json", json{{"id", "F1"}, {"kind", "functional"}}.dump());
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok());
  EXPECT_NE(html->find("<code>roam minimize " + b1 + "</code>"), std::string::npos);
  EXPECT_NE(html->find("<code>roam minimize " + f1 + "</code>"), std::string::npos);
  EXPECT_EQ(html->find("<h3>Steps (minimised)</h3>"), std::string::npos);
  // The run's own steps in words are folded under a line that says how many.
  EXPECT_NE(html->find("<details class=\"steps\"><summary>All 2 steps in words</summary>"),
            std::string::npos);

  Write(dir / "bugs/F1/steps.txt", "F1 functional\n\nTo reproduce by hand (2 steps):\n  1. x\n");
  auto after = RunReportHtml(dir);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->find("roam minimize " + f1), std::string::npos);
  EXPECT_NE(after->find("To reproduce by hand (2 steps)"), std::string::npos);
}

// A property's violation (bugs/P<n>, listed with the functional reports) says what it is and,
// before `roam minimize` cut it, the command that does.
TEST(RunReport, APropertyBugSaysSoAndHowToMinimiseIt) {
  fs::path dir = MakeRun("run_report_property");
  fs::remove(dir / "bugs/F1/steps.txt");
  Write(dir / "bugs/F1/bug.json",
        json{{"id", "P1"}, {"kind", "property"}, {"name", "a row is shown once"}}.dump());
  const std::string f1 = (fs::absolute(dir) / "bugs/F1").lexically_normal().string();
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok());
  EXPECT_NE(html->find("<span class=\"badge functional\">property</span>"), std::string::npos);
  EXPECT_NE(html->find("<code>roam minimize " + f1 + "</code>"), std::string::npos);
}

// A 3,000-character typed string made a caption under a 170 px screen a column as tall as a
// page: it is cut, its whole text in a title attribute.
TEST(RunReport, ALongTypedStringIsCutUnderItsScreen) {
  fs::path dir = MakeRun("run_report_long_text");
  const std::string typed(3000, 'x');
  Write(dir / "bugs/B1/bug.json",
        json{{"id", "B1"}, {"trace", "trace.jsonl"}, {"screenshots", {"steps/002.png"}}}.dump());
  Write(dir / "bugs/B1/trace.jsonl", JsonLine({{"op", "launch"}}) + "\n" +
                                         JsonLine({{"op", "act"},
                                                   {"activity", "org.notes.Edit"},
                                                   {"action",
                                                    {{"kind", "input_text"},
                                                     {"text", typed},
                                                     {"bounds", {0, 0, 9, 9}},
                                                     {"path", "0"},
                                                     {"widget", 1}}}}) +
                                         "\n");
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok());
  const std::regex caption("<figcaption>(.*?)</figcaption>");
  size_t captions = 0;
  for (auto it = std::sregex_iterator(html->begin(), html->end(), caption);
       it != std::sregex_iterator(); ++it, ++captions) {
    const std::string text = std::regex_replace((*it)[1].str(), std::regex("<[^>]*>"), "");
    EXPECT_LT(text.size(), 120u) << text;
  }
  EXPECT_GT(captions, 0u);
  EXPECT_NE(html->find("<span title=\"2. type &quot;" + typed), std::string::npos)
      << "the whole text is in the caption's title";
  EXPECT_NE(html->find("xxx…</span></figcaption>"), std::string::npos);
}

// A screen opens large: every picture of a bug is a link to its PNG.
TEST(RunReport, EveryBugPictureOpensAtFullSize) {
  fs::path dir = MakeRun("run_report_full_size");
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok());
  for (const char* png :
       {"bugs/B1/steps/002.png", "bugs/F1/seed_before.png", "bugs/F1/mutant_after.png"})
    EXPECT_NE(
        html->find(fmt::format("<a class=\"shot\" href=\"{0}\" target=\"_blank\" "
                               "title=\"open at full size\"><img loading=\"lazy\" src=\"{0}\"",
                               png)),
        std::string::npos)
        << png;
}

// A dump of one screen (1080 x 1920) with a photo row: an ImageView "Photo of Cinema" at
// [108,480][540,960], and, when `with_photo` is false, without it.
std::string PhotoDump(bool with_photo) {
  std::string photo =
      with_photo
          ? "<node index=\"1\" text=\"\" resource-id=\"org.notes:id/photo\" "
            "class=\"android.widget.ImageView\" package=\"org.notes\" content-desc=\"Photo "
            "of Cinema\" clickable=\"true\" enabled=\"true\" bounds=\"[108,480][540,960]\" />"
          : "";
  return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
         "<node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" "
         "package=\"org.notes\" content-desc=\"\" enabled=\"true\" bounds=\"[0,0][1080,1920]\">"
         "<node index=\"0\" text=\"Diary\" resource-id=\"org.notes:id/title\" "
         "class=\"android.widget.TextView\" package=\"org.notes\" content-desc=\"\" "
         "enabled=\"true\" bounds=\"[0,0][1080,200]\" />" +
         photo + "</node></hierarchy>";
}

// Issue 62 item 5: the view a functional bug is about (diff.json's missing effect) is outlined
// over each screen that shows it: the seed removed the photo, the mutant did not.
TEST(RunReport, AFunctionalBugOutlinesTheViewTheMutantMissed) {
  fs::path dir = MakeRun("run_report_outline");
  const fs::path f1 = dir / "bugs/F1";
  Write(f1 / "seed_before.xml", PhotoDump(true));
  Write(f1 / "seed_after.xml", PhotoDump(false));
  Write(f1 / "mutant_before.xml", PhotoDump(true));
  Write(f1 / "mutant_after.xml", PhotoDump(true));
  auto plain = RunReportHtml(dir);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->find("class=\"mark\""), std::string::npos) << "no diff.json: nothing outlined";

  const json removed = {{"view", "android.widget.ImageView|org.notes:id/photo"},
                        {"content", "|Photo of Cinema|cEs"},
                        {"count", 1}};
  Write(f1 / "diff.json",
        json{{"missing",
              {{"removed", {removed}}, {"added", json::array()}, {"changed", json::array()}}}}
            .dump());
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok());
  // 108/1080 = 10%, 480/1920 = 25%, 432/1080 = 40%, 480/1920 = 25%.
  const std::string mark =
      "<span class=\"mark\" style=\"left:10.00%;top:25.00%;width:40.00%;height:25.00%\"";
  for (const char* shot : {"seed_before", "seed_after", "mutant_before", "mutant_after"}) {
    const size_t img = html->find(fmt::format("src=\"bugs/F1/{}.png\"", shot));
    ASSERT_NE(img, std::string::npos) << shot;
    const std::string figure = html->substr(img, html->find("</figure>", img) - img);
    EXPECT_EQ(figure.find(mark) != std::string::npos, std::string(shot) != "seed_after") << shot;
  }
  EXPECT_NE(html->find("Outlined in red: the views the seed's steps removed (or changed) and "
                       "the mutant's did not: ImageView photo “Photo of Cinema”"),
            std::string::npos);
}

// Issue 62 item 5: the fuzz page's figures as labelled rows in the order fuzzing works, with
// their units and what each means; a figure the page does not know is still shown.
TEST(RunReport, FuzzFiguresAreLabelledRowsInOrder) {
  fs::path dir = MakeRun("run_report_fuzz_figures");
  auto summary = ReadJsonFile(dir / "summary.json");
  ASSERT_TRUE(summary.ok());
  (*summary)["fuzz"] = {
      {"mutant_seconds", 0.08}, {"mutants_executed", 1595}, {"mutants_per_second", 4437.4},
      {"seeds", 621},           {"violations", 26},         {"ways", 506},
      {"zz_new_figure", 3}};
  Write(dir / "summary.json", summary->dump());
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok());
  const size_t section = html->find("<h2>What fuzzing did</h2>");
  ASSERT_NE(section, std::string::npos);
  size_t at = section;
  for (const char* row : {"<tr><th>Seeds run</th><td class=\"num\">621</td>",
                          "<tr><th>Seeds begun on a way</th><td class=\"num\">506</td>",
                          "<tr><th>Mutants run</th><td class=\"num\">1,595</td>",
                          "<tr><th>Time running mutants</th><td class=\"num\">0.08 s</td>",
                          "<tr><th>Mutants a second</th><td class=\"num\">4437.4</td>",
                          "<tr><th>Independent-view violations</th><td class=\"num\">26</td>",
                          "<tr><th>zz new figure</th><td class=\"num\">3</td>"}) {
    const size_t found = html->find(row, section);
    EXPECT_NE(found, std::string::npos) << row;
    EXPECT_GT(found, at) << row << " comes after the row before it";
    at = found;
  }
  EXPECT_EQ(html->find("<th>mutant seconds</th>"), std::string::npos);
}

// Issue 62 item 5: the states whose screen the run kept, drawn as a graph of those screens, an
// arrow an action; a screen links to its card in the screen view.
TEST(RunReport, TheStateGraphDrawsTheScreensAndTheActionsBetweenThem) {
  fs::path dir = MakeRun("run_report_states");
  for (const char* state : {"00000000000000a1", "00000000000000b2", "00000000000000c3"}) {
    Write(dir / "screens" / (std::string(state) + ".png"), "png");
    Write(dir / "screens" / (std::string(state) + ".xml"), "<hierarchy/>");
  }
  auto act = [](const std::string& state, const std::string& text) {
    return JsonLine(
               {{"op", "act"},
                {"activity", "org.notes.Main"},
                {"state", state},
                {"widget_text", text},
                {"action",
                 {{"kind", "click"}, {"bounds", {0, 0, 9, 9}}, {"path", "0"}, {"widget", 1}}}}) +
           "\n";
  };
  Write(dir / "trace.jsonl", JsonLine({{"op", "launch"}}) + "\n" + act("00000000000000a1", "Add") +
                                 act("00000000000000b2", "Save") + act("00000000000000a1", "Open") +
                                 act("00000000000000c3", "x"));
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok()) << html.status().message();
  const size_t section = html->find("<section id=\"states\">");
  ASSERT_NE(section, std::string::npos);
  const std::string graph = html->substr(section, html->find("</section>", section) - section);
  for (const char* state : {"00000000000000a1", "00000000000000b2", "00000000000000c3"}) {
    EXPECT_NE(graph.find(fmt::format("<a class=\"state\" href=\"#screen-{}\">", state)),
              std::string::npos)
        << state;
    EXPECT_NE(graph.find(fmt::format("<image href=\"screens/{}.png\"", state)), std::string::npos)
        << state;
  }
  size_t arrows = 0;
  for (size_t at = 0; (at = graph.find("<g class=\"arrow\">", at)) != std::string::npos; ++at)
    ++arrows;
  EXPECT_EQ(arrows, 3u) << graph;
  EXPECT_NE(graph.find(">click &quot;Add&quot;</text>"), std::string::npos) << graph;
  EXPECT_NE(graph.find("<title>Main → Main: click &quot;Add&quot; ×1</title>"), std::string::npos);
  // The screen view's card of a state opens it at full size.
  EXPECT_NE(html->find("<a href=\"screens/00000000000000a1.png\" target=\"_blank\">"),
            std::string::npos);
}

// At a few hundred states the graph draws the most visited and says how many it left out.
TEST(RunReport, ABigStateGraphDrawsTheMostVisitedAndSaysSo) {
  fs::path dir = MakeRun("run_report_many_states");
  std::string trace = JsonLine({{"op", "launch"}}) + "\n";
  for (int i = 0; i < 200; ++i) {
    const std::string state = fmt::format("{:016x}", i + 1);
    Write(dir / "screens" / (state + ".png"), "png");
    // State i is visited 200 - i times, so the first ones are the most visited.
    for (int k = 0; k < (i < 60 ? 3 : 1); ++k)
      trace += JsonLine({{"op", "act"},
                         {"activity", "org.notes.Main"},
                         {"state", state},
                         {"action", {{"kind", "back"}}}}) +
               "\n";
  }
  Write(dir / "trace.jsonl", trace);
  auto summary = ReadJsonFile(dir / "summary.json");
  (*summary)["states"] = 250;
  Write(dir / "summary.json", summary->dump());
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok()) << html.status().message();
  const size_t section = html->find("<section id=\"states\">");
  ASSERT_NE(section, std::string::npos);
  const std::string graph = html->substr(section, html->find("</section>", section) - section);
  EXPECT_NE(graph.find("The 60 most visited of the 250 states reached are drawn; 190 more are "
                       "not (the run kept the screens of 200)."),
            std::string::npos)
      << graph.substr(0, 800);
  size_t drawn = 0;
  for (size_t at = 0; (at = graph.find("<a class=\"state\"", at)) != std::string::npos; ++at)
    ++drawn;
  EXPECT_EQ(drawn, 60u);
  EXPECT_NE(graph.find("href=\"#screen-0000000000000001\""), std::string::npos);
  EXPECT_EQ(graph.find("href=\"#screen-00000000000000c8\""), std::string::npos);
}

TEST(RunReport, ADamagedBugFileIsNamedOnThePage) {
  fs::path dir = MakeRun("run_report_damaged");
  Write(dir / "bugs/B1/bug.json", "{\"id\": ");
  auto html = RunReportHtml(dir);
  ASSERT_TRUE(html.ok());
  EXPECT_NE(html->find("bugs/B1/bug.json"), std::string::npos);
  EXPECT_NE(html->find("class=\"notice\""), std::string::npos);
}

// Issue 44, row 3: a summary.json whose bug lists hold no objects still gets a page, which names
// the field that could not be read.
TEST(RunReport, BugListsOfTheWrongShapeAreLeftOut) {
  for (const char* lists : {"\"crashes\": [1]", "\"anrs\": [1]", "\"crashes\": [\"x\"]",
                            "\"functional\": [2, null]", "\"crashes\": 7"}) {
    fs::path dir = testing::TempDir("run_report_shapes");
    Write(dir / "summary.json", fmt::format("{{\"app\": \"a\", {}}}", lists));
    auto html = RunReportHtml(dir);
    ASSERT_TRUE(html.ok()) << lists << ": " << html.status().message();
    EXPECT_NE(html->find("No bug was found"), std::string::npos) << lists;
    EXPECT_NE(html->find("summary.json." + std::string(lists).substr(1, 4)), std::string::npos)
        << lists;
  }
}

TEST(RunReport, AFolderWithoutARunIsRefused) {
  fs::path dir = testing::TempDir("run_report_empty");
  auto html = RunReportHtml(dir);
  ASSERT_FALSE(html.ok());
  EXPECT_NE(html.status().message().find("not a run folder"), std::string::npos);
}

}  // namespace
}  // namespace roam::report
