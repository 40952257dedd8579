// Activities of a generated app that only outside its GUI reaches (shape kReal): exported, no
// button leads to them; some take a deep link, some read extras, and some of those extras crash
// the app when an intent sends them missing or of another type (gen-intent-crash-<i>), as real
// apps do with getStringExtra(..).length() and casts of Bundle values.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/utf8.h"
#include "sim/generator_internal.h"

namespace roam::sim::gen {
namespace {

enum class Entry { kDeepLink, kExtras, kPlain };
struct EntryName {
  const char* id;  // `%` stands for the noun
  const char* title;
  Entry entry;
};
const std::vector<EntryName> kEntries = {{"%Link", "% link", Entry::kDeepLink},
                                         {"Open%", "Open %", Entry::kDeepLink},
                                         {"ShareTo%", "Share to %", Entry::kExtras},
                                         {"%FromNotification", "% notification", Entry::kExtras},
                                         {"%Shortcut", "% shortcut", Entry::kPlain},
                                         {"%WidgetSetup", "% widget setup", Entry::kPlain}};

struct ExtraKind {
  const char* key;
  const char* type;
  json value;
};
const std::vector<ExtraKind> kExtraKinds = {
    {"item_id", "int", 42},      {"title", "string", "Groceries"},
    {"query", "string", "rome"}, {"account", "string", "alice@example.com"},
    {"count", "int", 3},         {"notify", "bool", true}};

// How a planted extra crashes: what it reads and what is wrong with what it is sent.
struct CrashKind {
  const char* type;  // of the extra
  bool missing;      // else: sent with another type
  const char* exception;
  const char* message;
  const char* how;  // for the summary
};
const std::vector<CrashKind> kCrashKinds = {
    {"string", true, "java.lang.NullPointerException",
     "Attempt to invoke virtual method 'int java.lang.String.length()' on a null object reference",
     "without the extra"},
    {"string", false, "java.lang.ClassCastException",
     "java.lang.Integer cannot be cast to java.lang.String", "with the extra as an int"},
    {"int", false, "java.lang.ClassCastException",
     "java.lang.String cannot be cast to java.lang.Integer", "with the extra as a string"}};

// What Android puts below an activity's onCreate (a real Android 9 trace's Caused-by frames:
// AnkiDroid's DeckOptions crash in the Themis benchmark).
const std::vector<std::string> kCreateFrames = {
    "android.app.Activity.performCreate(Activity.java:7136)",
    "android.app.Activity.performCreate(Activity.java:7127)",
    "android.app.Instrumentation.callActivityOnCreate(Instrumentation.java:1271)",
    "android.app.ActivityThread.performLaunchActivity(ActivityThread.java:2893)",
    "android.app.ActivityThread.handleLaunchActivity(ActivityThread.java:3048)",
    "android.app.servertransaction.LaunchActivityItem.execute(LaunchActivityItem.java:78)",
    "android.app.servertransaction.TransactionExecutor.executeCallbacks(TransactionExecutor.java:"
    "108)",
    "android.app.servertransaction.TransactionExecutor.execute(TransactionExecutor.java:68)",
    "android.app.ActivityThread$H.handleMessage(ActivityThread.java:1808)",
    "android.os.Handler.dispatchMessage(Handler.java:106)",
    "android.os.Looper.loop(Looper.java:193)",
    "android.app.ActivityThread.main(ActivityThread.java:6669)"};

constexpr uint64_t kOutsideStream = 0x0075'751d'e5c4'ee17;  // PlantOutsideScreens' own seed offset
constexpr double kDefaultShare = 0.5;  // extras that show a default when missing (else: fine)
constexpr int kFirstFrameLine = 30;
constexpr int kFrameLineSpan = 200;

std::string Replace(std::string pattern, const std::string& noun) {
  const size_t at = pattern.find('%');
  if (at != std::string::npos) pattern.replace(at, 1, noun);
  return pattern;
}

json ExtraJson(const ExtraKind& kind, const std::string& key, Rng& rng) {
  return {{"key", key},
          {"type", kind.type},
          {"value", kind.value},
          {"missing", rng.Chance(kDefaultShare) ? "default" : "fine"},
          {"wrong_type", "fine"}};
}

}  // namespace

void AppBuilder::PlantOutsideScreens() {
  Rng rng(opt_.seed ^ kOutsideStream);
  const double r = opt_.outside_ratio;
  int count = static_cast<int>(std::lround(activity_count_ * r / (1.0 - r)));
  if (opt_.intent_bugs > 0) count = std::max(count, 1);
  std::set<std::string> taken;
  for (const ScreenDraft& s : screens_) taken.insert(s.id);
  std::vector<int> crash_hosts;
  for (int k = 0; k < count; ++k) {
    const bool hosts_crash = k < opt_.intent_bugs;
    std::vector<size_t> names;
    for (size_t e = 0; e < kEntries.size(); ++e)
      if (!hosts_crash || kEntries[e].entry == Entry::kExtras) names.push_back(e);
    const EntryName& name = kEntries[names[rng.Below(names.size())]];
    ScreenDraft d;
    d.noun = kNouns[rng.Below(kNouns.size())];
    d.id = Replace(name.id, d.noun);
    for (int n = 2; taken.count(d.id); ++n) d.id = fmt::format("{}{}", Replace(name.id, d.noun), n);
    taken.insert(d.id);
    d.cls = d.id + "Activity";
    d.subpackage = "ui." + AsciiLower(d.noun);
    d.title = Replace(name.title, d.noun);
    d.snake = AsciiLower(d.id);
    d.activity = activity_count_ + k;
    d.intent["exported"] = true;
    d.widgets.push_back({{"id", UniqueId(d, "header")}, {"text", d.title}});
    if (name.entry == Entry::kDeepLink) {
      const bool web = rng.Chance(0.5);
      const std::string path = "/" + AsciiLower(d.noun);
      json data = web ? json{{"scheme", "https"},
                             {"host", fmt::format("s{}.gen.example", opt_.seed)},
                             {"path_prefix", path}}
                      : json{{"scheme", fmt::format("gens{}", opt_.seed)},
                             {"host", "open"},
                             {"path_prefix", path}};
      d.intent["intent_filters"] = json::array(
          {{{"actions", json::array({"android.intent.action.VIEW"})},
            {"categories",
             json::array({"android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"})},
            {"data", json::array({data})}}});
      d.widgets.push_back({{"id", UniqueId(d, "opened")}, {"text", "Opened from a link"}});
    } else if (name.entry == Entry::kExtras && !hosts_crash) {
      const ExtraKind& kind = kExtraKinds[rng.Below(kExtraKinds.size())];
      d.intent["extras"] = json::array({ExtraJson(kind, kind.key, rng)});
      d.widgets.push_back(
          {{"id", UniqueId(d, "extra")}, {"text", fmt::format("{{extra.{}}}", kind.key)}});
    }
    d.widgets.push_back({{"id", UniqueId(d, "btn_open_app")},
                         {"text", "Open " + label_},
                         {"on", {{"click", json::array({{{"navigate", screens_[0].id}}})}}}});
    d.widgets.push_back({{"id", UniqueId(d, "btn_done")},
                         {"text", "Done"},
                         {"on", {{"click", json::array({{{"finish", true}}})}}}});
    if (hosts_crash) crash_hosts.push_back(static_cast<int>(screens_.size()));
    screens_.push_back(std::move(d));
  }
  outside_ = count;
  // The crashes: each an extra of its own on a host (round robin), read when the screen is made.
  for (int k = 0; k < opt_.intent_bugs && !crash_hosts.empty(); ++k) {
    ScreenDraft& d = screens_[crash_hosts[k % crash_hosts.size()]];
    const CrashKind& crash = kCrashKinds[rng.Below(kCrashKinds.size())];
    std::vector<const ExtraKind*> kinds;
    for (const ExtraKind& e : kExtraKinds)
      if (std::string(e.type) == crash.type) kinds.push_back(&e);
    const ExtraKind& kind = *kinds[rng.Below(kinds.size())];
    json& extras = d.intent["extras"];
    if (extras.is_null()) extras = json::array();
    std::string key = kind.key;
    auto used = [&](const std::string& k) {
      return std::any_of(extras.begin(), extras.end(),
                         [&](const json& e) { return e["key"] == k; });
    };
    for (int n = 2; used(key); ++n) key = fmt::format("{}{}", kind.key, n);
    const std::string id =
        fmt::format("gen-intent-crash-{}", opt_.bugs + opt_.broadcast_bugs + k + 1);
    std::vector<std::string> frames = {fmt::format("{}.{}.{}.onCreate({}.java:{})", package_,
                                                   d.subpackage, d.cls, d.cls,
                                                   kFirstFrameLine + rng.Below(kFrameLineSpan))};
    frames.insert(frames.end(), kCreateFrames.begin(), kCreateFrames.end());
    json extra = ExtraJson(kind, key, rng);
    extra[crash.missing ? "missing" : "wrong_type"] = {
        {"crash", {{"exception", crash.exception}, {"message", crash.message}, {"frames", frames}}},
        {"bug", id}};
    extras.push_back(std::move(extra));
    // Shown under the header, above the way into the app and Done.
    const json shown = {{"id", UniqueId(d, "extra")}, {"text", fmt::format("{{extra.{}}}", key)}};
    d.widgets.insert(d.widgets.begin() + 1, shown);
    const std::string component = fmt::format("{}.{}.{}", package_, d.subpackage, d.cls);
    const std::string summary =
        fmt::format("starting {} from outside {} \"{}\" crashes the app with {}", d.title,
                    crash.how, key, crash.exception);
    bugs_.push_back({{"id", id},
                     {"kind", "crash"},
                     {"summary", summary},
                     {"correct", fmt::format("{} opens and shows its default", d.title)}});
    ground_truth_.push_back(fmt::format("{} (crash) on {} [reached only from outside: {}]: {}.", id,
                                        d.title, component, summary));
  }
}

}  // namespace roam::sim::gen
