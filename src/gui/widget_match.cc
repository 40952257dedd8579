#include "gui/widget_match.h"

#include <cctype>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"
#include "gui/intent.h"

namespace roam::gui {

using nlohmann::json;
namespace {

const std::vector<std::string>& KnownAttrs() {
  static const std::vector<std::string> kAttrs = {
      "resource-id", "text",      "content-desc",   "class",     "package", "hint",
      "index",       "clickable", "long-clickable", "checkable", "checked", "scrollable",
      "enabled",     "focusable", "focused",        "selected",  "password"};
  return kAttrs;
}

const char* Bool(bool b) { return b ? "true" : "false"; }

// The attribute's value as the dump writes it. `scratch` holds numbers.
std::string_view AttrOf(const gui::Widget& w, std::string_view attr, std::string& scratch) {
  if (attr == "resource-id") return w.resource_id;
  if (attr == "text") return w.text;
  if (attr == "content-desc") return w.content_desc;
  if (attr == "class") return w.cls;
  if (attr == "package") return w.package;
  if (attr == "hint") return w.hint;
  if (attr == "index") return scratch = std::to_string(w.child_index);
  if (attr == "clickable") return Bool(w.clickable);
  if (attr == "long-clickable") return Bool(w.long_clickable);
  if (attr == "checkable") return Bool(w.checkable);
  if (attr == "checked") return Bool(w.checked);
  if (attr == "scrollable") return Bool(w.scrollable);
  if (attr == "enabled") return Bool(w.enabled);
  if (attr == "focusable") return Bool(w.focusable);
  if (attr == "focused") return Bool(w.focused);
  if (attr == "selected") return Bool(w.selected);
  if (attr == "password") return Bool(w.password);
  return {};
}

bool ClassMatches(std::string_view cls, std::string_view wanted) {
  if (wanted.empty() || cls == wanted) return true;
  return cls.size() > wanted.size() && cls.ends_with(wanted) &&
         cls[cls.size() - wanted.size() - 1] == '.';
}

bool TestHolds(const PathExpr::Test& t, const gui::Widget& w) {
  std::string scratch;
  std::string_view v = AttrOf(w, t.attr, scratch);
  switch (t.op) {
    case PathExpr::Test::Op::kEquals:
      return t.attr == "resource-id" ? ResourceIdMatches(v, t.value) : v == t.value;
    case PathExpr::Test::Op::kContains:
      return v.find(t.value) != std::string_view::npos;
    case PathExpr::Test::Op::kStartsWith:
      return v.starts_with(t.value);
  }
  return false;
}

// A recursive-descent reader over the expression's text.
class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  bool AtEnd() {
    Skip();
    return pos_ >= s_.size();
  }
  bool Eat(std::string_view token) {
    Skip();
    if (s_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  char Peek() {
    Skip();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  // A name: letters, digits, '.', '_', '-', '$'.
  std::string Name() {
    Skip();
    size_t start = pos_;
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.' ||
            s_[pos_] == '_' || s_[pos_] == '-' || s_[pos_] == '$'))
      ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }
  std::optional<std::string> Quoted() {
    char q = Peek();
    if (q != '\'' && q != '"') return std::nullopt;
    size_t end = s_.find(q, pos_ + 1);
    if (end == std::string_view::npos) return std::nullopt;
    std::string v(s_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return v;
  }
  Status Error(std::string_view expected) {
    Skip();
    return Fail(
        fmt::format("expected {}{}", expected,
                    pos_ < s_.size() ? fmt::format(", found '{}'", s_[pos_]) : ", found the end"));
  }
  Status Fail(const std::string& what) const {
    return Status::InvalidArgument(fmt::format("path \"{}\": column {}: {}", s_, pos_ + 1, what));
  }

 private:
  void Skip() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  std::string_view s_;
  size_t pos_ = 0;
};

Status ReadTest(Reader& r, PathExpr::Test& t) {
  using Op = PathExpr::Test::Op;
  bool call = false;
  if (r.Eat("contains(")) {
    t.op = Op::kContains;
    call = true;
  } else if (r.Eat("starts-with(")) {
    t.op = Op::kStartsWith;
    call = true;
  }
  if (!r.Eat("@")) return r.Error("@attribute, contains(@a, 'v') or starts-with(@a, 'v')");
  t.attr = r.Name();
  const auto& known = KnownAttrs();
  if (std::find(known.begin(), known.end(), t.attr) == known.end()) {
    std::string hint = ClosestName(t.attr, known);
    return r.Fail(fmt::format("unknown attribute @{}{}; known: {}", t.attr,
                              hint.empty() ? "" : fmt::format(" (did you mean @{}?)", hint),
                              fmt::join(known, ", ")));
  }
  if (!r.Eat(call ? "," : "=")) return r.Error(call ? "','" : "'='");
  auto v = r.Quoted();
  if (!v) return r.Error("a quoted value ('...' or \"...\")");
  t.value = std::move(*v);
  if (call && !r.Eat(")")) return r.Error("')'");
  return Status::Ok();
}

Status ReadStep(Reader& r, PathExpr::Step& step) {
  if (!r.Eat("*")) {
    step.cls = r.Name();
    if (step.cls.empty()) return r.Error("a class name or '*'");
  }
  while (r.Eat("[")) {
    do {
      PathExpr::Test t;
      ROAM_RETURN_IF_ERROR(ReadTest(r, t));
      step.tests.push_back(std::move(t));
    } while (r.Eat("and "));
    if (!r.Eat("]")) return r.Error("']' or 'and'");
  }
  return Status::Ok();
}

}  // namespace

Result<PathExpr> PathExpr::Parse(std::string_view text) {
  PathExpr e;
  e.text_ = std::string(text);
  Reader r(text);
  if (r.Peek() != '/') return r.Error("'/' or '//' at the start");
  while (!r.AtEnd()) {
    Step step;
    if (r.Eat("//")) {
      step.descendant = true;
    } else if (!r.Eat("/")) {
      return r.Error("'/', '//' or '['");
    }
    ROAM_RETURN_IF_ERROR(ReadStep(r, step));
    e.steps_.push_back(std::move(step));
  }
  return e;
}

bool PathExpr::MatchFrom(const Screen& screen, int index, int step) const {
  const Step& s = steps_[step];
  const gui::Widget& w = screen.widgets[index];
  if (!ClassMatches(w.cls, s.cls)) return false;
  for (const auto& t : s.tests)
    if (!TestHolds(t, w)) return false;
  if (step == 0) return s.descendant || w.parent < 0;
  if (!s.descendant) return w.parent >= 0 && MatchFrom(screen, w.parent, step - 1);
  for (int a = w.parent; a >= 0; a = screen.widgets[a].parent)
    if (MatchFrom(screen, a, step - 1)) return true;
  return false;
}

bool PathExpr::Matches(const Screen& screen, int index) const {
  if (steps_.empty() || index < 0 || index >= static_cast<int>(screen.widgets.size())) return false;
  return MatchFrom(screen, index, static_cast<int>(steps_.size()) - 1);
}

bool ResourceIdMatches(std::string_view id, std::string_view wanted) {
  if (id == wanted) return true;
  if (wanted.empty() || wanted.find(':') != std::string_view::npos) return false;
  size_t colon = id.find(':');
  std::string_view local = colon == std::string_view::npos ? id : id.substr(colon + 1);
  if (local == wanted) return true;
  return local.starts_with("id/") && local.substr(3) == wanted;
}

namespace {
// "org.app/.ui.Main" -> "org.app.ui.Main"; "org.app/org.app.ui.Main" -> "org.app.ui.Main".
std::string FullActivity(std::string_view a) {
  size_t slash = a.find('/');
  if (slash == std::string_view::npos) return std::string(a);
  std::string_view pkg = a.substr(0, slash), cls = a.substr(slash + 1);
  return cls.starts_with('.') ? std::string(pkg) + std::string(cls) : std::string(cls);
}
}  // namespace

bool ActivityMatches(std::string_view activity, std::string_view wanted) {
  if (wanted.empty()) return false;
  std::string full = FullActivity(activity);
  std::string w =
      wanted.find('/') != std::string_view::npos ? FullActivity(wanted) : std::string(wanted);
  if (w.starts_with('.')) w.erase(0, 1);
  if (full == w) return true;
  return full.size() > w.size() && full.ends_with(w) && full[full.size() - w.size() - 1] == '.';
}

bool WidgetMatcher::Matches(const Screen& screen, int index) const {
  if (index < 0 || index >= static_cast<int>(screen.widgets.size())) return false;
  const gui::Widget& w = screen.widgets[index];
  if (resource_id && !ResourceIdMatches(w.resource_id, *resource_id)) return false;
  if (text && w.text != *text && w.content_desc != *text) return false;
  if (rect) {
    if (screen.width <= 0 || screen.height <= 0) return false;
    double fx = static_cast<double>(w.bounds.center_x()) / screen.width;
    double fy = static_cast<double>(w.bounds.center_y()) / screen.height;
    if (fx < rect->x0 || fx > rect->x1 || fy < rect->y0 || fy > rect->y1) return false;
  }
  if (path && !path->Matches(screen, index)) return false;
  return true;
}

namespace {

Result<FractionRect> ParseRect(const nlohmann::json& j, const std::string& where) {
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument(fmt::format(
        "{}.rect: {}; expected [x0, y0, x1, y1], fractions of the screen in 0..1 with x0 < x1 "
        "and y0 < y1, e.g. [0, 0.9, 1, 1] for the bottom tenth",
        where, why));
  };
  if (!j.is_array() || j.size() != 4) return bad(fmt::format("got {}", JsonExcerpt(j)));
  double v[4];
  for (int i = 0; i < 4; ++i) {
    if (!j[i].is_number())
      return bad(fmt::format("element {} is {}, not a number", i, JsonExcerpt(j[i])));
    v[i] = j[i].get<double>();
    if (v[i] < 0 || v[i] > 1) return bad(fmt::format("element {} is {}, outside 0..1", i, v[i]));
  }
  if (v[0] >= v[2] || v[1] >= v[3])
    return bad(fmt::format("got {} (an empty rectangle)", JsonExcerpt(j)));
  return FractionRect{v[0], v[1], v[2], v[3]};
}

Result<std::string> NonEmptyString(const nlohmann::json& j, const std::string& where) {
  if (!j.is_string() || j.get<std::string>().empty())
    return Status::InvalidArgument(
        fmt::format("{}: expected a non-empty string, got {}", where, JsonExcerpt(j)));
  return j.get<std::string>();
}

}  // namespace

Result<WidgetMatcher> ParseWidgetMatcher(const nlohmann::json& j, const std::string& where) {
  static const std::vector<std::string> kKeys = {"resource_id", "text", "path", "rect"};
  if (!j.is_object() || j.empty())
    return Status::InvalidArgument(fmt::format(
        "{}: expected an object with one or more of resource_id, text, path, rect; got {}", where,
        JsonExcerpt(j)));
  WidgetMatcher m;
  m.describe = JsonLine(j);
  for (const auto& [key, value] : j.items()) {
    const std::string at = where + "." + key;
    if (key == "resource_id" || key == "text") {
      auto s = NonEmptyString(value, at);
      if (!s.ok()) return s.status();
      (key == "text" ? m.text : m.resource_id) = *s;
    } else if (key == "path") {
      auto s = NonEmptyString(value, at);
      if (!s.ok()) return s.status();
      auto p = PathExpr::Parse(*s);
      if (!p.ok()) return p.status().Wrap(at);
      m.path = std::move(*p);
    } else if (key == "rect") {
      auto r = ParseRect(value, where);
      if (!r.ok()) return r.status();
      m.rect = *r;
    } else {
      return Status::InvalidArgument(
          fmt::format("{}: unknown key \"{}\"{}; a widget matcher has {}", where, key,
                      DidYouMean(key, kKeys), fmt::join(kKeys, ", ")));
    }
  }
  return m;
}

Status CheckJsonKeys(const json& j, const std::string& where,
                     const std::vector<std::string>& known) {
  if (!j.is_object())
    return Status::InvalidArgument(
        fmt::format("{}: expected an object, got {}", where, JsonExcerpt(j)));
  for (const auto& [key, value] : j.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    return Status::InvalidArgument(fmt::format("{}: unknown key \"{}\"{}; known: {}", where, key,
                                               DidYouMean(key, known), fmt::join(known, ", ")));
  }
  return Status::Ok();
}

Result<WidgetStep> ParseWidgetStep(const json& j, const std::string& where) {
  ROAM_RETURN_IF_ERROR(CheckJsonKeys(j, where, {"action", "widget", "text"}));
  if (!j.contains("action") || !j["action"].is_string())
    return Status::InvalidArgument(
        fmt::format("{}: needs \"action\": click, long_click, input_text, back, menu, ...", where));
  const std::string name = j["action"].get<std::string>();
  auto kind = ActionKindFromName(name);
  if (!kind) {
    std::vector<std::string> names;
    for (int k = 0; k < kActionKindCount; ++k)
      names.emplace_back(ActionKindName(static_cast<ActionKind>(k)));
    return Status::InvalidArgument(fmt::format("{}.action: unknown action \"{}\"{}; known: {}",
                                               where, name, DidYouMean(name, names),
                                               fmt::join(names, ", ")));
  }
  WidgetStep step;
  step.kind = *kind;
  const bool widget_kind = IsWidgetAction(*kind);
  if (widget_kind != j.contains("widget"))
    return Status::InvalidArgument(
        widget_kind
            ? fmt::format("{}: \"{}\" acts on a widget: give \"widget\": {{\"resource_id\": ...}}",
                          where, name)
            : fmt::format("{}: \"{}\" is a global action and takes no \"widget\"", where, name));
  if (widget_kind) {
    auto m = ParseWidgetMatcher(j["widget"], where + ".widget");
    if (!m.ok()) return m.status();
    step.widget = std::move(*m);
  }
  const bool takes_text = *kind == ActionKind::kInputText || TextNamesAction(*kind);
  if (j.contains("text")) {
    if (!takes_text)
      return Status::InvalidArgument(fmt::format("{}: \"{}\" takes no \"text\"", where, name));
    if (!j["text"].is_string())
      return Status::InvalidArgument(fmt::format("{}.text: expected a string", where));
    step.text = j["text"].get<std::string>();
    if (*kind == ActionKind::kIntent) {
      if (auto intent = ParseIntentText(step.text); !intent.ok())
        return Status::InvalidArgument(
            fmt::format("{}.text: {}", where, intent.status().message()));
    }
  } else if (takes_text) {
    return Status::InvalidArgument(fmt::format("{}: \"{}\" needs \"text\"", where, name));
  }
  return step;
}

int TargetOf(const Screen& screen, const Action& action) {
  const int n = static_cast<int>(screen.widgets.size());
  if (action.widget >= 0 && action.widget < n &&
      (!action.target || screen.widgets[action.widget].bounds == action.target->bounds))
    return action.widget;
  return action.target ? screen.FindPath(action.target->path) : -1;
}

std::optional<Action> StepAction(const WidgetStep& step, const Screen& screen,
                                 const std::vector<Action>& actions) {
  if (!step.widget) return MakeGlobalAction(step.kind, step.text);
  for (const auto& a : actions) {
    if (a.kind != step.kind) continue;
    const int target = TargetOf(screen, a);
    if (target < 0 || !step.widget->Matches(screen, target)) continue;
    Action action = a;
    if (step.kind == ActionKind::kInputText) action.text = step.text;
    return action;
  }
  return std::nullopt;
}

}  // namespace roam::gui
