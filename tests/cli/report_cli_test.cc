// report.html as a person meets it: written by `roam explore`, `roam fuzz` and `roam bench`,
// written again by `roam report`, and opened in a real browser (Debian's headless Chromium,
// which setup.sh installs): the script runs without an error and every section is in the DOM.
#include <regex>

#include <gtest/gtest.h>

#include "base/files.h"
#include "test_paths.h"

namespace roam {
namespace {

namespace fs = std::filesystem;
using Ran = testing::CommandRun;
Ran Roam(const std::string& args) { return testing::RunRoam(args); }

// Headless Chromium's binary, or "" when none is installed.
std::string Browser() {
  for (const char* name : {"chromium-headless-shell", "chromium"}) {
    Ran r = testing::RunCommand(std::string("command -v ") + name);
    if (r.code == 0) return name;
  }
  return "";
}

struct Opened {
  std::string dom;  // the DOM after the page's script ran
  std::string log;  // the browser's console, where an uncaught error is reported
};

Opened OpenInBrowser(const std::string& browser, const fs::path& page) {
  fs::path log = page.parent_path() / "browser.log";
  Ran r = testing::RunCommand("timeout 120 " + browser +
                              " --no-sandbox --disable-gpu --enable-logging=stderr --v=0 "
                              "--dump-dom 'file://" +
                              fs::absolute(page).string() + "' 2>'" + log.string() + "'");
  EXPECT_EQ(r.code, 0) << "the browser failed";
  auto text = ReadFile(log);
  return {r.out, text.ok() ? *text : ""};
}

// The checks a page must pass in the browser: no error on the console, the script ran to its
// end (it marks <body data-ready="yes">), and `needles` are in the DOM.
void ExpectWorksInBrowser(const std::string& browser, const fs::path& page,
                          const std::vector<std::string>& needles) {
  Opened o = OpenInBrowser(browser, page);
  EXPECT_EQ(o.log.find("Uncaught"), std::string::npos) << o.log;
  EXPECT_NE(o.dom.find("data-ready=\"yes\""), std::string::npos) << "the script did not finish";
  for (const auto& n : needles) EXPECT_NE(o.dom.find(n), std::string::npos) << n;
}

TEST(ReportCli, TheBrowserCheckCatchesABrokenScript) {
  std::string browser = Browser();
  if (browser.empty()) GTEST_SKIP() << "no headless Chromium (setup.sh installs it)";
  fs::path dir = testing::TempDir("report_broken_script");
  ASSERT_TRUE(WriteFileAtomic(dir / "page.html",
                              "<!doctype html><body><script>notDefined(); "
                              "document.body.setAttribute('data-ready', 'yes');</script></body>")
                  .ok());
  Opened o = OpenInBrowser(browser, dir / "page.html");
  EXPECT_NE(o.log.find("Uncaught ReferenceError"), std::string::npos) << o.log;
  EXPECT_EQ(o.dom.find("data-ready=\"yes\""), std::string::npos);
}

TEST(ReportCli, ARunWithBugsOpensInABrowserWithEveryBugAndScreen) {
  fs::path out = testing::TempDir("report_explore");
  Ran r = Roam("explore -q --app " + (testing::SourceDir() / "apps/diary.json").string() +
               " --seed 4 --events 3000 --force --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("open " + (out / "report.html").string() + " in a browser"),
            std::string::npos)
      << r.out;
  auto page = ReadFile(out / "report.html");
  ASSERT_TRUE(page.ok()) << "explore writes report.html";
  auto summary = ReadJsonFile(out / "summary.json");
  ASSERT_TRUE(summary.ok());
  std::vector<std::string> needles = {"id=\"figures\"", "id=\"coverage\"", "id=\"graph\"",
                                      "id=\"bugs\"", "<svg"};
  size_t bugs = 0;
  for (const char* list : {"crashes", "anrs"})
    for (const auto& bug : (*summary)[list]) {
      ++bugs;
      std::string dir = bug["bug_dir"];
      needles.push_back("id=\"" + dir + "\"");
      // As the DOM serialises text: "<" of a signature ("save<onOptionsItemSelected") escaped.
      needles.push_back(
          std::regex_replace(bug["signature"].get<std::string>(), std::regex("<"), "&lt;"));
      // Every screen of the bug folder is on the page, and exists.
      auto record = ReadJsonFile(out / dir / "bug.json");
      ASSERT_TRUE(record.ok());
      ASSERT_FALSE((*record)["screenshots"].empty()) << dir;
      for (const auto& shot : (*record)["screenshots"]) {
        std::string src = dir + "/" + shot.get<std::string>();
        EXPECT_TRUE(fs::exists(out / src)) << src;
        EXPECT_NE(page->find("src=\"" + src + "\""), std::string::npos) << src;
      }
    }
  ASSERT_GE(bugs, 1u) << "diary's planted bugs are found in 3000 events";
  std::string browser = Browser();
  if (browser.empty()) GTEST_SKIP() << "no headless Chromium (setup.sh installs it)";
  ExpectWorksInBrowser(browser, out / "report.html", needles);
}

TEST(ReportCli, AKilledRunGetsAValidPageFromRoamReport) {
  fs::path out = testing::TempDir("report_killed");
  // Killed hard (no chance to write its summary or page) part way through a long run.
  Ran killed = testing::RunCommand(
      "timeout -s KILL 2 " + testing::RoamBinary() + " explore -q --app " +
      (testing::SourceDir() / "apps/diary.json").string() +
      " --events 100000000 --throttle 1 --force --out " + out.string() + " >/dev/null 2>&1");
  EXPECT_NE(killed.code, 0);
  ASSERT_TRUE(fs::exists(out / "progress.jsonl"));
  Ran r = Roam("report " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  auto page = ReadFile(out / "report.html");
  ASSERT_TRUE(page.ok());
  EXPECT_NE(page->find("This run did not finish"), std::string::npos);
  std::string browser = Browser();
  if (browser.empty()) GTEST_SKIP() << "no headless Chromium (setup.sh installs it)";
  ExpectWorksInBrowser(browser, out / "report.html", {"id=\"coverage\"", "did not finish"});
}

TEST(ReportCli, RoamReportRefusesAFolderWithoutARun) {
  fs::path out = testing::TempDir("report_nothing");
  Ran r = Roam("report " + out.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("not a run folder"), std::string::npos) << r.out;
}

TEST(ReportCli, FuzzReportsShowTheSeedAndMutantScreensSideBySide) {
  fs::path out = testing::TempDir("report_fuzz");
  Ran r = Roam("fuzz -q --app " + (testing::SourceDir() / "apps/diary.json").string() +
               " --seed 473208687 --events 30000 --force --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  auto summary = ReadJsonFile(out / "summary.json");
  ASSERT_TRUE(summary.ok());
  ASSERT_FALSE((*summary)["functional"].empty()) << r.out;
  auto page = ReadFile(out / "report.html");
  ASSERT_TRUE(page.ok());
  for (const auto& f : (*summary)["functional"]) {
    std::string dir = f["bug_dir"];
    for (const char* shot : {"seed_before", "seed_after", "mutant_before", "mutant_after"})
      EXPECT_NE(page->find("src=\"" + dir + "/" + shot + ".png\""), std::string::npos)
          << dir << " " << shot;
  }
  std::string browser = Browser();
  if (browser.empty()) GTEST_SKIP() << "no headless Chromium (setup.sh installs it)";
  ExpectWorksInBrowser(browser, out / "report.html", {"class=\"pair\"", "functional"});
}

TEST(ReportCli, TheBenchmarkWritesOnePageWithAChartPerApp) {
  fs::path out = testing::TempDir("report_bench");
  Ran r = Roam("bench -q --apps " + (testing::SourceDir() / "apps/diary.json").string() + " " +
               (testing::SourceDir() / "apps/bench/notes.json").string() +
               " --strategies random,fastbot --seeds 2 --events 400 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("report: " + (out / "report.html").string()), std::string::npos) << r.out;
  auto page = ReadFile(out / "report.html");
  ASSERT_TRUE(page.ok());
  for (const char* app : {"id=\"app-diary\"", "id=\"app-notes\""})
    EXPECT_NE(page->find(app), std::string::npos) << app;
  // A line per strategy in each app's charts, and a link to every run (its summary.json: bench
  // runs write no page of their own, `roam report` writes one).
  EXPECT_NE(page->find("<title>random: "), std::string::npos);
  EXPECT_NE(page->find("<title>fastbot: "), std::string::npos);
  std::regex link("href=\"([^\"]+summary\\.json)\"");
  size_t links = 0;
  for (auto it = std::sregex_iterator(page->begin(), page->end(), link);
       it != std::sregex_iterator(); ++it, ++links)
    EXPECT_TRUE(fs::exists(out / (*it)[1].str())) << (*it)[1];
  EXPECT_EQ(links, 8u);
  EXPECT_FALSE(fs::exists(out / "runs/diary/random/s1/report.html"));
  Ran one = Roam("report " + (out / "runs/diary/random/s1").string());
  EXPECT_EQ(one.code, 0) << one.out;
}

}  // namespace
}  // namespace roam
