// The app generator: options, vocabulary, screen names, the navigation tree with its cross links,
// and the assembly of the spec document. Widgets are in generator_screens.cc, planted bugs in
// generator_bugs.cc.
#include "sim/generator.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "base/utf8.h"
#include "sim/generator_internal.h"

namespace roam::sim {
namespace gen {

const std::vector<std::string> kNouns = {
    "Notes",     "Settings", "Profile",   "Orders",   "Messages", "Photos",        "Account",
    "Privacy",   "Contacts", "Calendar",  "Tasks",    "Playlist", "Albums",        "Downloads",
    "Bookmarks", "History",  "Favorites", "Cart",     "Checkout", "Payments",      "Wallet",
    "Reminders", "Alarms",   "Recipes",   "Workouts", "Journal",  "Inbox",         "Drafts",
    "Events",    "Tickets",  "Friends",   "Groups",   "Feed",     "Notifications", "Security",
    "Backup",    "Storage",  "Language",  "Theme",    "Feedback", "Help",          "Subscriptions",
    "Podcasts",  "Maps",     "Places",    "Trips",    "Invoices", "Reports",       "Budget",
    "Devices"};
const std::vector<std::string> kItemTitles = {
    "Groceries",    "Meeting notes", "Trip to Rome", "Invoice 1042",  "Birthday party",
    "Morning run",  "Dentist",       "Book club",    "Weekly report", "Car service",
    "Summer album", "Pay rent",      "Call mom",     "Team lunch",    "Flight LH 402",
    "Gym",          "Project Alpha", "Tax return",   "Yoga class",    "Garden",
    "Concert",      "Recipe ideas",  "Reading list", "Bike repair",   "Holiday plans"};
const std::vector<std::string> kForwardLabels = {"OK", "Save", "Next", "Continue", "Done", "Add"};
const std::vector<std::string> kBackLabels = {"Cancel", "Back", "Close", "Dismiss"};
const std::vector<std::string> kClickFrames = {
    "android.view.View.performClick(View.java:7448)",
    "android.view.View.performClickInternal(View.java:7425)",
    "android.view.View.access$3600(View.java:810)",
    "android.view.View$PerformClick.run(View.java:28305)",
    "android.os.Handler.handleCallback(Handler.java:938)",
    "android.os.Handler.dispatchMessage(Handler.java:99)",
    "android.os.Looper.loop(Looper.java:223)",
    "android.app.ActivityThread.main(ActivityThread.java:7656)",
    "java.lang.reflect.Method.invoke(Native Method)",
    "com.android.internal.os.ZygoteInit.main(ZygoteInit.java:947)"};

namespace {

// How a qualified screen is named: `%` stands for the noun.
struct Qualifier {
  const char* id;
  const char* title;
};
const std::vector<Qualifier> kQualifiers = {{"%", "%"},
                                            {"Edit%", "Edit %"},
                                            {"New%", "New %"},
                                            {"%Detail", "% details"},
                                            {"%List", "All %"},
                                            {"Search%", "Search %"},
                                            {"%Archive", "% archive"},
                                            {"%History", "% history"},
                                            {"Share%", "Share %"},
                                            {"%Filter", "Filter %"},
                                            {"%Preview", "% preview"},
                                            {"Import%", "Import %"},
                                            {"Export%", "Export %"}};
const std::vector<std::string> kTabNames = {"Recent",   "Favorites", "All",
                                            "Archived", "Shared",    "Starred"};
const std::vector<std::string> kLabelSuffixes = {"Pro", "Plus", "Go",      "Lite",
                                                 "Hub", "Box",  "Manager", "Keeper"};

constexpr double kMinRatio = 0.0;
constexpr double kMaxRatio = 1.0;
constexpr int kMaxLinksPerScreen = 3;  // cross links of one screen
constexpr int kLinkTries = 8;          // draws for a link target that keeps every path's length
constexpr int kFirstFrameLine = 40;    // stack frames point at lines in this range
constexpr int kFrameLineSpan = 400;

std::string Replace(std::string pattern, const std::string& noun) {
  size_t at = pattern.find('%');
  if (at != std::string::npos) pattern.replace(at, 1, noun);
  return pattern;
}

// "EditProfile" -> "edit_profile".
std::string Snake(const std::string& id) {
  std::string out;
  for (char c : id) {
    if (std::isupper(static_cast<unsigned char>(c)) && !out.empty()) out += '_';
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

template <typename T>
void Shuffle(std::vector<T>& v, Rng& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.Below(i)]);
}

}  // namespace

AppBuilder::AppBuilder(const GeneratorOptions& options)
    : opt_(options), rng_(options.seed), package_(fmt::format("com.gen.s{}", options.seed)) {}

std::string AppBuilder::Pick(const std::vector<std::string>& words) {
  return words[rng_.Below(words.size())];
}

std::string AppBuilder::UniqueId(ScreenDraft& s, const std::string& base) {
  std::string id = base;
  for (int n = 2; s.ids.count(id); ++n) id = fmt::format("{}{}", base, n);
  s.ids.insert(id);
  return id;
}

std::string AppBuilder::Unit(const ScreenDraft& s, const std::string& method) {
  return s.cls + "." + method;
}

std::string AppBuilder::Frame(const ScreenDraft& s, const std::string& method) {
  size_t line = kFirstFrameLine + rng_.Below(kFrameLineSpan);
  return fmt::format("{}.{}.{}.{}({}.java:{})", package_, s.subpackage, s.cls, method, s.cls, line);
}

std::string AppBuilder::NewVar(const ScreenDraft& s, const std::string& name, const json& init) {
  std::string base = s.snake + "_" + name, var = base;
  for (int n = 2; vars_.contains(var); ++n) var = fmt::format("{}{}", base, n);
  vars_[var] = init;
  return var;
}

std::string AppBuilder::NewList(const ScreenDraft& s, const std::string& name, const json& items) {
  std::string base = s.snake + "_" + name, list = base;
  for (int n = 2; lists_.contains(list); ++n) list = fmt::format("{}{}", base, n);
  lists_[list] = items;
  return list;
}

json AppBuilder::SampleItems(int count) {
  json items = json::array();
  for (int i = 0; i < count; ++i) items.push_back({{"title", Pick(kItemTitles)}});
  return items;
}

std::string AppBuilder::NewDialog(const std::string& base, json dialog) {
  std::string id = base;
  for (int n = 2; dialog_ids_.count(id); ++n) id = fmt::format("{}{}", base, n);
  dialog_ids_.insert(id);
  dialog["id"] = id;
  dialogs_.push_back(std::move(dialog));
  return id;
}

// Names: the start screen, then one screen per further activity (distinct qualifier x noun
// pairs in random order), then the extra tab screens of some activities.
void AppBuilder::PlanScreens() {
  label_ = Pick(kNouns) + " " + Pick(kLabelSuffixes);
  ScreenDraft main;
  main.id = "Main";
  main.cls = "MainActivity";
  main.subpackage = "ui.main";
  main.title = label_;
  main.noun = "Home";
  main.snake = "main";
  screens_.push_back(main);

  std::vector<std::pair<size_t, size_t>> names;  // (qualifier, noun)
  for (size_t q = 0; q < kQualifiers.size(); ++q)
    for (size_t n = 0; n < kNouns.size(); ++n) names.emplace_back(q, n);
  Shuffle(names, rng_);
  activity_count_ = std::clamp(opt_.activities, 1, kGeneratorMaxActivities);
  for (int a = 1; a < activity_count_; ++a) {
    const auto& [q, n] = names[a - 1];
    ScreenDraft s;
    s.noun = kNouns[n];
    s.id = Replace(kQualifiers[q].id, s.noun);
    s.cls = s.id + "Activity";
    s.subpackage = "ui." + AsciiLower(s.noun);
    s.title = Replace(kQualifiers[q].title, s.noun);
    s.snake = Snake(s.id);
    s.activity = a;
    screens_.push_back(std::move(s));
  }
  if (opt_.screens_per_activity <= 1) return;
  for (int a = 0; a < activity_count_; ++a) {
    if (!rng_.Chance(opt_.tab_ratio)) continue;
    std::vector<std::string> tabs = kTabNames;
    Shuffle(tabs, rng_);
    size_t extra = 1 + rng_.Below(static_cast<size_t>(opt_.screens_per_activity - 1));
    for (size_t t = 0; t < extra && t < tabs.size(); ++t) {
      ScreenDraft s = screens_[a];
      s.id += tabs[t];
      s.title += " - " + tabs[t];
      s.snake = Snake(s.id);
      s.children.clear();
      s.parent = a;
      screens_.push_back(std::move(s));
    }
  }
}

// The tree: a chain from the start screen as deep as allowed (the deep path), then every other
// activity under a random shallower screen, preferring screens with few children; tabs hang
// under their activity's first screen.
void AppBuilder::PlanTree() {
  int chain = std::min(opt_.max_depth, activity_count_ - 1);
  for (int i = 1; i < activity_count_; ++i) {
    int parent = i - 1;
    if (i > chain) {
      std::vector<double> weights(i, 0.0);
      for (int j = 0; j < i; ++j) {
        if (screens_[j].depth >= opt_.max_depth) continue;
        weights[j] = 1.0 / (1.0 + static_cast<double>(screens_[j].children.size()));
        // Real apps keep many activities several steps in: prefer deeper parents.
        if (real()) weights[j] *= std::pow(1.0 + screens_[j].depth, opt_.deep_bias);
      }
      parent = static_cast<int>(rng_.Weighted(weights));
    }
    screens_[i].parent = parent;
    screens_[i].depth = screens_[parent].depth + 1;
    screens_[parent].children.push_back(i);
  }
  for (size_t i = activity_count_; i < screens_.size(); ++i) {
    int parent = screens_[i].parent;
    screens_[i].depth = screens_[parent].depth + 1;
    screens_[parent].children.push_back(static_cast<int>(i));
  }
}

// Cross links go only to screens at most one level deeper, so the tree depth stays the BFS
// depth and the deep screens stay deep.
void AppBuilder::PlanLinks() {
  for (size_t u = 0; u < screens_.size(); ++u) {
    ScreenDraft& s = screens_[u];
    for (int k = 0; k < kMaxLinksPerScreen && rng_.Chance(opt_.cross_link_ratio); ++k) {
      for (int t = 0; t < kLinkTries; ++t) {
        int v = static_cast<int>(rng_.Below(screens_.size()));
        bool known = std::find(s.children.begin(), s.children.end(), v) != s.children.end() ||
                     std::find(s.links.begin(), s.links.end(), v) != s.links.end();
        if (v == static_cast<int>(u) || known || screens_[v].depth > s.depth + 1) continue;
        s.links.push_back(v);
        break;
      }
    }
  }
}

void AppBuilder::PlanFeatures() {
  for (size_t i = 0; i < screens_.size(); ++i) {
    ScreenDraft& s = screens_[i];
    s.form = i != 0 && rng_.Chance(opt_.form_ratio);
    s.list = rng_.Chance(opt_.list_ratio);
    s.dialog = rng_.Chance(opt_.dialog_ratio);
    s.menu = rng_.Chance(opt_.menu_ratio);
    s.toggle = rng_.Chance(opt_.toggle_ratio);
    s.dynamic = rng_.Chance(opt_.dynamic_ratio);
    if (s.form && !s.children.empty()) s.gated_child = s.children[0];
  }
}

void AppBuilder::PlanRealFeatures() {
  for (size_t i = 0; i < screens_.size(); ++i) {
    ScreenDraft& s = screens_[i];
    int span = std::max(0, opt_.filler_max - opt_.filler_min);
    s.fillers = opt_.filler_min + static_cast<int>(rng_.Below(static_cast<size_t>(span) + 1));
    s.leave = rng_.Chance(opt_.leave_ratio);
    std::vector<int> open;  // children reached by a plain button (not the form's Next)
    for (int c : s.children)
      if (c != s.gated_child) open.push_back(c);
    if (!open.empty() && rng_.Chance(opt_.gate_ratio))
      s.hidden_child = open[rng_.Below(open.size())];
  }
}

std::string AppBuilder::Describe() const {
  std::string text = fmt::format(
      "Generated by `roam sim generate --seed {} --activities {} --bugs {}{}`: {} activities, {} "
      "screens, the deepest {} steps from the start screen. Labels mean what they say: OK, Save, "
      "Next, Continue, Done and Add go forward (a form's Save or Next only with valid input); "
      "Cancel, Back, Close and Dismiss go back or close a dialog; Delete and Remove remove a "
      "row.{}{} "
      "Planted bugs ({}):",
      opt_.seed, opt_.activities, opt_.bugs, real() ? " --shape real" : "", activity_count_,
      screens_.size() - outside_,
      std::max_element(screens_.begin(), screens_.end(),
                       [](const auto& a, const auto& b) { return a.depth < b.depth; })
          ->depth,
      real() ? " Many buttons change nothing visible, some leave the app (Share, Rate us), "
               "some ways on show only once a checkbox is ticked, and some screens take system "
               "broadcasts (a status line shows they came)."
             : "",
      outside_ > 0 ? fmt::format(" {} more activities are reached only from outside the app "
                                 "(exported, with a deep link or reading extras; no button "
                                 "leads to them).",
                                 outside_)
                   : "",
      ground_truth_.size());
  if (ground_truth_.empty()) text += " none.";
  for (const auto& g : ground_truth_) text += " " + g;
  return text;
}

json AppBuilder::Build() {
  PlanScreens();
  PlanTree();
  PlanLinks();
  PlanFeatures();
  if (real()) PlanRealFeatures();
  for (size_t s = 0; s < screens_.size(); ++s) EmitScreen(static_cast<int>(s));
  PlantBugs();
  if (real()) PlantReceivers();
  if (real()) PlantOutsideScreens();

  json doc = json::object();
  doc["app"] = fmt::format("gen-s{}", opt_.seed);
  doc["package"] = package_;
  doc["label"] = label_;
  doc["start"] = screens_[0].id;
  doc["description"] = Describe();
  doc["vars"] = vars_;
  doc["lists"] = lists_;
  doc["persist"] = persist_;
  doc["bugs"] = bugs_;
  json screens = json::array();
  for (const ScreenDraft& s : screens_) {
    json screen = {{"id", s.id},
                   {"activity", "." + s.subpackage + "." + s.cls},
                   {"title", s.title},
                   {"widgets", s.widgets}};
    if (!s.menu_items.empty()) screen["menu"] = s.menu_items;
    if (!s.on.empty()) screen["on"] = s.on;
    for (const auto& [key, value] : s.intent.items()) screen[key] = value;
    screens.push_back(std::move(screen));
  }
  doc["screens"] = std::move(screens);
  doc["dialogs"] = dialogs_;
  return doc;
}

}  // namespace gen

Status ValidateGeneratorOptions(const GeneratorOptions& o) {
  auto range = [](const char* name, long long v, long long lo, long long hi) {
    return v < lo || v > hi ? Status::InvalidArgument(fmt::format(
                                  "--{} must be within {}..{} (got {})", name, lo, hi, v))
                            : Status::Ok();
  };
  ROAM_RETURN_IF_ERROR(range("activities", o.activities, 1, kGeneratorMaxActivities));
  ROAM_RETURN_IF_ERROR(range("bugs", o.bugs, 0, kGeneratorMaxBugs));
  ROAM_RETURN_IF_ERROR(range("broadcast-bugs", o.broadcast_bugs, 0, kGeneratorMaxBugs));
  ROAM_RETURN_IF_ERROR(range("intent-bugs", o.intent_bugs, 0, kGeneratorMaxBugs));
  if (!(o.outside_ratio >= 0 && o.outside_ratio <= kGeneratorMaxOutsideRatio))
    return Status::InvalidArgument(fmt::format("--outside-ratio must be within 0..{} (got {})",
                                               kGeneratorMaxOutsideRatio, o.outside_ratio));
  ROAM_RETURN_IF_ERROR(
      range("screens-per-activity", o.screens_per_activity, 1, kGeneratorMaxScreensPerActivity));
  ROAM_RETURN_IF_ERROR(range("max-depth", o.max_depth, 1, kGeneratorMaxDepth));
  ROAM_RETURN_IF_ERROR(range("filler-min", o.filler_min, 0, kGeneratorMaxFillers));
  ROAM_RETURN_IF_ERROR(range("filler-max", o.filler_max, o.filler_min, kGeneratorMaxFillers));
  ROAM_RETURN_IF_ERROR(range("list-min-items", o.list_min_items, 1, kGeneratorMaxListItems));
  ROAM_RETURN_IF_ERROR(
      range("list-max-items", o.list_max_items, o.list_min_items, kGeneratorMaxListItems));
  if (!(o.deep_bias >= 0 && o.deep_bias <= kGeneratorMaxDeepBias))
    return Status::InvalidArgument(fmt::format("--deep-bias must be within 0..{} (got {})",
                                               kGeneratorMaxDeepBias, o.deep_bias));
  const std::pair<const char*, double> ratios[] = {
      {"tab-ratio", o.tab_ratio},          {"form-ratio", o.form_ratio},
      {"list-ratio", o.list_ratio},        {"dialog-ratio", o.dialog_ratio},
      {"menu-ratio", o.menu_ratio},        {"toggle-ratio", o.toggle_ratio},
      {"dynamic-ratio", o.dynamic_ratio},  {"cross-link-ratio", o.cross_link_ratio},
      {"leave-ratio", o.leave_ratio},      {"gate-ratio", o.gate_ratio},
      {"receiver-ratio", o.receiver_ratio}};
  for (const auto& [name, v] : ratios)
    if (!(v >= gen::kMinRatio && v <= gen::kMaxRatio))
      return Status::InvalidArgument(fmt::format("--{} must be within 0..1 (got {})", name, v));
  return Status::Ok();
}

std::optional<GeneratorShape> ParseGeneratorShape(std::string_view name) {
  if (name == "classic") return GeneratorShape::kClassic;
  if (name == "real") return GeneratorShape::kReal;
  return std::nullopt;
}

nlohmann::json GenerateApp(const GeneratorOptions& options) {
  gen::AppBuilder builder(options);
  return builder.Build();
}

}  // namespace roam::sim
