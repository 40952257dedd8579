// The harness end to end on bench apps, read back from trace.jsonl: black-listed widgets are
// never touched in a long random run (while a run without the list touches each of them),
// a white list keeps the run to its widgets, a black-listed activity is backed out of, typed
// texts follow the mix, and the shop's login script gets runs past the login wall that random
// alone never passes.
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "base/files.h"
#include "explore/text_input.h"
#include "run/bench/bench.h"
#include "run/explore/explore.h"
#include "test_paths.h"

namespace roam::run {
namespace {

using nlohmann::json;

std::filesystem::path Bench(const std::string& app) {
  return testing::SourceDir() / "apps/bench" / (app + ".json");
}

ExploreOptions Options(const std::string& app, const std::string& name, uint64_t seed,
                       int64_t events) {
  ExploreOptions o;
  o.target.app = Bench(app);
  o.seed = seed;
  o.out = testing::TempDir(name);
  o.budget.events = events;
  o.strategy_settings.random.pct_rotate = 0;  // a fixed 1080x1920 screen for the rectangle
  return o;
}

std::filesystem::path WriteJson(const std::string& name, const json& j) {
  auto path = testing::TempDir("harness_cfg_" + name) / (name + ".json");
  std::ofstream(path) << j.dump(2);
  return path;
}

// The "act" lines of a run's trace.
std::vector<json> Acts(const std::filesystem::path& out) {
  std::vector<json> acts;
  std::ifstream in(out / "trace.jsonl");
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line);
    if (j.value("op", "") == "act") acts.push_back(std::move(j));
  }
  return acts;
}

bool IsWidgetAct(const json& a) { return a["action"].contains("widget"); }
std::string Field(const json& a, const char* key) { return a.value(key, ""); }
bool EndsWith(const std::string& s, const std::string& tail) { return s.ends_with(tail); }

// How often the run touched each of the four black-listed things of the notes app.
std::map<std::string, int> Touches(const std::vector<json>& acts) {
  std::map<std::string, int> n;
  for (const auto& a : acts) {
    if (!IsWidgetAct(a)) continue;
    n["resource_id nav_more"] += EndsWith(Field(a, "resource_id"), ":id/nav_more");
    n["text Licenses"] += Field(a, "widget_text") == "Licenses";
    n["path More options"] += Field(a, "widget_text") == "More options";
    const auto& b = a["action"]["bounds"];
    double cy = (b[1].get<int>() + b[3].get<int>()) / 2 / 1920.0;
    n["rect bottom fifth"] += cy >= 0.8;
  }
  return n;
}

TEST(HarnessRun, BlacklistedWidgetsAreNeverTouched) {
  json filters = {{"widgets",
                   {{"black",
                     {{{"resource_id", "nav_more"}},
                      {{"text", "Licenses"}},
                      {{"path", "//*[@content-desc='More options']"}},
                      {{"rect", {0, 0.8, 1, 1}}}}}}}};
  auto filters_path = WriteJson("black", filters);
  for (uint64_t seed : {1, 2}) {
    ExploreOptions plain = Options("notes", "black_plain", seed, 3000);
    ASSERT_TRUE(Explore(plain).ok());
    for (const auto& [what, n] : Touches(Acts(plain.out)))
      EXPECT_GT(n, 0) << what << ": the run without the list must touch it, seed " << seed;

    ExploreOptions o = Options("notes", "black", seed, 3000);
    o.harness.filters_file = filters_path;
    auto s = Explore(o);
    ASSERT_TRUE(s.ok()) << s.status().message();
    auto acts = Acts(o.out);
    ASSERT_EQ(acts.size(), 3000u);
    for (const auto& [what, n] : Touches(acts)) EXPECT_EQ(n, 0) << what << ", seed " << seed;
    EXPECT_GE(s->activities_covered.size(), 4u);  // the run still explores
    auto stats = ReadJsonFile(o.out / "harness.json");
    ASSERT_TRUE(stats.ok());
    EXPECT_GT((*stats)["actions_removed"].get<int>(), 0);
    auto config = ReadJsonFile(o.out / "config.json");
    EXPECT_EQ((*config)["harness"]["filters"], filters_path.string());
  }
}

TEST(HarnessRun, WhitelistKeepsWidgetActionsToTheListedWidgets) {
  json filters = {
      {"widgets",
       {{"white", {{{"path", "//*[starts-with(@resource-id, 'net.gsantner.markor:id/nav_')]"}}}}}}};
  ExploreOptions o = Options("notes", "white", 3, 1500);
  o.harness.filters_file = WriteJson("white", filters);
  ASSERT_TRUE(Explore(o).ok());
  int widget_acts = 0;
  for (const auto& a : Acts(o.out)) {
    if (!IsWidgetAct(a)) continue;
    ++widget_acts;
    EXPECT_NE(Field(a, "resource_id").find(":id/nav_"), std::string::npos) << a.dump();
  }
  EXPECT_GT(widget_acts, 300);
}

TEST(HarnessRun, ABlacklistedActivityIsBackedOutOf) {
  const std::string about = "net.gsantner.markor.activity.AboutActivity";
  ExploreOptions plain = Options("notes", "act_plain", 4, 2000);
  ASSERT_TRUE(Explore(plain).ok());
  int plain_widget_acts = 0;
  for (const auto& a : Acts(plain.out))
    plain_widget_acts += Field(a, "activity") == about && IsWidgetAct(a);
  ASSERT_GT(plain_widget_acts, 0) << "random must reach and use the About page without the list";

  ExploreOptions o = Options("notes", "act_black", 4, 2000);
  o.harness.filters_file = WriteJson("act", {{"activities", {{"black", {"AboutActivity"}}}}});
  ASSERT_TRUE(Explore(o).ok());
  int on_about = 0;
  for (const auto& a : Acts(o.out)) {
    if (Field(a, "activity") != about) continue;
    ++on_about;
    std::string kind = a["action"]["kind"];
    EXPECT_TRUE(kind == "back" || kind == "restart") << a.dump();
  }
  EXPECT_GT(on_about, 0);
  auto stats = ReadJsonFile(o.out / "harness.json");
  EXPECT_EQ((*stats)["activity_backs"].get<int>() + (*stats)["activity_restarts"].get<int>(),
            on_about);
}

TEST(HarnessRun, TypedTextsFollowTheMix) {
  auto strings = testing::TempDir("harness_strings") / "words.txt";
  std::ofstream(strings) << "user-alpha\nuser-beta\n";
  ExploreOptions o = Options("shop", "text", 6, 1500);
  o.strategy_settings.random.pct_input = 60;
  o.harness.strings_file = strings;
  o.harness.mix.pct_user = 50;
  o.harness.mix.pct_seen = 25;
  o.harness.mix.pct_awkward = 25;
  o.harness.mix.pct_plain = 0;
  ASSERT_TRUE(Explore(o).ok());
  const auto& awkward = explore::AwkwardStrings();
  int inputs = 0, user = 0, awkward_only = 0, seen = 0;
  for (const auto& a : Acts(o.out)) {
    if (a["action"]["kind"] != "input_text") continue;
    ++inputs;
    std::string text = a["action"].value("text", "");
    user += text == "user-alpha" || text == "user-beta";
    awkward_only += std::count(awkward.begin(), awkward.end(), text) > 0;
    // Labels of the login and registration pages.
    seen += text == "Sign in" || text == "Forgot password?" || text == "Create an account" ||
            text == "OpenShop";
  }
  ASSERT_GT(inputs, 400);
  EXPECT_NEAR(user / double(inputs), 0.50, 0.07);
  EXPECT_NEAR(awkward_only / double(inputs), 0.25, 0.07);
  EXPECT_GT(seen, 0);
  auto stats = ReadJsonFile(o.out / "harness.json");
  EXPECT_EQ((*stats)["texts_replaced"].get<int>(), inputs);
  EXPECT_EQ((*stats)["texts_by_source"]["plain"], 0);
  EXPECT_EQ((*stats)["texts_by_source"]["user"].get<int>(), user);
}

TEST(HarnessRun, SameSeedSameRun) {
  std::string traces[2];
  for (int i = 0; i < 2; ++i) {
    ExploreOptions o = Options("shop", "same" + std::to_string(i), 9, 600);
    o.harness.text_input = true;
    o.harness.actions_file = testing::SourceDir() / "apps/bench/config/shop.actions.json";
    o.harness.filters_file =
        WriteJson("same", {{"widgets", {{"black", {{{"text", "Sign out"}}}}}}});
    ASSERT_TRUE(Explore(o).ok());
    traces[i] = *ReadFile(o.out / "trace.jsonl");
  }
  EXPECT_EQ(traces[0], traces[1]);
}

// Activities behind the shop's login wall: anything but the login and registration pages.
size_t BehindTheWall(const report::Summary& s) {
  size_t n = 0;
  for (const auto& a : s.activities_covered)
    n += a.find("LoginActivity") == std::string::npos &&
         a.find("RegisterActivity") == std::string::npos;
  return n;
}

TEST(HarnessRun, TheLoginScriptGetsPastTheShopsLoginWall) {
  for (uint64_t seed : {1, 2, 3}) {
    ExploreOptions plain = Options("shop", "wall_plain", seed, 800);
    auto p = Explore(plain);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(BehindTheWall(*p), 0u) << "seed " << seed;

    ExploreOptions o = Options("shop", "wall_script", seed, 800);
    o.harness.actions_file = testing::SourceDir() / "apps/bench/config/shop.actions.json";
    auto s = Explore(o);
    ASSERT_TRUE(s.ok()) << s.status().message();
    EXPECT_GE(BehindTheWall(*s), 3u) << "seed " << seed;
    EXPECT_NE(std::find(s->activities_covered.begin(), s->activities_covered.end(),
                        "bf.io.openshop.ux.MainActivity"),
              s->activities_covered.end());
    auto stats = ReadJsonFile(o.out / "harness.json");
    EXPECT_GE((*stats)["scripts_completed"].get<int>(), 1);
  }
}

TEST(HarnessRun, TimeTravelUnderTheHarnessStillRestores) {
  ExploreOptions o = Options("shop", "wall_timetravel", 1, 1500);
  o.strategy = "timetravel:random";
  o.harness.actions_file = testing::SourceDir() / "apps/bench/config/shop.actions.json";
  auto s = Explore(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_GT(s->restores, 0u);
  EXPECT_GE(BehindTheWall(*s), 3u);
}

TEST(HarnessRun, BenchRunsUseTheHarness) {
  BenchOptions b;
  b.apps = {Bench("shop")};
  b.strategies = {"random"};
  b.budget.events = 500;
  b.seeds = 2;
  b.jobs = 2;
  b.out = testing::TempDir("harness_bench");
  b.harness.actions_file = testing::SourceDir() / "apps/bench/config/shop.actions.json";
  auto runs = RunBench(b, nullptr);
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  for (const auto& r : *runs) EXPECT_GT(r.activities_covered, 2u) << "seed " << r.seed;
  b.harness.actions_file = "/nonexistent/actions.json";
  auto bad = RunBench(b, nullptr);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("/nonexistent/actions.json"), std::string::npos);
}

}  // namespace
}  // namespace roam::run

namespace roam::run {
namespace {

// A strings file with a byte that is not UTF-8 used to abort the run (the JSON writer threw on
// the typed text; no summary.json, trace.jsonl cut mid-line). The byte is typed as U+FFFD.
TEST(HarnessRun, AStringsFileThatIsNotUtf8IsTypedAsReplacementCharacters) {
  auto dir = testing::TempDir("harness_not_utf8");
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "s.txt", std::ios::binary) << "ok\n\xff\n"; }
  ExploreOptions o = Options("diary", "harness_not_utf8_run", 1, 400);
  o.force = true;
  o.harness.strings_file = dir / "s.txt";
  o.harness.mix = {.pct_user = 100, .pct_seen = 0, .pct_awkward = 0, .pct_plain = 0};
  auto s = Explore(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto summary = ReadJsonFile(o.out / "summary.json");
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  EXPECT_EQ((*summary)["stop_reason"], "events");
  auto trace = report::ReadTrace(o.out / "trace.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  std::map<std::string, int> typed;
  for (const auto& step : *trace)
    if (step.action.kind == gui::ActionKind::kInputText) ++typed[step.action.text];
  EXPECT_GT(typed["\xEF\xBF\xBD"], 0);
  EXPECT_GT(typed["ok"], 0);
}

}  // namespace
}  // namespace roam::run
