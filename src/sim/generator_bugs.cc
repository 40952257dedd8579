// Planted bugs of a generated app: crashes and ANRs (in a button of their own, or behind a
// form's Save once the input is valid), a Save that drops an entry (data_loss), a Delete that
// removes the wrong row (wrong_behaviour) and a button that stops working after another action
// (function_stops). Each is declared in `bugs` and gated by `bug` / `fix` effects.
#include <algorithm>
#include <cctype>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "sim/generator_internal.h"

namespace roam::sim::gen {
namespace {

enum class BugKind { kCrash, kAnr, kDataLoss, kWrongBehaviour, kFunctionStops };
struct KindInfo {
  BugKind kind;
  const char* name;     // the spec's kind
  const char* id_part;  // in the bug id
  double weight;        // share among the bugs after the first (always a crash)
};
const std::vector<KindInfo> kKinds = {
    {BugKind::kCrash, "crash", "crash", 0.4},
    {BugKind::kAnr, "anr", "anr", 0.15},
    {BugKind::kDataLoss, "data_loss", "data-loss", 0.15},
    {BugKind::kWrongBehaviour, "wrong_behaviour", "wrong-delete", 0.15},
    {BugKind::kFunctionStops, "function_stops", "stops-working", 0.15}};

// Where the i-th bug goes, in turn: any screen, one of the deepest, behind a form.
enum class Placement { kAnywhere, kDeep, kForm, kCount };

struct ExceptionKind {
  const char* cls;
  const char* message;  // `%` stands for the screen's noun; no braces (messages are templates)
};
const std::vector<ExceptionKind> kExceptions = {
    {"java.lang.NullPointerException",
     "Attempt to invoke virtual method 'java.lang.String java.lang.String.trim()' on a null "
     "object reference"},
    {"java.lang.IllegalStateException", "Fragment %Fragment not attached to a context."},
    {"java.lang.IndexOutOfBoundsException", "Index: 3, Size: 3"},
    {"java.lang.NumberFormatException", "For input string: \"\""},
    {"java.lang.ClassCastException", "java.lang.Integer cannot be cast to java.lang.String"},
    {"java.lang.IllegalArgumentException",
     "Parameter specified as non-null is null: method checkNotNullParameter, parameter %"},
    {"java.lang.ArithmeticException", "divide by zero"},
    {"android.database.sqlite.SQLiteConstraintException",
     "UNIQUE constraint failed: %.title (code 2067 SQLITE_CONSTRAINT_UNIQUE)"},
    {"java.util.ConcurrentModificationException", "null"}};
const std::vector<std::string> kCrashActions = {"Export", "Share",  "Sync",   "Print",
                                                "Upload", "Attach", "Import", "Duplicate"};
const std::vector<std::string> kAnrActions = {"Load all", "Sync now", "Backup", "Rebuild index",
                                              "Refresh all"};
const std::vector<std::string> kRepositoryMethods = {"load", "query", "save", "insert", "merge"};
// function_stops: {the button that stops working, the action after which it does}.
const std::vector<std::pair<std::string, std::string>> kStopPairs = {{"Play", "Open in browser"},
                                                                     {"Refresh", "Share link"},
                                                                     {"Like", "Copy link"},
                                                                     {"Sync", "Rename"},
                                                                     {"Upload", "Change folder"}};

// System broadcasts apps take while a screen is in front, and the status line each shows.
const std::vector<std::pair<std::string, std::string>> kBroadcasts = {
    {"android.net.conn.CONNECTIVITY_CHANGE", "Connection changed: syncing"},
    {"android.intent.action.BATTERY_LOW", "Battery low: sync paused"},
    {"android.intent.action.BATTERY_OKAY", "Battery okay: sync resumed"},
    {"android.intent.action.ACTION_POWER_CONNECTED", "Charging: backup started"},
    {"android.intent.action.ACTION_POWER_DISCONNECTED", "On battery: backup paused"},
    {"android.intent.action.AIRPLANE_MODE", "Airplane mode changed"},
    {"android.intent.action.TIMEZONE_CHANGED", "Times shown in the new time zone"},
    {"android.intent.action.LOCALE_CHANGED", "Language changed"},
    {"android.intent.action.HEADSET_PLUG", "Headset changed"},
    {"android.intent.action.DEVICE_STORAGE_LOW", "Storage low: downloads paused"}};
// What Android's receiver dispatch puts below a dynamically registered receiver's onReceive.
const std::vector<std::string> kReceiverFrames = {
    "android.app.LoadedApk$ReceiverDispatcher$Args.lambda$getRunnable$0(LoadedApk.java:1790)",
    "android.os.Handler.handleCallback(Handler.java:942)",
    "android.os.Handler.dispatchMessage(Handler.java:99)",
    "android.os.Looper.loopOnce(Looper.java:201)",
    "android.os.Looper.loop(Looper.java:288)",
    "android.app.ActivityThread.main(ActivityThread.java:7918)"};
constexpr uint64_t kReceiverStream = 0x5ec0'b0a5'7ca5'7e11;  // PlantReceivers' own seed offset

constexpr double kRepeatShare = 0.3;  // faults that need a second tap
constexpr int kRepeatFaultAt = 2;     // ... the tap count at which they fire
constexpr int kDataLossAfter = 2;     // the buggy Save drops entries once this many exist
constexpr int kDataLossInitial = 1;   // entries the data_loss list starts with
constexpr int kWrongDeleteRows = 4;   // rows the wrong_behaviour list starts with
constexpr double kConfirmDeleteShare = 0.5;
constexpr int kFirstFrameLine = 30;
constexpr int kFrameLineSpan = 300;

std::string Compact(const std::string& text) {  // "Load all" -> "LoadAll"
  std::string out;
  bool upper = true;
  for (char c : text) {
    if (c == ' ') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

std::string Snake(const std::string& text) {  // "Load all" -> "load_all"
  std::string out;
  for (char c : text) out += c == ' ' ? '_' : static_cast<char>(std::tolower(c));
  return out;
}

json Cover(const std::string& unit) { return {{"cover", json::array({unit})}}; }

std::string Ordinal(int n) {
  static const std::vector<std::string> kWords = {"zeroth", "first", "second", "third"};
  return n >= 0 && n < static_cast<int>(kWords.size()) ? kWords[n] : fmt::format("{}th", n);
}

}  // namespace

void AppBuilder::PlantBugs() {
  if (opt_.bugs == 0) return;
  std::vector<int> deepest(screens_.size());
  std::iota(deepest.begin(), deepest.end(), 0);
  std::stable_sort(deepest.begin(), deepest.end(),
                   [&](int a, int b) { return screens_[a].depth > screens_[b].depth; });
  std::vector<int> forms;
  for (size_t s = 0; s < screens_.size(); ++s)
    if (screens_[s].form_submit >= 0) forms.push_back(static_cast<int>(s));
  std::vector<double> weights;
  for (const KindInfo& k : kKinds) weights.push_back(k.weight);

  size_t next_deep = 0;
  std::set<std::pair<int, BugKind>> hosted;  // (screen, kind) of each bug planted
  for (int i = 0; i < opt_.bugs; ++i) {
    const KindInfo& kind = i == 0 ? kKinds[0] : kKinds[rng_.Weighted(weights)];
    auto placement = static_cast<Placement>(i % static_cast<int>(Placement::kCount));
    int host = static_cast<int>(rng_.Below(screens_.size()));
    bool in_form = false;
    if (placement == Placement::kDeep) {
      host = deepest[next_deep++ % deepest.size()];
    } else if (placement == Placement::kForm && !forms.empty()) {
      host = forms[rng_.Below(forms.size())];
      in_form = true;
    }
    // A screen hosts one functional bug of a kind: a second would add buttons of the same labels
    // (two "Upload"s, two lists with their Remove) and no report could be told to be either's.
    // Another screen is drawn instead (the classic shape keeps its bytes, and its twins).
    const bool functional = kind.kind != BugKind::kCrash && kind.kind != BugKind::kAnr;
    for (size_t tries = 0;
         real() && functional && hosted.count({host, kind.kind}) && tries < screens_.size();
         ++tries) {
      host = placement == Placement::kDeep ? deepest[next_deep++ % deepest.size()]
                                           : static_cast<int>(rng_.Below(screens_.size()));
      in_form = false;
    }
    hosted.emplace(host, kind.kind);
    std::string id = fmt::format("gen-{}-{}", kind.id_part, i + 1);
    ScreenDraft& d = screens_[host];
    std::pair<std::string, std::string> truth;  // summary, correct
    switch (kind.kind) {
      case BugKind::kCrash:
      case BugKind::kAnr:
        truth = PlantFault(d, id, kind.kind == BugKind::kAnr, in_form);
        break;
      case BugKind::kDataLoss:
        truth = PlantDataLoss(d, id);
        break;
      case BugKind::kWrongBehaviour:
        truth = PlantWrongDelete(d, id);
        break;
      case BugKind::kFunctionStops:
        truth = PlantFunctionStops(d, id);
        break;
    }
    bugs_.push_back(
        {{"id", id}, {"kind", kind.name}, {"summary", truth.first}, {"correct", truth.second}});
    // Which of these no independent event sequence exposes (docs/app-spec.md), so Genie's
    // oracle cannot see it: the dropped Save needs more entries saved first, through the very
    // field and button the seed uses. (Left out of the classic shape, which keeps its bytes; a
    // real-shape wrong delete has its Add, which puts a row in front of the one removed.)
    if (kind.kind == BugKind::kDataLoss && real()) bugs_.back()["seen_by"] = "other";
    ground_truth_.push_back(fmt::format("{} ({}) on {} [{}, depth {}]: {}.", id, kind.name, d.title,
                                        Route(host), d.depth, truth.first));
  }
}

void AppBuilder::PlantReceivers() {
  Rng rng(opt_.seed ^ kReceiverStream);
  std::vector<int> hosts;  // screens with a receiver (not the start screen); the first crash
  for (size_t s = 1; s < screens_.size(); ++s)
    if (rng.Chance(opt_.receiver_ratio)) hosts.push_back(static_cast<int>(s));
  const size_t bugs = std::min(hosts.size(), static_cast<size_t>(opt_.broadcast_bugs));
  for (size_t k = bugs; k-- > 0;) std::swap(hosts[k], hosts[rng.Below(hosts.size() - k) + k]);
  for (size_t k = hosts.size(); k < static_cast<size_t>(opt_.broadcast_bugs); ++k)  // too few
    if (screens_.size() > 1) hosts.push_back(1 + static_cast<int>(rng.Below(screens_.size() - 1)));
  for (size_t k = 0; k < hosts.size(); ++k) {
    ScreenDraft& d = screens_[hosts[k]];
    const auto& [action, status] = kBroadcasts[rng.Below(kBroadcasts.size())];
    const std::string key = "broadcast:" + action;
    if (d.on.contains(key)) continue;  // one receiver of an action a screen
    const std::string receiver = d.cls + "$" + std::to_string(k + 1);
    const std::string unit = Unit(d, fmt::format("receiver{}", k + 1));
    json handler = json::array();
    if (k < static_cast<size_t>(opt_.broadcast_bugs)) {
      const std::string id = fmt::format("gen-broadcast-crash-{}", opt_.bugs + k + 1);
      std::vector<std::string> frames = {fmt::format("{}.{}.{}.onReceive({}.java:{})", package_,
                                                     d.subpackage, receiver, d.cls,
                                                     kFirstFrameLine + rng.Below(kFrameLineSpan))};
      frames.insert(frames.end(), kReceiverFrames.begin(), kReceiverFrames.end());
      handler.push_back(
          {{"crash",
            {{"exception", "java.lang.NullPointerException"},
             {"message",
              "Attempt to invoke virtual method 'void android.widget.TextView.setText("
              "java.lang.CharSequence)' on a null object reference"},
             {"frames", frames}}},
           {"bug", id}});
      const std::string summary = fmt::format(
          "{} arriving while {} is shown crashes the app with "
          "java.lang.NullPointerException",
          action, d.title);
      bugs_.push_back({{"id", id},
                       {"kind", "crash"},
                       {"summary", summary},
                       {"correct", fmt::format("\"{}\" is shown", status)}});
      ground_truth_.push_back(fmt::format("{} (crash) on {} [{}, depth {}]: {}.", id, d.title,
                                          Route(hosts[k]), d.depth, summary));
    }
    const std::string var = NewVar(d, fmt::format("system_status{}", k + 1), "");
    handler.push_back({{"set", var}, {"to", status}});
    handler.push_back(Cover(unit));
    d.on[key] = handler;
    d.widgets.push_back({{"id", UniqueId(d, "system_status")},
                         {"text", "{var." + var + "}"},
                         {"visible_if", {{"ne", json::array({"$var." + var, ""})}}}});
  }
}

std::string AppBuilder::Route(int screen) const {
  std::vector<std::string> titles;
  for (int s = screen; s >= 0; s = screens_[s].parent) titles.push_back(screens_[s].id);
  std::reverse(titles.begin(), titles.end());
  std::string out;
  for (const auto& t : titles) out += (out.empty() ? "" : " > ") + t;
  return out;
}

std::vector<std::string> AppBuilder::FaultFrames(const ScreenDraft& d, const std::string& method) {
  std::string repo = d.noun + "Repository";
  std::vector<std::string> frames = {
      fmt::format("{}.data.{}.{}({}.java:{})", package_, repo, Pick(kRepositoryMethods), repo,
                  kFirstFrameLine + rng_.Below(kFrameLineSpan)),
      Frame(d, method)};
  frames.insert(frames.end(), kClickFrames.begin(), kClickFrames.end());
  return frames;
}

std::pair<std::string, std::string> AppBuilder::PlantFault(ScreenDraft& d, const std::string& id,
                                                           bool hang, bool in_form) {
  std::string what;
  json fault;
  if (hang) {
    fault = {{"message", fmt::format("Input dispatching timed out ({}/.{}.{}, Waiting because "
                                     "the focused window has not finished processing the input "
                                     "events that were previously delivered to it)",
                                     package_, d.subpackage, d.cls)}};
    what = "freezes (ANR)";
  } else {
    const ExceptionKind& ex = kExceptions[rng_.Below(kExceptions.size())];
    std::string message = ex.message;
    if (size_t at = message.find('%'); at != std::string::npos) message.replace(at, 1, d.noun);
    fault = {{"exception", ex.cls}, {"message", message}};
    what = fmt::format("crashes with {}", ex.cls);
  }
  const char* verb = hang ? "hang" : "crash";
  if (in_form) {
    json& button = d.widgets[d.form_submit];
    fault["frames"] = FaultFrames(d, "onSubmit");
    json& click = button["on"]["click"];
    // From the second valid submission on (since launch), so the first still leads on: a
    // form gating the way deeper must not wall off the rest of the app.
    std::string submits = NewVar(d, "submits", 0);
    json effect = {{verb, fault},
                   {"bug", id},
                   {"if", {{"ge", json::array({"$var." + submits, kRepeatFaultAt})}}}};
    click.insert(click.begin() + d.form_checks, effect);
    click.insert(click.begin() + d.form_checks, json{{"inc", submits}});
    std::string label = button["text"];
    return {fmt::format("Tapping {} on {} with valid input in every field {} from the {} "
                        "submission since launch on",
                        label, d.title, what, Ordinal(kRepeatFaultAt)),
            fmt::format("The form is accepted every time and {} goes on", label)};
  }
  std::string action = Pick(hang ? kAnrActions : kCrashActions);
  std::string method = "on" + Compact(action);
  fault["frames"] = FaultFrames(d, method);
  json click = json::array();
  json effect = {{verb, fault}, {"bug", id}};
  bool repeat = rng_.Chance(kRepeatShare);
  if (repeat) {
    std::string taps = NewVar(d, Snake(action) + "_taps", 0);
    click.push_back({{"inc", taps}});
    effect["if"] = {{"ge", json::array({"$var." + taps, kRepeatFaultAt})}};
  }
  click.push_back(effect);
  std::string status = NewVar(d, Snake(action) + "_status", "");
  click.push_back({{"set", status}, {"to", action + " finished"}});
  click.push_back(Cover(Unit(d, method)));
  d.widgets.push_back(
      {{"id", UniqueId(d, "btn_" + Snake(action))}, {"text", action}, {"on", {{"click", click}}}});
  d.widgets.push_back({{"id", UniqueId(d, Snake(action) + "_status")},
                       {"text", "{var." + status + "}"},
                       {"visible_if", {{"ne", json::array({"$var." + status, ""})}}}});
  return {fmt::format("Tapping {} on {}{} {}", action, d.title,
                      repeat ? fmt::format(" {} times", kRepeatFaultAt) : "", what),
          fmt::format("{} finishes and \"{} finished\" is shown", action, action)};
}

std::pair<std::string, std::string> AppBuilder::PlantDataLoss(ScreenDraft& d,
                                                              const std::string& id) {
  std::string list = NewList(d, "drafts", SampleItems(kDataLossInitial));
  std::string field = UniqueId(d, "edit_draft_title");
  std::string ref = "$len." + list;
  json item = {{"title", "$input." + field}};
  json save = json::array({{{"stop", true}, {"if", {{"not", {{"valid", field}}}}}},
                           {{"add_item", list}, {"item", item}, {"fix", id}},
                           {{"add_item", list},
                            {"item", item},
                            {"bug", id},
                            {"if", {{"lt", json::array({ref, kDataLossAfter})}}}},
                           Cover(Unit(d, "saveDraft"))});
  d.widgets.push_back({{"id", UniqueId(d, "draft_count")}, {"text", "{len." + list + "} saved"}});
  d.widgets.push_back(
      {{"id", field}, {"hint", d.noun + " title"}, {"input", {{"min", 1}, {"max", 40}}}});
  d.widgets.push_back(
      {{"id", UniqueId(d, "btn_save_draft")}, {"text", "Save"}, {"on", {{"click", save}}}});
  d.widgets.push_back(
      {{"id", UniqueId(d, "list_drafts")},
       {"list", list},
       {"row", json::array({{{"id", UniqueId(d, "draft_title")}, {"text", "{row.title}"}}})}});
  return {fmt::format("On {}, once {} entries exist, Save with a valid title drops the new entry "
                      "(the \"saved\" count stays the same)",
                      d.title, kDataLossAfter),
          "Every Save with a valid title adds the entry to the list"};
}

std::pair<std::string, std::string> AppBuilder::PlantWrongDelete(ScreenDraft& d,
                                                                 const std::string& id) {
  std::string list = NewList(d, "entries", SampleItems(kWrongDeleteRows));
  json remove = json::array({{{"remove_item", list}, {"at", "$row"}, {"fix", id}},
                             {{"remove_item", list}, {"at", 0}, {"bug", id}},
                             Cover(Unit(d, "removeEntry"))});
  json click = remove;
  if (rng_.Chance(kConfirmDeleteShare)) {
    remove.push_back({{"dismiss", true}});
    json dialog = {
        {"title", "Remove entry?"},
        {"message", "{row.title} will be removed."},
        {"widgets", json::array({{{"id", "cancel"},
                                  {"text", "Cancel"},
                                  {"resource_id", "android:id/button2"},
                                  {"on", {{"click", json::array({{{"dismiss", true}}})}}}},
                                 {{"id", "ok"},
                                  {"text", "OK"},
                                  {"resource_id", "android:id/button1"},
                                  {"on", {{"click", remove}}}}})}};
    click = json::array({{{"dialog", NewDialog("confirm_remove_" + d.snake, dialog)}}});
  }
  // A list one can remove from, one can add to (real shape): newest first, so a row added puts
  // the others one down, and removing the one that was first now takes the new one (Genie's
  // independent-view property sees that). No random draw: the rest of the app stays the same.
  if (real())
    d.widgets.push_back(
        {{"id", UniqueId(d, "btn_add_entry")},
         {"text", "Add"},
         {"on",
          {{"click",
            json::array({{{"add_item", list}, {"item", {{"title", "New entry"}}}, {"at", 0}},
                         Cover(Unit(d, "addEntry"))})}}}});
  d.widgets.push_back(
      {{"id", UniqueId(d, "list_entries")},
       {"list", list},
       {"row", json::array({{{"id", UniqueId(d, "entry_title")}, {"text", "{row.title}"}},
                            {{"id", UniqueId(d, "entry_remove")},
                             {"text", "Remove"},
                             {"on", {{"click", click}}}}})}});
  return {fmt::format("On {}, removing any entry but the first removes the first entry instead",
                      d.title),
          "Remove removes the entry of its own row"};
}

std::pair<std::string, std::string> AppBuilder::PlantFunctionStops(ScreenDraft& d,
                                                                   const std::string& id) {
  const auto& [main, breaker] = kStopPairs[rng_.Below(kStopPairs.size())];
  std::string count = NewVar(d, Snake(main) + "_count", 0);
  std::string broken = NewVar(d, Snake(breaker) + "_used", false);
  json main_click =
      json::array({{{"stop", true}, {"if", {{"truthy", "$var." + broken}}}, {"bug", id}},
                   {{"inc", count}},
                   Cover(Unit(d, "on" + Compact(main)))});
  json breaker_click =
      json::array({{{"set", broken}, {"to", true}}, Cover(Unit(d, "on" + Compact(breaker)))});
  d.widgets.push_back({{"id", UniqueId(d, Snake(main) + "_count")},
                       {"text", main + " count: {var." + count + "}"}});
  d.widgets.push_back(
      {{"id", UniqueId(d, "btn_" + Snake(main))}, {"text", main}, {"on", {{"click", main_click}}}});
  d.widgets.push_back({{"id", UniqueId(d, "btn_" + Snake(breaker))},
                       {"text", breaker},
                       {"on", {{"click", breaker_click}}}});
  return {fmt::format("On {}, after \"{}\" has been tapped, \"{}\" does nothing any more (its "
                      "count stops increasing)",
                      d.title, breaker, main),
          fmt::format("\"{}\" keeps working: each tap increases its count", main)};
}

}  // namespace roam::sim::gen
