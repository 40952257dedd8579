#include "device/android/device_text.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include <fmt/format.h>

#include "base/json_fields.h"
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
    case ActionKind::kIntent: {
      auto intent = gui::ParseIntentText(action.text);
      if (!intent.ok()) return intent.status();
      return DeviceInput{.kind = K::kIntent, .intent = std::move(*intent)};
    }
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
    case K::kIntent: {
      std::string line = StartCommand(in.intent, package);
      if (line.size() > kMaxCommandLine)
        return Status::InvalidArgument(fmt::format(
            "an intent of {} bytes as a command line (at most {})", line.size(), kMaxCommandLine));
      return one(std::move(line));
    }
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
  return input.kind == K::kRestart || input.kind == K::kBroadcast || input.kind == K::kIntent ||
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

namespace {

// Calls f(line) for each line of `text`, without its '\r'.
template <typename F>
void ForEachLine(std::string_view text, F f) {
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    f(line);
    begin = end + 1;
  }
}

// The text between the first and the last '"' of `text`; "" when there are not two.
std::string_view Quoted(std::string_view text) {
  const size_t open = text.find('"'), close = text.rfind('"');
  if (open == std::string_view::npos || close <= open) return {};
  return text.substr(open + 1, close - open - 1);
}

void AddOnce(std::vector<std::string>& list, std::string_view value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.emplace_back(value);
}

// "66dcbda org.app/.Detail filter 779d6e8" -> {"org.app/.Detail", the line's identity}.
std::optional<std::pair<std::string_view, std::string_view>> FilterLine(std::string_view text) {
  const size_t first = text.find(' ');
  if (first == std::string_view::npos) return std::nullopt;
  const size_t second = text.find(' ', first + 1);
  if (second == std::string_view::npos || text.substr(second).rfind(" filter ", 0) != 0)
    return std::nullopt;
  std::string_view component = text.substr(first + 1, second - first - 1);
  if (component.find('/') == std::string_view::npos) return std::nullopt;
  return std::pair(component, text);
}

}  // namespace

std::string FilterHost(std::string_view declared, int port) {
  std::string host(declared);
  if (!declared.empty() && declared[0] == '*') {  // Android: any host that ends with the rest
    std::string_view rest = declared.substr(1);
    host = rest.empty()     ? std::string("localhost")
           : rest[0] == '.' ? "www" + std::string(rest)
                            : "www." + std::string(rest);
  }
  if (port >= 0) host += fmt::format(":{}", port);
  return host;
}

std::string FilterPathPrefix(std::string_view kind, std::string_view pattern) {
  if (kind == "LITERAL" || kind == "PREFIX") return std::string(pattern);
  if (kind == "SUFFIX")
    return pattern.starts_with('/') ? std::string(pattern) : "/" + std::string(pattern);
  // A glob: characters up to the first wildcard ('.' any, '*' and '{n,m}' repeat the one before,
  // '+' and '[' in an advanced glob), '\' escaping the next.
  std::string prefix;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '.' || c == '*' || c == '+' || c == '[' || c == '{') break;
    if (c == '\\') {
      if (++i >= pattern.size()) break;
      c = pattern[i];
    }
    if (i + 1 < pattern.size() && (pattern[i + 1] == '*' || pattern[i + 1] == '{')) break;
    prefix += c;
  }
  return prefix;
}

std::vector<gui::DeclaredActivity> ParseActivityResolver(std::string_view out) {
  constexpr std::string_view kTable = "Activity Resolver Table:";
  const size_t at = out.find(kTable);
  if (at == std::string_view::npos) return {};
  const size_t newline = out.rfind('\n', at);
  const size_t table_indent = newline == std::string_view::npos ? at : at - newline - 1;
  const size_t end = out.find('\n', at);
  if (end == std::string_view::npos) return {};

  std::map<std::string, gui::DeclaredActivity> by_name;
  std::set<std::string, std::less<>> seen;  // each filter is listed under each of its keys
  std::string name;                         // the activity of the filter being read
  gui::IntentFilter filter;
  bool reading = false, typed = false, done = false;
  size_t filter_indent = 0;
  auto finish = [&] {
    if (reading && !typed) {
      gui::DeclaredActivity& a = by_name[name];
      a.name = name;
      a.exported = true;  // not in the dump: the shell's refusal tells
      a.filters.push_back(std::move(filter));
    }
    reading = typed = false;
    filter = {};
  };
  ForEachLine(out.substr(end + 1), [&](std::string_view line) {
    const size_t indent = line.find_first_not_of(' ');
    if (done || indent == std::string_view::npos) return;  // a blank line inside the table
    if (indent <= table_indent) {                          // the next table
      done = true;
      return;
    }
    const std::string_view text = line.substr(indent);
    if (auto component = FilterLine(text)) {
      finish();
      if (!seen.insert(std::string(component->second)).second) return;  // read under a key before
      name = NormaliseActivity(component->first);
      reading = true;
      filter_indent = indent;
      return;
    }
    if (!reading) return;
    if (indent <= filter_indent) {  // the next key ("android.intent.action.VIEW:")
      finish();
      return;
    }
    const std::string_view value = Quoted(text);
    if (text.starts_with("Action: ")) {
      AddOnce(filter.actions, value);
    } else if (text.starts_with("Category: ")) {
      AddOnce(filter.categories, value);
    } else if (text.starts_with("Scheme: ")) {
      AddOnce(filter.schemes, value);
    } else if (text.starts_with("Authority: ")) {
      // Authority: "host": -1 [WILD]  (the host without its '*' when WILD)
      std::string_view rest = text.substr(text.rfind('"') + 1);
      if (rest.starts_with(": ")) rest.remove_prefix(2);
      int port = -1;
      std::from_chars(rest.data(), rest.data() + rest.size(), port);
      const bool wild = rest.find("WILD") != std::string_view::npos;
      AddOnce(filter.hosts, FilterHost(wild ? "*" + std::string(value) : std::string(value), port));
    } else if (text.starts_with("Path: ")) {
      // Path: "PatternMatcher{PREFIX: /item}"
      std::string_view matcher = value;
      if (matcher.starts_with("PatternMatcher{") && matcher.ends_with('}')) {
        matcher = matcher.substr(15, matcher.size() - 16);
        const size_t colon = matcher.find(": ");
        if (colon != std::string_view::npos)
          AddOnce(filter.paths,
                  FilterPathPrefix(matcher.substr(0, colon), matcher.substr(colon + 2)));
      }
    } else if (text.starts_with("Type: ") || text.starts_with("StaticType: ") ||
               text.starts_with("MimeGroup: ")) {
      typed = true;
    }
  });
  finish();
  std::vector<gui::DeclaredActivity> activities;
  for (auto& [_, activity] : by_name) activities.push_back(std::move(activity));
  return activities;
}

std::string StartCommand(const gui::Intent& intent, const std::string& package) {
  std::string line = "am start -W";
  if (!intent.component.empty()) {
    const bool qualified = intent.component.find('/') != std::string::npos;
    line += " -n " + ShellQuote(qualified ? intent.component : package + "/" + intent.component);
  }
  if (!intent.action.empty()) line += " -a " + ShellQuote(intent.action);
  if (!intent.data.empty()) line += " -d " + ShellQuote(intent.data);
  for (const auto& e : intent.extras)
    line += fmt::format(" {} {} {}", gui::ExtraTypeFlag(e.type), ShellQuote(e.key),
                        ShellQuote(e.value));
  if (intent.component.empty()) line += " -p " + ShellQuote(package);
  return line;
}

namespace {

// The class of the first "cmp=PKG/CLS" in `line` (an Intent's toString), fully qualified.
std::string ComponentIn(std::string_view line) {
  const size_t at = line.find("cmp=");
  if (at == std::string_view::npos) return {};
  std::string_view cmp = line.substr(at + 4);
  cmp = cmp.substr(0, cmp.find_first_of(" }"));
  return NormaliseActivity(cmp);
}

// A line an exception begins: "Exception occurred while executing 'start':" or a throwable's
// class and message ("java.lang.IllegalArgumentException: ..."), not a line that names a class
// ("Activity: org.app/.ExceptionActivity").
bool ExceptionLine(std::string_view line) {
  if (line.starts_with("Exception occurred")) return true;
  const std::string_view head = line.substr(0, line.find(':'));
  return head.size() < line.size() && head.find(' ') == std::string_view::npos &&
         head.find('.') != std::string_view::npos &&
         (head.ends_with("Exception") || head.ends_with("Error"));
}

}  // namespace

StartAnswer ParseStartAnswer(std::string_view out) {
  using O = StartAnswer::Outcome;
  StartAnswer denied, missing, unresolved, failed;
  ForEachLine(out, [&](std::string_view line) {
    const size_t indent = line.find_first_not_of(" \t");
    if (indent == std::string_view::npos) return;
    line.remove_prefix(indent);
    if (line.starts_with("Starting:")) return;  // the intent itself (its data may say anything)
    auto note = [&](StartAnswer& a, O outcome, std::string activity) {
      if (!a.line.empty()) return;  // the first line that says so
      a = {.outcome = outcome, .activity = std::move(activity), .line = std::string(line)};
    };
    if (line.find("Permission Denial") != std::string_view::npos) {
      const bool unexported = line.find(" not exported from uid ") != std::string_view::npos;
      note(denied, unexported ? O::kNotExported : O::kNeedsPermission, ComponentIn(line));
    } else if (line.starts_with("Error: Activity class {")) {
      std::string_view cls = line.substr(line.find('{') + 1);
      note(missing, O::kNoSuchClass, NormaliseActivity(cls.substr(0, cls.find('}'))));
    } else if (line.starts_with("Error: Activity not started, unable to resolve")) {
      note(unresolved, O::kUnresolved, ComponentIn(line));
    } else if (line.starts_with("Error: Activity not started, you do not have permission")) {
      note(denied, O::kNeedsPermission, "");
    } else if (line.starts_with("Error") || ExceptionLine(line)) {
      note(failed, O::kFailed, "");  // "Error: ...", "java.lang.NumberFormatException: ..."
    }
  });
  // What the answer says first: a denial (whatever exception carried it), a missing class (after
  // "Error type 3"), nothing that resolves, any other failure.
  for (StartAnswer* a : {&denied, &missing, &unresolved, &failed})
    if (!a->line.empty()) return *a;
  return {};
}

Status StartStatus(const StartAnswer& answer, const gui::Intent& intent) {
  using O = StartAnswer::Outcome;
  const std::string& target = !intent.component.empty() ? intent.component : intent.data;
  const std::string& named = answer.activity.empty() ? target : answer.activity;
  switch (answer.outcome) {
    case O::kStarted:
      return Status::Ok();
    case O::kNotExported:
      return Status::Refused("intent not exported: " + named);
    case O::kNeedsPermission:
      return Status::Refused("intent needs a permission: " + named);
    case O::kUnresolved:
      return Status::Refused("intent not resolved: " + target);
    case O::kNoSuchClass:
      return Status::Refused("intent class not found: " + named);
    case O::kFailed:
      break;
  }
  return Status::Refused("intent not started: " + Excerpt(answer.line, 200));
}

bool ForgetRefused(std::vector<gui::DeclaredActivity>& activities, const gui::Intent& intent,
                   const StartAnswer& answer) {
  using O = StartAnswer::Outcome;
  const std::string& named = answer.activity.empty() ? intent.component : answer.activity;
  auto it = std::find_if(activities.begin(), activities.end(),
                         [&](const gui::DeclaredActivity& a) { return a.name == named; });
  switch (answer.outcome) {
    case O::kNotExported:
    case O::kNeedsPermission:
      if (it == activities.end() || !it->exported) return false;
      it->exported = false;
      return true;
    case O::kUnresolved:
      if (!intent.data.empty()) {  // a deep link no filter took: those that seemed to go
        bool changed = false;
        for (auto& a : activities) {
          if (!intent.component.empty() && a.name != intent.component) continue;
          changed |= std::erase_if(a.filters, [&](const gui::IntentFilter& f) {
                       return gui::FilterTakes(f, intent);
                     }) > 0;
        }
        return changed;
      }
      [[fallthrough]];  // a class that resolves nothing is not there
    case O::kNoSuchClass:
      if (it == activities.end()) return false;
      activities.erase(it);
      return true;
    case O::kStarted:
    case O::kFailed:
      break;
  }
  return false;
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
