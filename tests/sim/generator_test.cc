// The app generator: every generated app passes CheckSpec; one seed gives one app; the options
// are honoured (activities, bugs, a deep path); planted crashes fire on a random walk and
// nothing fires with every bug switched off.
#include "sim/generator.h"

#include <chrono>
#include <cmath>
#include <deque>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/rng.h"
#include "gui/action.h"
#include "gui/intent.h"
#include "sim/sim_app.h"
#include "sim/sim_test_util.h"
#include "sim/spec.h"

namespace roam::sim {
namespace {

using json = nlohmann::json;

constexpr int kDeepDepth = 6;  // "deep": at least this many steps from the start screen

std::shared_ptr<const AppSpec> Compile(const json& doc) {
  auto spec = LoadSpecJson(doc, "generated");
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return spec.ok() ? *spec : nullptr;
}

// Every value of `key` anywhere below `v`.
void Collect(const json& v, const std::string& key, std::vector<std::string>& out) {
  if (v.is_object()) {
    for (const auto& [k, x] : v.items()) {
      if (k == key && x.is_string()) out.push_back(x.get<std::string>());
      Collect(x, key, out);
    }
  } else if (v.is_array()) {
    for (const auto& x : v) Collect(x, key, out);
  }
}

// BFS depth of every screen over the navigate edges of its widgets, menu, handlers and of the
// dialogs it opens.
std::map<std::string, int> Depths(const json& doc) {
  std::map<std::string, std::vector<std::string>> dialog_targets, edges;
  for (const json& d : doc["dialogs"]) Collect(d, "navigate", dialog_targets[d["id"]]);
  for (const json& s : doc["screens"]) {
    auto& e = edges[s["id"]];
    Collect(s, "navigate", e);
    std::vector<std::string> dialogs;
    Collect(s, "dialog", dialogs);
    for (const auto& d : dialogs)
      e.insert(e.end(), dialog_targets[d].begin(), dialog_targets[d].end());
  }
  std::map<std::string, int> depth = {{doc["start"], 0}};
  std::deque<std::string> queue = {doc["start"]};
  while (!queue.empty()) {
    std::string u = queue.front();
    queue.pop_front();
    for (const auto& v : edges[u])
      if (depth.emplace(v, depth[u] + 1).second) queue.push_back(v);
  }
  return depth;
}

GeneratorOptions Options(uint64_t seed, int activities, int bugs,
                         GeneratorShape shape = GeneratorShape::kReal) {
  GeneratorOptions o;
  o.seed = seed;
  o.activities = activities;
  o.bugs = bugs;
  o.shape = shape;
  return o;
}

uint64_t Fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

// The classic shape is the generator as it was before the real one: the same bytes for the
// same options. The checksums were taken from the generator at commit 395eb22.
TEST(GeneratorTest, ClassicShapeIsUnchanged) {
  struct Case {
    uint64_t seed;
    int activities, bugs;
    uint64_t fnv1a;
    size_t size;
  };
  const Case kCases[] = {{42, 30, 5, 0x97ffafdb58b34a24ULL, 52430},
                         {7, 12, 3, 0xcb85a43ac964b3fbULL, 22620},
                         {123, 80, 10, 0x19f63836838b1999ULL, 117987},
                         {11, 40, 6, 0xe43f300e04614873ULL, 59747}};
  for (const Case& c : kCases) {
    std::string doc =
        GenerateApp(Options(c.seed, c.activities, c.bugs, GeneratorShape::kClassic)).dump();
    EXPECT_EQ(doc.size(), c.size) << "seed " << c.seed;
    EXPECT_EQ(Fnv1a(doc), c.fnv1a) << "seed " << c.seed;
  }
}

// The generator's wrong deletes and dropped Saves are no independent-view violation
// (docs/app-spec.md): the real shape says so in the spec; the other kinds keep the oracle of
// their kind.
// Dropped Saves say no GUI-effect oracle sees them; a wrong delete's screen has an Add that puts
// a row first, in front of the one a seed removes, so Genie's independent-view check can (with its
// defaults).
TEST(GeneratorTest, DroppedSavesSayNoGuiEffectOracleSeesThemAndWrongDeletesHaveAnAdd) {
  std::set<std::string> kinds;
  int wrong_delete_screens = 0;
  for (uint64_t seed : {304, 313}) {  // between them: all three functional kinds
    json app = GenerateApp(Options(seed, 40, 6, GeneratorShape::kReal));
    for (const auto& b : app["bugs"]) {
      const std::string kind = b["kind"];
      kinds.insert(kind);
      if (kind == "data_loss") {
        EXPECT_EQ(b.value("seen_by", ""), "other") << b.dump();
      } else {
        EXPECT_FALSE(b.contains("seen_by")) << b.dump();
      }
    }
    for (const auto& screen : app["screens"]) {
      const std::string text = screen.dump();
      if (text.find("\"bug\":\"gen-wrong-delete") == std::string::npos) continue;
      ++wrong_delete_screens;
      EXPECT_TRUE(std::regex_search(text, std::regex(R"("add_item":"[a-z_]+","at":0,)")))
          << screen["id"];
    }
    auto spec = LoadSpecJson(app, "generated");
    ASSERT_TRUE(spec.ok()) << spec.status().message();
  }
  for (const char* k : {"wrong_behaviour", "data_loss", "function_stops"})
    EXPECT_TRUE(kinds.count(k)) << k;
  EXPECT_GT(wrong_delete_screens, 0);
}

TEST(GeneratorTest, RealShapeIsTheDefaultAndDiffers) {
  EXPECT_EQ(GeneratorOptions{}.shape, GeneratorShape::kReal);
  EXPECT_EQ(ParseGeneratorShape("classic"), GeneratorShape::kClassic);
  EXPECT_EQ(ParseGeneratorShape("real"), GeneratorShape::kReal);
  EXPECT_FALSE(ParseGeneratorShape("rael").has_value());
  auto o = Options(42, 30, 5);
  EXPECT_EQ(GenerateApp(o).dump(), GenerateApp(o).dump());
  EXPECT_NE(GenerateApp(o).dump(),
            GenerateApp(Options(42, 30, 5, GeneratorShape::kClassic)).dump());
}

// The real shape has what docs/realism.md asks for: many more widgets a screen, buttons that
// leave the app, long lists and ways on behind a checkbox.
TEST(GeneratorTest, RealShapeHasItsParts) {
  json real = GenerateApp(Options(5, 40, 6));
  json classic = GenerateApp(Options(5, 40, 6, GeneratorShape::kClassic));
  auto widgets = [](const json& doc) {
    size_t n = 0;
    for (const json& s : doc["screens"]) n += s["widgets"].size();
    return static_cast<double>(n) / static_cast<double>(doc["screens"].size());
  };
  EXPECT_GT(widgets(real), widgets(classic) + 2);  // 3.5 fillers a screen on average
  std::string text = real.dump();
  EXPECT_NE(text.find("\"leave\":true"), std::string::npos);
  EXPECT_NE(text.find("_show_"), std::string::npos);  // a checkbox's variable showing a way on
  size_t longest = 0;
  for (const auto& [name, items] : real["lists"].items()) longest = std::max(longest, items.size());
  EXPECT_GE(longest, static_cast<size_t>(GeneratorOptions{}.list_min_items));
}

TEST(GeneratorTest, RealShapeOptionsAreChecked) {
  GeneratorOptions o;
  o.filler_min = 5;
  o.filler_max = 4;
  EXPECT_FALSE(ValidateGeneratorOptions(o).ok());
  o = {};
  o.leave_ratio = 2;
  EXPECT_FALSE(ValidateGeneratorOptions(o).ok());
  o = {};
  o.list_min_items = 0;
  EXPECT_FALSE(ValidateGeneratorOptions(o).ok());
}

TEST(GeneratorTest, EveryAppPassesCheckSpecOverSeedsAndSizes) {
  constexpr int kSeeds = 200, kMaxActivities = 80, kMaxBugs = 10;
  for (GeneratorShape shape : {GeneratorShape::kClassic, GeneratorShape::kReal}) {
    for (int seed = 1; seed <= kSeeds; ++seed) {
      int activities = 1 + (seed * 37) % kMaxActivities;
      int bugs = seed % (kMaxBugs + 1);
      json doc = GenerateApp(Options(seed, activities, bugs, shape));
      auto errors = CheckSpec(doc);
      ASSERT_TRUE(errors.empty()) << "seed " << seed << " activities " << activities << ": "
                                  << errors[0].path << ": " << errors[0].message;
    }
  }
}

TEST(GeneratorTest, ExtremeOptionsStayValid) {
  std::vector<GeneratorOptions> cases;
  for (double r : {0.0, 1.0}) {
    for (int activities : {1, 2, 9, 60}) {
      GeneratorOptions o = Options(activities + 3, activities, kGeneratorMaxBugs / 10);
      o.tab_ratio = o.form_ratio = o.list_ratio = o.dialog_ratio = o.menu_ratio = r;
      o.toggle_ratio = o.dynamic_ratio = o.cross_link_ratio = r;
      o.leave_ratio = o.gate_ratio = r;
      o.screens_per_activity = kGeneratorMaxScreensPerActivity;
      cases.push_back(o);
      o.max_depth = 1;
      o.bugs = kGeneratorMaxBugs;
      cases.push_back(o);
    }
  }
  for (size_t i = 0, n = cases.size(); i < n; ++i) {
    cases.push_back(cases[i]);
    cases.back().shape = GeneratorShape::kClassic;
  }
  for (const auto& o : cases) {
    ASSERT_TRUE(ValidateGeneratorOptions(o).ok());
    auto errors = CheckSpec(GenerateApp(o));
    ASSERT_TRUE(errors.empty()) << "seed " << o.seed << ": " << errors[0].path << ": "
                                << errors[0].message;
  }
}

TEST(GeneratorTest, OptionsOutOfRangeAreRejected) {
  EXPECT_TRUE(ValidateGeneratorOptions({}).ok());
  EXPECT_FALSE(ValidateGeneratorOptions(Options(1, 0, 0)).ok());
  EXPECT_FALSE(ValidateGeneratorOptions(Options(1, kGeneratorMaxActivities + 1, 0)).ok());
  EXPECT_FALSE(ValidateGeneratorOptions(Options(1, 5, -1)).ok());
  GeneratorOptions o;
  o.form_ratio = 1.5;
  Status s = ValidateGeneratorOptions(o);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("form-ratio"), std::string::npos) << s.message();
}

TEST(GeneratorTest, OneSeedGivesTheSameApp) {
  auto o = Options(42, 30, 5);
  EXPECT_EQ(GenerateApp(o).dump(), GenerateApp(o).dump());
}

TEST(GeneratorTest, TwoSeedsGiveDifferentApps) {
  json a = GenerateApp(Options(1, 30, 5)), b = GenerateApp(Options(2, 30, 5));
  EXPECT_NE(a["package"], b["package"]);
  std::vector<std::string> ia, ib;
  for (const json& s : a["screens"]) ia.push_back(s["id"]);
  for (const json& s : b["screens"]) ib.push_back(s["id"]);
  EXPECT_NE(ia, ib);  // different screens, not only a different package name
}

TEST(GeneratorTest, TheRequestedNumberOfActivities) {
  for (int n : {1, 2, 7, 50, kGeneratorMaxActivities}) {
    auto spec = Compile(GenerateApp(Options(n, n, 3)));
    ASSERT_TRUE(spec);
    std::set<std::string> activities, outside;  // the GUI's, and those only intents reach
    for (const auto& s : spec->screens()) (s.exported ? outside : activities).insert(s.activity);
    EXPECT_EQ(static_cast<int>(activities.size()), n);
    // --outside-ratio's share of all activities, at least the one --intent-bugs needs.
    const double r = GeneratorOptions{}.outside_ratio;
    EXPECT_EQ(static_cast<long>(outside.size()), std::max(1L, std::lround(n * r / (1 - r))));
  }
}

// A screen hosts at most one functional bug of a kind: gen405 (40 activities, 6 bugs) planted
// the same "Change folder" / "Upload" pair twice on one screen, two buttons of each label, and a
// report could be scored to neither bug alone. The summary names the screen ("On <title>, ...").
TEST(GeneratorTest, NoScreenHostsTwoFunctionalBugsOfOneKind) {
  for (uint64_t seed = 1; seed <= 600; ++seed) {
    json app = GenerateApp(Options(seed, 40, 6 + static_cast<int>(seed % 7)));
    std::set<std::string> hosted;
    for (const auto& b : app["bugs"]) {
      const std::string kind = b["kind"], summary = b["summary"];
      if (kind == "crash" || kind == "anr") continue;
      ASSERT_EQ(summary.rfind("On ", 0), 0u) << summary;
      const std::string where = kind + " on " + summary.substr(3, summary.find(", ") - 3);
      EXPECT_TRUE(hosted.insert(where).second) << "seed " << seed << ": " << where;
    }
  }
}

TEST(GeneratorTest, EveryBugIsDeclaredAndReferenced) {
  for (int seed = 1; seed <= 20; ++seed) {
    int bugs = seed % 11;
    json doc = GenerateApp(Options(seed, 1 + seed * 3, bugs));
    // Beside `bugs`, a receiver of a system broadcast crashes, and an extra of a screen only
    // outside the GUI reaches (the real shape's defaults).
    ASSERT_EQ(static_cast<int>(doc["bugs"].size()), bugs + 2);
    EXPECT_EQ(doc["bugs"][bugs]["id"], fmt::format("gen-broadcast-crash-{}", bugs + 1));
    EXPECT_EQ(doc["bugs"].back()["id"], fmt::format("gen-intent-crash-{}", bugs + 2));
    std::vector<std::string> referenced;
    Collect(doc["screens"], "bug", referenced);
    Collect(doc["dialogs"], "bug", referenced);
    std::set<std::string> refs(referenced.begin(), referenced.end());
    for (const json& b : doc["bugs"]) {
      EXPECT_TRUE(refs.count(b["id"])) << b["id"];
      EXPECT_FALSE(b["summary"].get<std::string>().empty());
      EXPECT_FALSE(b["correct"].get<std::string>().empty());
      EXPECT_NE(doc["description"].get<std::string>().find(b["id"].get<std::string>()),
                std::string::npos);
    }
    if (bugs > 0) {
      EXPECT_EQ(doc["bugs"][0]["kind"], "crash");
    }
  }
}

// The screens whose `on` takes broadcast:ACTION, by screen id, with the bug ids their handlers
// name.
std::map<std::string, std::vector<std::string>> Receivers(const json& doc) {
  std::map<std::string, std::vector<std::string>> out;
  for (const json& screen : doc["screens"]) {
    if (!screen.contains("on")) continue;
    for (const auto& [key, handler] : screen["on"].items()) {
      if (!key.starts_with("broadcast:")) continue;
      std::vector<std::string> bugs;
      Collect(handler, "bug", bugs);
      auto& list = out[screen["id"].get<std::string>()];
      list.insert(list.end(), bugs.begin(), bugs.end());
    }
  }
  return out;
}

TEST(GeneratorTest, SomeScreensTakeSystemBroadcastsAndOneReceiverCrashesLeavingTheRestAsItWas) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    GeneratorOptions o = Options(seed, 12, 3);
    o.outside_ratio = 0;  // the receivers alone
    o.intent_bugs = 0;
    const json doc = GenerateApp(o);
    auto spec = Compile(doc);
    ASSERT_TRUE(spec);
    const auto receivers = Receivers(doc);
    ASSERT_FALSE(receivers.empty()) << "seed " << seed;
    EXPECT_FALSE(receivers.count(doc["start"].get<std::string>())) << "seed " << seed;
    int crashing = 0;
    for (const auto& [screen, bugs] : receivers) crashing += static_cast<int>(bugs.size());
    EXPECT_EQ(crashing, 1) << "seed " << seed;
    EXPECT_FALSE(SimApp(spec, {}).Broadcasts().empty());
    // Without receivers the app is the same otherwise: the receivers draw from their own
    // random stream.
    o.receiver_ratio = 0;
    o.broadcast_bugs = 0;
    const json plain = GenerateApp(o);
    EXPECT_TRUE(Receivers(plain).empty());
    ASSERT_EQ(plain["bugs"].size() + 1, doc["bugs"].size());
    for (size_t b = 0; b < plain["bugs"].size(); ++b) EXPECT_EQ(plain["bugs"][b], doc["bugs"][b]);
    ASSERT_EQ(plain["screens"].size(), doc["screens"].size());
    for (size_t k = 0; k < doc["screens"].size(); ++k) {
      const json& a = plain["screens"][k];
      const json& b = doc["screens"][k];
      EXPECT_EQ(a["id"], b["id"]);
      // Each receiver adds its status line at the end of its screen's widgets.
      const size_t extra = receivers.count(b["id"].get<std::string>()) ? 1 : 0;
      ASSERT_EQ(a["widgets"].size() + extra, b["widgets"].size()) << b["id"];
      for (size_t w = 0; w < a["widgets"].size(); ++w) EXPECT_EQ(a["widgets"][w], b["widgets"][w]);
    }
  }
  EXPECT_TRUE(Receivers(GenerateApp(Options(1, 12, 3, GeneratorShape::kClassic))).empty());
}

// The screens that say "exported" (those only intents reach), by id.
std::map<std::string, json> OutsideScreens(const json& doc) {
  std::map<std::string, json> out;
  for (const json& screen : doc["screens"])
    if (screen.contains("exported")) out[screen["id"].get<std::string>()] = screen;
  return out;
}

// Issue 64: activities only outside the GUI reaches, some with a deep link, some reading extras;
// one of those extras crashes; drawn from their own stream, appended, the rest as it was.
TEST(GeneratorTest, OutsideScreensNoButtonReachesWithACrashingExtraLeavingTheRestAsItWas) {
  int deep_links = 0, readers = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    GeneratorOptions o = Options(seed, 12, 3);
    o.outside_ratio = 0.4;  // 8 beside the 12
    o.intent_bugs = 2;
    const json doc = GenerateApp(o);
    auto spec = Compile(doc);
    ASSERT_TRUE(spec);
    const auto outside = OutsideScreens(doc);
    ASSERT_EQ(outside.size(), 8u) << "seed " << seed;
    std::vector<std::string> targets;
    Collect(doc["screens"], "navigate", targets);
    Collect(doc["dialogs"], "navigate", targets);
    for (const auto& t : targets) EXPECT_FALSE(outside.count(t)) << t << " has a GUI path";
    for (const auto& [id, screen] : outside) {
      EXPECT_EQ(screen["exported"], true);
      deep_links += screen.contains("intent_filters");
      readers += screen.contains("extras");
    }
    // The crashes: numbered after the other bugs; an intent a strategy would send finds each,
    // and none with the bugs off.
    ASSERT_EQ(doc["bugs"].size(), 3u + 1u + 2u);
    std::set<std::string> planted = {"gen-intent-crash-5", "gen-intent-crash-6"};
    EXPECT_EQ(doc["bugs"][4]["id"], "gen-intent-crash-5");
    EXPECT_EQ(doc["bugs"][5]["id"], "gen-intent-crash-6");
    EXPECT_NE(doc["description"].get<std::string>().find("reached only from outside"),
              std::string::npos);
    std::set<std::string> found, found_off;
    SimOptions off;
    off.bugs_off = planted;
    for (const auto& activity : SimApp(spec, {}).DeclaredActivities())
      for (const gui::Intent& intent : gui::CandidateIntents(activity)) {
        SimApp on_app(spec, {}), off_app(spec, off);
        EXPECT_EQ(on_app.StartIntent(intent), IntentOutcome::kStarted) << intent.ToText();
        off_app.StartIntent(intent);
        for (const Fault& f : on_app.DrainFaults()) found.insert(f.bug_id);
        for (const Fault& f : off_app.DrainFaults()) found_off.insert(f.bug_id);
      }
    EXPECT_EQ(found, planted) << "seed " << seed;
    EXPECT_TRUE(found_off.empty()) << "seed " << seed;
    // Without them, everything else is as it was: they draw from their own random stream.
    o.outside_ratio = 0;
    o.intent_bugs = 0;
    const json plain = GenerateApp(o);
    EXPECT_TRUE(OutsideScreens(plain).empty());
    for (const char* key :
         {"app", "package", "label", "start", "vars", "lists", "persist", "dialogs"})
      EXPECT_EQ(plain[key], doc[key]) << key;
    ASSERT_EQ(plain["screens"].size() + 8, doc["screens"].size());
    for (size_t k = 0; k < plain["screens"].size(); ++k)
      EXPECT_EQ(plain["screens"][k], doc["screens"][k]);
    ASSERT_EQ(plain["bugs"].size() + 2, doc["bugs"].size());
    for (size_t b = 0; b < plain["bugs"].size(); ++b) EXPECT_EQ(plain["bugs"][b], doc["bugs"][b]);
  }
  EXPECT_GT(deep_links, 0);
  EXPECT_GT(readers, 0);
  EXPECT_TRUE(OutsideScreens(GenerateApp(Options(1, 12, 3, GeneratorShape::kClassic))).empty());
}

TEST(GeneratorTest, OutsideOptionsAreChecked) {
  GeneratorOptions o;
  o.outside_ratio = 0.95;
  Status s = ValidateGeneratorOptions(o);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("outside-ratio"), std::string::npos) << s.message();
  o = {};
  o.intent_bugs = kGeneratorMaxBugs + 1;
  EXPECT_FALSE(ValidateGeneratorOptions(o).ok());
  // The most it takes stays a valid app.
  o = {};
  o.outside_ratio = kGeneratorMaxOutsideRatio;
  o.intent_bugs = kGeneratorMaxBugs;
  const json doc = GenerateApp(o);
  EXPECT_TRUE(CheckSpec(doc).empty())
      << CheckSpec(doc)[0].path << ": " << CheckSpec(doc)[0].message;
}

TEST(GeneratorTest, ADeepActivityExistsFromEightActivities) {
  for (int n : {8, 20, 100}) {
    for (int seed = 1; seed <= 5; ++seed) {
      json doc = GenerateApp(Options(seed, n, 2));
      auto depth = Depths(doc);
      int deepest = 0;
      for (const auto& [id, d] : depth) deepest = std::max(deepest, d);
      EXPECT_GE(deepest, kDeepDepth) << "seed " << seed << " activities " << n;
      // Every screen is reachable through the GUI, but those only intents reach (issue 64).
      const auto outside = OutsideScreens(doc);
      EXPECT_EQ(depth.size() + outside.size(), doc["screens"].size());
      for (const auto& [id, screen] : outside) EXPECT_FALSE(depth.count(id)) << id;
    }
  }
}

// A random walk over the app's widgets (with back, restarts and valid-looking text), returning
// the faults raised.
std::vector<Fault> Walk(const std::shared_ptr<const AppSpec>& spec, SimOptions options, int steps) {
  const std::vector<std::string> kTexts = {"Alice", "alice@example.com", "12345678", "1234", ""};
  constexpr double kBackChance = 0.1, kRestartChance = 0.005;
  SimApp app(spec, options);
  app.Launch();
  Rng rng(options.seed);
  std::vector<Fault> faults;
  for (int i = 0; i < steps; ++i) {
    const gui::Screen& s = app.screen();
    std::vector<int> targets;
    for (size_t w = 0; w < s.widgets.size(); ++w) {
      const gui::Widget& x = s.widgets[w];
      if (x.enabled && (x.clickable || x.editable)) targets.push_back(static_cast<int>(w));
    }
    if (rng.Chance(kRestartChance)) {
      app.Perform(gui::MakeGlobalAction(gui::ActionKind::kRestart));
    } else if (targets.empty() || rng.Chance(kBackChance)) {
      app.Perform(gui::MakeGlobalAction(gui::ActionKind::kBack));
    } else {
      int w = targets[rng.Below(targets.size())];
      bool edit = s.widgets[w].editable;
      gui::Action a =
          gui::MakeWidgetAction(edit ? gui::ActionKind::kInputText : gui::ActionKind::kClick, s, w);
      if (edit) a.text = kTexts[rng.Below(kTexts.size())];
      app.Perform(a);
    }
    for (auto& f : app.DrainFaults()) faults.push_back(std::move(f));
  }
  return faults;
}

constexpr int kWalkSteps = 20000;
constexpr uint64_t kWalkSeeds = 8;

TEST(GeneratorTest, PlantedCrashesFireOnARandomWalk) {
  for (uint64_t seed = 1; seed <= kWalkSeeds; ++seed) {
    json doc = GenerateApp(Options(seed, 6, 4));
    auto spec = Compile(doc);
    ASSERT_TRUE(spec);
    std::set<std::string> crash_ids;
    for (const json& b : doc["bugs"]) {
      if (b["kind"] == "crash") crash_ids.insert(b["id"]);
    }
    SimOptions options;
    options.seed = seed;
    int planted = 0;
    for (const Fault& f : Walk(spec, options, kWalkSteps)) {
      EXPECT_FALSE(f.bug_id.empty()) << "a fault no bug planted: " << f.message;
      if (f.kind == Fault::Kind::kCrash && crash_ids.count(f.bug_id)) {
        ++planted;
        EXPECT_FALSE(f.frames.empty());
        EXPECT_NE(f.frames[1].find(doc["package"].get<std::string>()), std::string::npos);
      }
    }
    EXPECT_GT(planted, 0) << "seed " << seed << ": no planted crash fired";
  }
}

TEST(GeneratorTest, NothingFiresWithEveryBugOff) {
  for (uint64_t seed = 1; seed <= kWalkSeeds; ++seed) {
    json doc = GenerateApp(Options(seed, 6, 6));
    auto spec = Compile(doc);
    ASSERT_TRUE(spec);
    SimOptions options;
    options.seed = seed;
    for (const json& b : doc["bugs"]) options.bugs_off.insert(b["id"]);
    auto faults = Walk(spec, options, kWalkSteps);
    EXPECT_TRUE(faults.empty()) << "seed " << seed << ": " << faults[0].message;
  }
}

// Widgets of the current screen whose resource-id ends in ":id/<id>", in screen order.
std::vector<int> FindAll(SimApp& app, const std::string& id) {
  std::vector<int> out;
  const gui::Screen& s = app.screen();
  for (size_t i = 0; i < s.widgets.size(); ++i) {
    const std::string& rid = s.widgets[i].resource_id;
    if (rid.size() > id.size() && rid.ends_with(":id/" + id)) out.push_back(static_cast<int>(i));
  }
  return out;
}

// The id of the first start-screen widget whose click handler mentions bug `bug`.
int WidgetOfBug(const json& screen, const std::string& bug) {
  for (size_t i = 0; i < screen["widgets"].size(); ++i) {
    std::vector<std::string> refs;
    Collect(screen["widgets"][i]["on"], "bug", refs);
    for (const auto& r : refs)
      if (r == bug) return static_cast<int>(i);
  }
  return -1;
}

// One scripted session per functional bug kind; returns what the user sees at the end.
std::string Script(const json& doc, const std::string& kind, const std::string& bug, bool on) {
  using testing::Click;
  using testing::TextOf;
  SimOptions options;
  if (!on) options.bugs_off.insert(bug);
  auto app = std::make_unique<SimApp>(Compile(doc), options);
  app->Launch();
  const json& main = doc["screens"][0];
  if (kind == "data_loss") {  // the first data_loss bug has the unsuffixed ids
    for (int i = 0; i < 3; ++i) {
      testing::Type(*app, "edit_draft_title", fmt::format("Entry {}", i));
      Click(*app, "btn_save_draft");
    }
    return TextOf(*app, "draft_count");
  }
  if (kind == "wrong_behaviour") {  // remove the second row (confirming if asked)
    auto rows = FindAll(*app, "entry_remove");
    EXPECT_GE(rows.size(), 2u);
    app->Perform(gui::MakeWidgetAction(gui::ActionKind::kClick, app->screen(), rows[1]));
    if (testing::Has(*app, "OK")) Click(*app, "OK");
    std::string titles;
    for (int w : FindAll(*app, "entry_title")) titles += app->screen().widgets[w].text + ";";
    return titles;
  }
  // function_stops: the button, then the action that breaks it, then the button again.
  int w = WidgetOfBug(main, bug);
  std::string button = main["widgets"][w]["id"], breaker = main["widgets"][w + 1]["id"];
  std::string count = main["widgets"][w - 1]["id"];
  Click(*app, button);
  Click(*app, breaker);
  Click(*app, button);
  return TextOf(*app, count);
}

TEST(GeneratorTest, FunctionalBugsShowOnlyWhileOn) {
  constexpr int kSearchSeeds = 200;
  std::set<std::string> wanted = {"data_loss", "wrong_behaviour", "function_stops"};
  for (int seed = 1; seed <= kSearchSeeds && !wanted.empty(); ++seed) {
    GeneratorOptions o = Options(seed, 1, 10);  // one screen: every bug on the start screen
    o.screens_per_activity = 1;
    json doc = GenerateApp(o);
    std::set<std::string> seen;
    for (const json& b : doc["bugs"]) {
      std::string kind = b["kind"];
      if (!wanted.count(kind) || seen.count(kind)) continue;
      seen.insert(kind);  // only the first bug of a kind: its widgets have the plain ids
      std::string with_bug = Script(doc, kind, b["id"], true);
      std::string fixed = Script(doc, kind, b["id"], false);
      EXPECT_NE(with_bug, fixed) << "seed " << seed << " " << b["id"];
      if (kind == "data_loss") {
        EXPECT_EQ(fixed, "4 saved");
        EXPECT_EQ(with_bug, "2 saved");
      }
      wanted.erase(kind);
    }
  }
  EXPECT_TRUE(wanted.empty()) << "no app with every functional bug kind";
}

TEST(GeneratorTest, FiveHundredActivitiesWellUnderASecond) {
  constexpr double kBudgetSeconds = 1.0;
  auto start = std::chrono::steady_clock::now();
  json doc = GenerateApp(Options(7, kGeneratorMaxActivities, 20));
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took.count(), kBudgetSeconds);
  EXPECT_TRUE(CheckSpec(doc).empty());
}

}  // namespace
}  // namespace roam::sim
