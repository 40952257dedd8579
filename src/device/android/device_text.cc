#include "device/android/device_text.h"

#include <algorithm>

#include <fmt/format.h>

#include "device/android/shell_escape.h"

namespace roam::device::android {

std::string StripCarriageReturns(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out += text[i];
  }
  return out;
}

std::optional<std::string_view> ExtractDump(std::string_view output) {
  size_t start = output.find("<?xml");
  if (start == std::string_view::npos) start = output.find("<hierarchy");
  if (start == std::string_view::npos) return std::nullopt;
  constexpr std::string_view kEnd = "</hierarchy>";
  size_t end = output.find(kEnd, start);
  if (end == std::string_view::npos) {
    // <hierarchy .../> with no nodes.
    size_t self = output.find("/>", output.find("<hierarchy", start));
    if (self == std::string_view::npos) return std::nullopt;
    return output.substr(start, self + 2 - start);
  }
  return output.substr(start, end + kEnd.size() - start);
}

bool UiAutomationTaken(std::string_view output) {
  return output.find("UiAutomationService") != std::string_view::npos &&
         output.find("already registered") != std::string_view::npos;
}

bool DumpWorthRetrying(std::string_view output) {
  return output.empty() || output.find("could not get idle state") != std::string_view::npos ||
         output.find("ERROR") != std::string_view::npos ||
         output.find("Killed") != std::string_view::npos;
}

std::string NormaliseActivity(std::string_view component) {
  size_t slash = component.find('/');
  if (slash == std::string_view::npos) return std::string(component);
  std::string_view pkg = component.substr(0, slash), cls = component.substr(slash + 1);
  if (!cls.empty() && cls[0] == '.') return std::string(pkg) + std::string(cls);
  return std::string(cls);
}

namespace {

// The "PKG/ACT" token inside the braces after `key` on its line, if any.
std::optional<std::string_view> ComponentAfter(std::string_view text, std::string_view key) {
  size_t at = text.find(key);
  while (at != std::string_view::npos) {
    size_t eol = text.find('\n', at);
    std::string_view line = text.substr(at, eol == std::string_view::npos ? text.npos : eol - at);
    // Tokens separated by spaces and braces; the component is the one with a '/'.
    size_t p = key.size();
    while (p < line.size()) {
      while (p < line.size() &&
             (line[p] == ' ' || line[p] == '{' || line[p] == '}' || line[p] == '='))
        ++p;
      size_t q = p;
      while (q < line.size() && line[q] != ' ' && line[q] != '{' && line[q] != '}') ++q;
      std::string_view token = line.substr(p, q - p);
      if (token.find('/') != std::string_view::npos && token.find(':') == std::string_view::npos &&
          token.front() != '/')
        return token;
      p = q;
    }
    at = text.find(key, at + key.size());
  }
  return std::nullopt;
}

}  // namespace

Focus ParseFocus(std::string_view dumpsys) {
  for (std::string_view key : {"mCurrentFocus=", "mFocusedApp=", "mResumedActivity:",
                               "topResumedActivity=", "ResumedActivity:"}) {
    if (auto c = ComponentAfter(dumpsys, key)) {
      Focus f;
      f.package = std::string(c->substr(0, c->find('/')));
      f.activity = NormaliseActivity(*c);
      return f;
    }
  }
  return {};
}

std::optional<std::pair<int, int>> ParseWmSize(std::string_view output) {
  std::optional<std::pair<int, int>> found;
  for (std::string_view key : {"Physical size: ", "Override size: "}) {
    size_t at = output.find(key);
    if (at == std::string_view::npos) continue;
    int w = 0, h = 0;
    if (std::sscanf(std::string(output.substr(at + key.size(), 24)).c_str(), "%dx%d", &w, &h) ==
            2 &&
        w > 0 && h > 0)
      found = std::pair{w, h};
  }
  return found;
}

namespace {

int KeyCode(std::string_view name) {
  static constexpr std::pair<std::string_view, int> kKeys[] = {
      {"HOME", 3},
      {"BACK", 4},
      {"CALL", 5},
      {"ENDCALL", 6},
      {"VOLUME_UP", 24},
      {"VOLUME_DOWN", 25},
      {"POWER", 26},
      {"CAMERA", 27},
      {"ENTER", 66},
      {"DEL", 67},
      {"MENU", 82},
      {"SEARCH", 84},
      {"MEDIA_PLAY_PAUSE", 85},
      {"MUTE", 91},
      {"VOLUME_MUTE", 164},
      {"APP_SWITCH", 187},
  };
  for (auto [n, code] : kKeys)
    if (n == name) return code;
  return -1;
}

struct Point {
  int x, y;
};

int Clamp(int v, int lo, int hi) { return std::max(lo, std::min(v, hi)); }

// The centre of `r`, inside r and inside the screen.
Point Centre(const gui::Rect& r, int width, int height) {
  int x = Clamp(r.center_x(), std::max(r.left, 0), std::min(r.right - 1, width - 1));
  int y = Clamp(r.center_y(), std::max(r.top, 0), std::min(r.bottom - 1, height - 1));
  return {Clamp(x, 0, std::max(width - 1, 0)), Clamp(y, 0, std::max(height - 1, 0))};
}

std::string Swipe(Point from, Point to, int ms) {
  return fmt::format("input swipe {} {} {} {} {}", from.x, from.y, to.x, to.y, ms);
}

// A gesture across `r` (clipped to the screen) whose finger moves by (dx, dy) in {-1,0,1}: where
// it starts and ends.
std::pair<Point, Point> Gesture(gui::Rect r, int width, int height, int dx, int dy,
                                const InputSettings& s) {
  r.left = std::max(r.left, 0);
  r.top = std::max(r.top, 0);
  r.right = std::min(r.right, width);
  r.bottom = std::min(r.bottom, height);
  Point c = Centre(r, width, height);
  int half_w = static_cast<int>(r.width() * s.swipe_span / 2);
  int half_h = static_cast<int>(r.height() * s.swipe_span / 2);
  return {{c.x - dx * half_w, c.y - dy * half_h}, {c.x + dx * half_w, c.y + dy * half_h}};
}

}  // namespace

Result<DeviceInput> PlanAction(const gui::Action& action, int width, int height, int rotation,
                               const InputSettings& s) {
  using gui::ActionKind;
  using K = DeviceInput::Kind;
  const gui::Rect screen{0, 0, width, height};
  if (gui::IsWidgetAction(action.kind) && !action.target)
    return Status::InvalidArgument(action.Describe() + ": a widget action without a target");
  const gui::Rect bounds = action.target ? action.target->bounds : screen;
  auto gesture = [&](int dx, int dy) {
    auto [from, to] = Gesture(bounds, width, height, dx, dy, s);
    return DeviceInput{
        .kind = K::kSwipe, .x = from.x, .y = from.y, .x2 = to.x, .y2 = to.y, .ms = s.swipe_ms};
  };
  switch (action.kind) {
    case ActionKind::kClick: {
      Point p = Centre(bounds, width, height);
      return DeviceInput{.kind = K::kTap, .x = p.x, .y = p.y};
    }
    case ActionKind::kLongClick: {
      Point p = Centre(bounds, width, height);
      return DeviceInput{.kind = K::kLongPress, .x = p.x, .y = p.y, .ms = s.long_click_ms};
    }
    // Scrolls: the content moves to show what lies in the named direction, so the finger moves
    // the opposite way. Swipes: the finger moves in the named direction.
    case ActionKind::kScrollDown:
    case ActionKind::kSwipeUp:
      return gesture(0, -1);
    case ActionKind::kScrollUp:
    case ActionKind::kSwipeDown:
      return gesture(0, 1);
    case ActionKind::kScrollRight:
    case ActionKind::kSwipeLeft:
      return gesture(-1, 0);
    case ActionKind::kScrollLeft:
    case ActionKind::kSwipeRight:
      return gesture(1, 0);
    case ActionKind::kInputText: {
      Point p = Centre(bounds, width, height);
      return DeviceInput{.kind = K::kText, .x = p.x, .y = p.y, .text = action.text};
    }
    case ActionKind::kBack:
      return DeviceInput{.kind = K::kKey, .key = 4, .text = "BACK"};
    case ActionKind::kMenu:
      return DeviceInput{.kind = K::kKey, .key = 82, .text = "MENU"};
    case ActionKind::kKey:
      return DeviceInput{.kind = K::kKey, .key = KeyCode(action.text), .text = action.text};
    case ActionKind::kRotate:
      return DeviceInput{.kind = K::kRotate, .rotation = rotation % 2 == 0 ? 1 : 0};
    case ActionKind::kRestart:
      return DeviceInput{.kind = K::kRestart};
    case ActionKind::kBroadcast:
      if (action.text.empty())
        return Status::InvalidArgument(action.Describe() + ": a broadcast without its action");
      return DeviceInput{.kind = K::kBroadcast, .text = action.text};
    case ActionKind::kIntent:
      return Status::Unsupported(action.Describe() + ": intents are not sent over adb yet");
  }
  return Status::InvalidArgument(action.Describe() + ": unknown action kind");
}

Result<std::vector<std::string>> InputCommands(const DeviceInput& in, const std::string& package,
                                               size_t* dropped) {
  using K = DeviceInput::Kind;
  auto one = [](std::string line) { return std::vector<std::string>{std::move(line)}; };
  switch (in.kind) {
    case K::kTap:
      return one(fmt::format("input tap {} {}", in.x, in.y));
    case K::kLongPress:
      return one(Swipe({in.x, in.y}, {in.x, in.y}, in.ms));
    case K::kSwipe:
      return one(Swipe({in.x, in.y}, {in.x2, in.y2}, in.ms));
    case K::kKey:
      if (in.key >= 0) return one(fmt::format("input keyevent {}", in.key));
      return one("input keyevent " + ShellQuote("KEYCODE_" + in.text));
    case K::kRotate:
      return one(RotationCommand(in.rotation));
    case K::kRestart:
      return one(StopCommand(package) + ";" + LaunchCommand(package));
    case K::kBroadcast:  // -p: to the app only, and so delivered to its manifest receivers
      return one(fmt::format("am broadcast -a {} -p {}", ShellQuote(in.text), ShellQuote(package)));
    case K::kText:
      break;
  }
  InputTextPlan plan = PlanInputText(in.text);
  if (dropped) *dropped = plan.dropped;
  // The tap, then the text's commands, packed into lines of at most kMaxCommandLine bytes.
  std::vector<std::string> lines = {fmt::format("input tap {} {}", in.x, in.y)};
  for (const auto& c : plan.commands) {
    if (lines.back().size() + 1 + c.size() > kMaxCommandLine) {
      lines.push_back(c);
    } else {
      lines.back() += ";" + c;
    }
  }
  return lines;
}

Result<std::vector<std::string>> ActionCommand(const gui::Action& action, int width, int height,
                                               int rotation, const std::string& package,
                                               const InputSettings& settings, size_t* dropped) {
  auto input = PlanAction(action, width, height, rotation, settings);
  if (!input.ok()) return input.status();
  return InputCommands(*input, package, dropped);
}

bool ShellOnly(const DeviceInput& input) {
  using K = DeviceInput::Kind;
  return input.kind == K::kRestart || input.kind == K::kBroadcast ||
         (input.kind == K::kKey && input.key < 0);
}

std::vector<std::string> ParseReceiverActions(std::string_view out) {
  std::vector<std::string> actions;
  constexpr std::string_view kTable = "Receiver Resolver Table:";
  size_t at = out.find(kTable);
  if (at == std::string_view::npos) return actions;
  const size_t newline = out.rfind('\n', at);
  const size_t table_indent = newline == std::string_view::npos ? at : at - newline - 1;
  bool non_data = false;
  size_t pos = out.find('\n', at);
  while (pos != std::string_view::npos && pos + 1 < out.size()) {
    const size_t begin = pos + 1;
    pos = out.find('\n', begin);
    std::string_view line =
        out.substr(begin, pos == std::string_view::npos ? out.npos : pos - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t indent = line.find_first_not_of(' ');
    if (indent == std::string_view::npos) continue;  // a blank line inside the table
    if (indent <= table_indent) break;               // the next table
    std::string_view text = line.substr(indent);
    // The table's parts: "Non-Data Actions:", "Schemes:", "Full MIME Types:", ...
    if (text.ends_with("Actions:") || text.ends_with("Types:") || text.ends_with("Schemes:")) {
      non_data = text == "Non-Data Actions:";
      continue;
    }
    constexpr std::string_view kAction = "Action: \"";
    if (!non_data || !text.starts_with(kAction)) continue;
    text.remove_prefix(kAction.size());
    if (size_t end = text.find('"'); end != std::string_view::npos && end > 0)
      actions.emplace_back(text.substr(0, end));
  }
  std::sort(actions.begin(), actions.end());
  actions.erase(std::unique(actions.begin(), actions.end()), actions.end());
  return actions;
}

bool BroadcastRefused(std::string_view out) {
  return out.find("Permission Denial") != std::string_view::npos ||
         out.find("SecurityException") != std::string_view::npos ||
         out.find("Security exception") != std::string_view::npos;
}

std::string LaunchCommand(const std::string& package) {
  return "monkey -p " + ShellQuote(package) + " -c android.intent.category.LAUNCHER 1";
}

std::string StopCommand(const std::string& package) {
  return "am force-stop " + ShellQuote(package);
}

std::string ClearDataCommand(const std::string& package) {
  return "pm clear " + ShellQuote(package);
}

std::string RotationCommand(int rotation) {
  return fmt::format(
      "settings put system accelerometer_rotation 0;settings put system user_rotation {}",
      rotation);
}

std::string DumpCommand(bool compressed, std::string_view focus_command) {
  return fmt::format("uiautomator dump {}/dev/tty;{}", compressed ? "--compressed " : "",
                     focus_command);
}

}  // namespace roam::device::android
