// sim_shell_ui: the commands that look at or touch the screen: uiautomator dump, dumpsys
// (window, activity, package) and input (tap, swipe, text, keyevent), with the hit test that
// turns coordinates into widget actions. Members run under SimAndroidDevice's mutex.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gui/uiautomator.h"
#include "serve/sim_shell.h"
#include "serve/sim_shell_internal.h"
#include "sim/spec.h"

namespace roam::serve {

using internal::kLongPressMs;
using internal::kTapSlopPx;

// --- Commands ---------------------------------------------------------------------------------

int64_t SimAndroidDevice::SettleLeftMs() const {
  return std::max<int64_t>(0, settled_at_ms_ - WallMs());
}

gui::Screen SimAndroidDevice::ShownScreen(bool settled) {
  gui::Screen screen = Screen();
  const int64_t left = settled ? 0 : SettleLeftMs();
  read_unsettled_ = left > 0 && settle_total_ms_ > 0 && !screen.widgets.empty();
  if (read_unsettled_) {
    // Still sliding in, as an activity's enter animation does: every view but the window's root
    // is drawn `left / settle_total_ms_` of the screen's width to the right of where it comes
    // to rest, so two reads a moment apart differ until it has settled.
    ++stats_.unsettled_reads;
    const int dx = static_cast<int>(screen.width * left / settle_total_ms_);
    for (size_t i = 1; i < screen.widgets.size(); ++i) {
      gui::Rect& b = screen.widgets[i].bounds;
      b.left = std::min(b.left + dx, screen.width);
      b.right = std::min(b.right + dx, screen.width);
    }
    return screen;
  }
  if (!focused_path_.empty()) {
    int w = screen.FindPath(focused_path_);
    if (w >= 0) screen.widgets[w].focused = true;
  }
  return screen;
}

int SimAndroidDevice::CmdUiautomator(const std::vector<std::string>& a, Io& io) {
  if (a.size() < 2 || a[1] != "dump") {
    io.out +=
        "Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\n"
        "help: displays help message\n\n"
        "dump: creates an XML dump of current UI hierarchy\n";
    return a.size() < 2 ? 0 : 1;
  }
  // uiautomator is a UiAutomation client, and a device has one UiAutomation connection: while the
  // UiAutomator2 server holds it, a dump fails as on a phone (the server goes on). A client must
  // release the server first (DELETE /session, am force-stop), as Appium's driver does.
  if (uia2_running_) {
    io.err +=
        "java.lang.IllegalStateException: UiAutomationService "
        "android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@7d4a2c1 already "
        "registered!\n"
        "\tat android.app.UiAutomationConnection.registerUiTestAutomationService"
        "(UiAutomationConnection.java:376)\n"
        "\tat android.app.UiAutomationConnection.connect(UiAutomationConnection.java:103)\n"
        "\tat com.android.commands.uiautomator.DumpCommand.run(DumpCommand.java:72)\n";
    return 1;
  }
  std::string file = "/sdcard/window_dump.xml";
  for (size_t k = 2; k < a.size(); ++k) {
    if (a[k] == "--compressed" || a[k] == "--verbose") continue;
    file = a[k];
  }
  // uiautomator dump waits for the UI to go idle first (DumpCommand: waitForIdle, up to 10 s): a
  // screen still settling is waited for, the wait added to what the command line costs.
  pace_owed_ms_ += SettleLeftMs();
  const gui::Screen screen = ShownScreen(/*settled=*/true);
  std::string xml = gui::WriteDump(screen);
  if (file == "/dev/tty" || file == "/dev/stdout") {
    io.out += xml;
  } else {
    files_[file] = xml;
  }
  io.out += "UI hierchary dumped to: " + file + "\n";
  return 0;
}

int SimAndroidDevice::CmdDumpsys(const std::vector<std::string>& a, Io& io) {
  const gui::Screen& screen = Screen();
  std::string full = FullActivity(screen.activity);
  if (screen.package != app_.package()) full = screen.package + "/" + screen.activity;
  std::string brief = screen.package == app_.package() ? ShortActivity(screen.activity) : full;
  size_t hash = std::hash<std::string>()(full);
  std::string window = fmt::format("Window{{{:x} u0 {}}}", hash & 0xffffff, full);
  int task = 10 + static_cast<int>(stats_.launches);
  std::string record =
      fmt::format("ActivityRecord{{{:x} u0 {} t{}}}", (hash >> 24) & 0xffffff, brief, task);
  std::string service = a.size() > 1 ? a[1] : "";
  if (service == "window") {
    std::string what = a.size() > 2 ? a[2] : "";
    if (what == "displays") {
      io.out += fmt::format(
          "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n"
          "  Display: mDisplayId=0\n    init={}x{} 420dpi cur={}x{} app={}x{} "
          "rng=1080x1017-1920x1857\n",
          screen.width, screen.height, screen.width, screen.height, screen.width, screen.height);
      return 0;
    }
    io.out += "WINDOW MANAGER WINDOWS (dumpsys window windows)\n";
    io.out += fmt::format(
        "  Window #0 {}:\n    mDisplayId=0 rootTaskId={} mSession=Session{{"
        "7f1c2d0 {}:u0a{}}} mClient=android.os.BinderProxy@3b5e2a1\n",
        window, task, app_pid_, 100 + index_);
    io.out += "    mHasSurface=true isReadyForDisplay()=true mWindowRemovalAllowed=false\n\n";
    io.out += "  mCurrentFocus=" + window + "\n";
    io.out += "  mFocusedApp=" + record + "\n";
    return 0;
  }
  if (service == "activity") {
    io.out +=
        "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n"
        "Display #0 (activities from top to bottom):\n";
    io.out += fmt::format(
        "  * Task{{2c9e1f0 #{} type=standard A=10{}:{} U=0 visible=true "
        "mode=fullscreen translucent=false sz=1}}\n",
        task, 100 + index_, screen.package);
    io.out += "    mResumedActivity: " + record + "\n";
    io.out += "  ResumedActivity: " + record + "\n";
    return 0;
  }
  if (service == "package") {
    std::string pkg = a.size() > 2 ? a[2] : "";
    if (auto it = installed_.find(pkg); it != installed_.end()) {
      io.out += fmt::format(
          "Packages:\n  Package [{}] ({:x}):\n    userId=10{}\n    versionCode={} minSdk=26 "
          "targetSdk=34\n    versionName={}\n",
          pkg, std::hash<std::string>()(pkg) & 0xffffff, 200 + installed_.size(),
          std::max<int64_t>(it->second.version_code, 0), it->second.version_name);
      return 0;
    }
    if (pkg != app_.package()) {
      io.out += "Unable to find package: " + pkg + "\n";
      return 0;
    }
    io.out += ActivityResolverTable();
    if (auto actions = app_.Broadcasts(); !actions.empty()) {
      // One receiver taking them all, as a manifest's <receiver> with one <intent-filter>.
      io.out += "\nReceiver Resolver Table:\n  Non-Data Actions:\n";
      for (const auto& act : actions) {
        io.out += fmt::format("      {}:\n        {:x} {}/.SystemEventReceiver filter 5c0e2a1\n",
                              act, std::hash<std::string>()(act) & 0xffffff, pkg);
        for (const auto& each : actions) io.out += "          Action: \"" + each + "\"\n";
        io.out += "          mPriority=0, mOrder=0, mHasStaticPartialTypes=false\n";
      }
    }
    io.out += fmt::format(
        "\nPackages:\n  Package [{}] ({:x}):\n    userId=10{}\n"
        "    versionName=1.0\n",
        pkg, std::hash<std::string>()(pkg) & 0xffffff, 100 + index_);
    return 0;
  }
  io.out += "Can't find service: " + service + "\n";
  return 0;
}

std::string SimAndroidDevice::ActivityResolverTable() const {
  // As PackageManager dumps it: each filter under each of its schemes (filters with data) or of
  // its actions (without), the launcher's MAIN/LAUNCHER among them; exported is not said.
  std::vector<gui::DeclaredActivity> activities = app_.DeclaredActivities();
  const std::string& start = app_.spec().screens()[app_.spec().start()].activity;
  for (auto& a : activities)
    if (a.name == start)
      a.filters.insert(a.filters.begin(), {.actions = {"android.intent.action.MAIN"},
                                           .categories = {"android.intent.category.LAUNCHER"}});
  std::map<std::string, std::string> schemes, actions;  // key -> its entries
  for (const auto& a : activities) {
    for (size_t i = 0; i < a.filters.size(); ++i) {
      const gui::IntentFilter& f = a.filters[i];
      const auto hash = [](const std::string& s) {
        return std::hash<std::string>()(s) & 0xfffffff;
      };
      std::string entry = fmt::format("        {:x} {} filter {:x}\n", hash(a.name),
                                      ShortActivity(a.name), hash(a.name + std::to_string(i)));
      for (const auto& x : f.actions) entry += fmt::format("          Action: \"{}\"\n", x);
      for (const auto& x : f.categories) entry += fmt::format("          Category: \"{}\"\n", x);
      for (const auto& x : f.schemes) entry += fmt::format("          Scheme: \"{}\"\n", x);
      for (const auto& x : f.hosts) entry += fmt::format("          Authority: \"{}\": -1\n", x);
      for (const auto& x : f.paths)
        entry += fmt::format("          Path: \"PatternMatcher{{PREFIX: {}}}\"\n", x);
      for (const auto& key : f.schemes.empty() ? f.actions : f.schemes)
        (f.schemes.empty() ? actions : schemes)[key] += entry;
    }
  }
  std::string out = "Activity Resolver Table:\n";
  for (const auto& [title, part] :
       {std::pair{"Schemes", &schemes}, {"Non-Data Actions", &actions}}) {
    if (part->empty()) continue;
    out += fmt::format("  {}:\n", title);
    for (const auto& [key, entries] : *part) out += fmt::format("      {}:\n{}", key, entries);
    out += "\n";
  }
  return out;
}

namespace {
struct KeyName {
  const char* name;
  int code;
};
constexpr KeyName kKeys[] = {
    {"HOME", 3},         {"BACK", 4},          {"CALL", 5},         {"ENDCALL", 6},
    {"DPAD_UP", 19},     {"DPAD_DOWN", 20},    {"DPAD_LEFT", 21},   {"DPAD_RIGHT", 22},
    {"DPAD_CENTER", 23}, {"VOLUME_UP", 24},    {"VOLUME_DOWN", 25}, {"POWER", 26},
    {"CAMERA", 27},      {"TAB", 61},          {"SPACE", 62},       {"ENTER", 66},
    {"DEL", 67},         {"MENU", 82},         {"SEARCH", 84},      {"MEDIA_PLAY_PAUSE", 85},
    {"ESCAPE", 111},     {"VOLUME_MUTE", 164}, {"APP_SWITCH", 187},
};

std::optional<std::string> KeyNameOf(std::string key) {
  if (key.rfind("KEYCODE_", 0) == 0) key = key.substr(8);
  bool numeric = !key.empty() && std::all_of(key.begin(), key.end(), ::isdigit);
  for (const auto& k : kKeys) {
    if ((numeric && std::atoi(key.c_str()) == k.code) || key == k.name) return std::string(k.name);
  }
  return std::nullopt;
}

// The widget of the top window under (x, y) that `want` accepts, deepest first; -1 if none.
int HitTest(const gui::Screen& s, int x, int y,
            const std::function<bool(const gui::Widget&)>& want) {
  int top_root = -1;
  for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i)
    if (s.widgets[i].parent == -1) top_root = i;
  if (top_root < 0 || !s.widgets[top_root].bounds.Contains(x, y)) return -1;
  int best = -1;
  for (int i = top_root; i < s.widgets[top_root].subtree_end; ++i) {
    const gui::Widget& w = s.widgets[i];
    if (!w.enabled || !w.bounds.Contains(x, y) || !want(w)) continue;
    if (best < 0 || w.depth >= s.widgets[best].depth) best = i;
  }
  return best;
}

bool Tappable(const gui::Widget& w) {
  return w.clickable || w.checkable || w.long_clickable || w.editable;
}
}  // namespace

// --- Touches, text and keys: what `input` and the UiAutomator2 server's endpoints send ----------

void SimAndroidDevice::Touch(int x, int y, bool long_press) {
  if (dialog_ != Dialog::kNone) {  // modal: only its buttons answer
    ++stats_.input_events;
    DialogTouch(x, y);
    AfterChange();
    return;
  }
  const gui::Screen& s = Screen();
  int w = HitTest(s, x, y, Tappable);
  if (w < 0) {
    ++stats_.input_events;  // a tap on nothing
    return;
  }
  if (s.widgets[w].editable) focused_path_ = s.PathOf(w);
  Perform(gui::MakeWidgetAction(long_press ? gui::ActionKind::kLongClick : gui::ActionKind::kClick,
                                s, w));
}

void SimAndroidDevice::TouchSwipe(int x, int y, int x2, int y2, int duration_ms) {
  if (std::abs(x2 - x) <= kTapSlopPx && std::abs(y2 - y) <= kTapSlopPx)
    return Touch(x, y, duration_ms >= kLongPressMs);
  if (dialog_ != Dialog::kNone) {
    ++stats_.input_events;  // a dialog does not scroll
    return;
  }
  const gui::Screen& s = Screen();
  int dx = x2 - x, dy = y2 - y;
  bool vertical = std::abs(dy) >= std::abs(dx);
  int w = HitTest(s, x, y, [](const gui::Widget& w) { return w.scrollable; });
  using K = gui::ActionKind;
  if (w >= 0) {
    K kind = vertical ? (dy < 0 ? K::kScrollDown : K::kScrollUp)
                      : (dx < 0 ? K::kScrollRight : K::kScrollLeft);
    Perform(gui::MakeWidgetAction(kind, s, w));
  } else {
    K kind = vertical ? (dy < 0 ? K::kSwipeUp : K::kSwipeDown)
                      : (dx < 0 ? K::kSwipeLeft : K::kSwipeRight);
    Perform(gui::MakeGlobalAction(kind));
  }
}

bool SimAndroidDevice::TypeText(const std::string& text) {
  if (dialog_ != Dialog::kNone) {
    ++stats_.input_events;
    return false;
  }
  const gui::Screen& s = Screen();
  int w = focused_path_.empty() ? -1 : s.FindPath(focused_path_);
  if (w < 0) {
    for (int i = 0; i < static_cast<int>(s.widgets.size()); ++i)
      if (s.widgets[i].focused && s.widgets[i].editable) w = i;
  }
  if (w < 0) {
    ++stats_.input_events;  // typed into nothing, as on a device without a focused field
    return false;
  }
  gui::Action act = gui::MakeWidgetAction(gui::ActionKind::kInputText, s, w);
  act.text = text;
  Perform(act);
  return true;
}

bool SimAndroidDevice::Key(const std::string& name_or_code) {
  auto key = KeyNameOf(name_or_code);
  if (!key) return false;
  if (dialog_ != Dialog::kNone) {
    ++stats_.input_events;
    if (*key == "BACK") DialogBack();
    AfterChange();
    return true;
  }
  if (*key == "BACK")
    Perform(gui::MakeGlobalAction(gui::ActionKind::kBack));
  else if (*key == "MENU")
    Perform(gui::MakeGlobalAction(gui::ActionKind::kMenu));
  else
    Perform(gui::MakeGlobalAction(gui::ActionKind::kKey, *key));
  return true;
}

int SimAndroidDevice::CmdInput(const std::vector<std::string>& a0, Io& io) {
  std::vector<std::string> a(a0.begin() + 1, a0.end());
  static const char* kSources[] = {"touchscreen", "keyboard",  "mouse",  "touchpad", "dpad",
                                   "gamepad",     "trackball", "stylus", "joystick", "keyboard"};
  if (!a.empty() && std::find(std::begin(kSources), std::end(kSources), a[0]) != std::end(kSources))
    a.erase(a.begin());
  auto usage = [&]() {
    io.err +=
        "Usage: input [<source>] <command> [<arg>...]\n\nThe commands and default sources are:\n"
        "      text <string> (Default: touchscreen)\n"
        "      keyevent [--longpress] <key code number or name> ... (Default: keyboard)\n"
        "      tap <x> <y> (Default: touchscreen)\n"
        "      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n";
    return 1;
  };
  if (a.empty()) return usage();
  auto num = [](const std::string& t, int* out) {
    char* end = nullptr;
    double v = std::strtod(t.c_str(), &end);
    if (end == t.c_str() || *end != '\0') return false;
    // Out of int's range (or NaN) is no coordinate: casting it would be undefined.
    if (!(v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max()))
      return false;
    *out = static_cast<int>(v);
    return true;
  };
  const std::string& cmd = a[0];
  if (cmd == "tap" || cmd == "swipe" || cmd == "draganddrop") {
    size_t need = cmd == "tap" ? 3 : 5;
    int v[5] = {0, 0, 0, 0, 0};
    if (a.size() < need) return usage();
    for (size_t k = 1; k < need; ++k) {
      if (!num(a[k], &v[k - 1])) {
        io.err += "Error: NumberFormatException: For input string: \"" + a[k] + "\"\n";
        return 1;
      }
    }
    int duration = 0;
    if (cmd != "tap" && a.size() > 5 && !num(a[5], &duration)) return usage();
    if (cmd == "tap")
      Touch(v[0], v[1], false);
    else
      TouchSwipe(v[0], v[1], v[2], v[3], duration);
    return 0;
  }
  if (cmd == "text") {
    if (a.size() < 2) return usage();
    std::string text = a[1];
    for (size_t p = text.find("%s"); p != std::string::npos; p = text.find("%s", p + 1))
      // Same as replace(p, 2, " "), which trips a GCC 12 -Wrestrict false positive at -O3.
      text.replace(p, 2, 1, ' ');
    TypeText(text);
    return 0;
  }
  if (cmd == "keyevent") {
    size_t k = 1;
    if (k < a.size() && (a[k] == "--longpress" || a[k] == "--doubletap")) ++k;
    if (k >= a.size()) return usage();
    for (; k < a.size(); ++k)
      if (!Key(a[k])) io.err += "Unknown keycode: " + a[k] + "\n";
    return 0;
  }
  io.err += "Error: Unknown command: " + cmd + "\n";
  return usage();
}

}  // namespace roam::serve
