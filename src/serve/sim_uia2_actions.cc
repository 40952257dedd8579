#include "serve/sim_uia2_actions.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace roam::serve {

namespace {

using nlohmann::json;

constexpr int64_t kInjectionDelayMs = 20;  // ActionsConstants.EVENT_INJECTION_DELAY_MS
constexpr char kGson[] = "com.google.gson.JsonSyntaxException: ";

// A refusal on its way out: the W3C error and the server's message.
struct Refusal {
  std::string error, message;
};

// Gson's name for the token a value starts with.
const char* Token(const json& v) {
  if (v.is_object()) return "BEGIN_OBJECT";
  if (v.is_array()) return "BEGIN_ARRAY";
  if (v.is_string()) return "STRING";
  if (v.is_boolean()) return "BOOLEAN";
  if (v.is_null()) return "NULL";
  return "NUMBER";
}

Refusal Invalid(std::string message) { return {"invalid argument", std::move(message)}; }

Refusal Expected(const char* what, const json& v, const std::string& path) {
  return Invalid(fmt::format("{}java.lang.IllegalStateException: Expected {} but was {} at path {}",
                             kGson, what, Token(v), path));
}

// Gson's typed reads of one field; nullopt when it reads, else why not.
std::optional<Refusal> GsonString(const json& v, const std::string& path) {
  if (v.is_object() || v.is_array()) return Expected("a string", v, path);
  return std::nullopt;  // strings, numbers and booleans read as strings
}

std::optional<Refusal> GsonNumber(const json& v, const std::string& path, bool integral) {
  if (v.is_null()) return std::nullopt;
  const char* what = integral ? "a long" : "a double";
  if (v.is_object() || v.is_array() || v.is_boolean()) return Expected(what, v, path);
  double d = 0;
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    char* end = nullptr;
    d = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size())
      return Invalid(fmt::format("java.lang.NumberFormatException: For input string: \"{}\"", s));
  } else {
    d = v.get<double>();
  }
  if (integral && d != std::trunc(d))
    return Invalid(
        fmt::format("{}java.lang.NumberFormatException: Expected a long but was {} at "
                    "path {}",
                    kGson, v.dump(), path));
  return std::nullopt;
}

std::optional<Refusal> GsonGesture(const json& g, const std::string& path) {
  if (g.is_null()) return std::nullopt;
  if (!g.is_object()) return Expected("BEGIN_OBJECT", g, path);
  for (const char* key : {"type", "value"})
    if (auto r = g.contains(key) ? GsonString(g[key], path + "." + key) : std::nullopt) return r;
  for (const char* key : {"duration", "button"})
    if (auto r = g.contains(key) ? GsonNumber(g[key], path + "." + key, true) : std::nullopt)
      return r;
  for (const char* key : {"x", "y", "size", "pressure"})
    if (auto r = g.contains(key) ? GsonNumber(g[key], path + "." + key, false) : std::nullopt)
      return r;
  return std::nullopt;
}

std::optional<Refusal> GsonItem(const json& item, const std::string& path) {
  if (item.is_null()) return std::nullopt;
  if (!item.is_object()) return Expected("BEGIN_OBJECT", item, path);
  for (const char* key : {"type", "id"})
    if (auto r = item.contains(key) ? GsonString(item[key], path + "." + key) : std::nullopt)
      return r;
  if (item.contains("parameters") && !item["parameters"].is_null()) {
    const json& p = item["parameters"];
    if (!p.is_object()) return Expected("BEGIN_OBJECT", p, path + ".parameters");
    if (p.contains("pointerType"))
      if (auto r = GsonString(p["pointerType"], path + ".parameters.pointerType")) return r;
  }
  if (item.contains("actions") && !item["actions"].is_null()) {
    const json& a = item["actions"];
    if (!a.is_array()) return Expected("BEGIN_ARRAY", a, path + ".actions");
    for (size_t k = 0; k < a.size(); ++k)
      if (auto r = GsonGesture(a[k], fmt::format("{}.actions[{}]", path, k))) return r;
  }
  return std::nullopt;
}

bool Has(const json& o, const char* key) { return o.contains(key) && !o[key].is_null(); }

// Gson reads a number or a boolean into a String field as its text.
std::optional<std::string> Str(const json& o, const char* key) {
  if (!o.contains(key) || o[key].is_null()) return std::nullopt;
  const json& v = o[key];
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

std::optional<double> Num(const json& o, const char* key) {
  if (!o.contains(key) || o[key].is_null()) return std::nullopt;
  const json& v = o[key];
  return v.is_string() ? std::strtod(v.get_ref<const std::string&>().c_str(), nullptr)
                       : v.get<double>();
}

// BaseModel.validate: the required fields, in declaration order, depth first.
std::optional<Refusal> Validate(const json& body) {
  auto missing = [](const char* model, const char* field) {
    return Invalid(fmt::format(
        "java.lang.IllegalArgumentException: {}: The mandatory field '{}' is not present in JSON",
        model, field));
  };
  if (!Has(body, "actions")) return missing("W3CActionsModel", "actions");
  for (const json& item : body["actions"]) {
    if (item.is_null()) continue;
    if (!Str(item, "type")) return missing("W3CItemModel", "type");
    if (!Str(item, "id")) return missing("W3CItemModel", "id");
    if (!Has(item, "actions")) return missing("W3CItemModel", "actions");
    for (const json& g : item["actions"])
      if (!g.is_null() && !Str(g, "type")) return missing("W3CGestureModel", "type");
  }
  return std::nullopt;
}

}  // namespace

namespace {

const std::vector<std::string> kActionTypes = {"pointer", "key", "none"};
const std::vector<std::string> kPointerTypes = {"mouse", "pen", "touch"};
const std::vector<std::string> kPointerItems = {"pointerMove", "pointerUp", "pointerDown",
                                                "pointerCancel", "pause"};
const std::vector<std::string> kKeyItems = {"keyUp", "keyDown", "pause"};
const std::vector<std::string> kNoneItems = {"pause"};

bool In(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// Java's List.toString: "[a, b]".
std::string JavaList(const std::vector<std::string>& list) {
  std::string out = "[";
  for (size_t k = 0; k < list.size(); ++k) out += (k ? ", " : "") + list[k];
  return out + "]";
}

Refusal Parse(std::string message) { return Invalid(std::move(message)); }

Refusal NullPointer(const char* field) {
  return {"unknown error",
          fmt::format("java.lang.NullPointerException: Attempt to read from field '{}' on a null "
                      "object reference",
                      field)};
}

// One source after ActionsPreprocessor: its id, type, pointer type and items (json objects).
struct Source {
  std::string id, type, pointer_type;
  std::vector<json> items;
};

std::optional<Refusal> Preprocess(const json& body, std::vector<Source>& out) {
  std::vector<std::string> ids, pointer_types;
  for (const json& item : body["actions"]) {
    if (item.is_null())
      return NullPointer(
          "java.lang.String io.appium.uiautomator2.model.api.actions.W3CItemModel.id");
    Source s;
    s.id = *Str(item, "id");
    if (In(ids, s.id))
      return Parse(fmt::format("The action id '{}' has one one or more duplicates", s.id));
    ids.push_back(s.id);
    s.type = *Str(item, "type");
    if (!In(kActionTypes, s.type))
      return Parse(fmt::format(
          "Only {} values are supported for type key. '{}' is passed instead for action '{}'",
          JavaList(kActionTypes), s.type, s.id));
    if (Has(item, "parameters")) {
      if (auto pt = Str(item["parameters"], "pointerType")) {
        if (!In(kPointerTypes, *pt))
          return Parse(
              fmt::format("Only {} values are supported for pointerType key. '{}' is "
                          "passed instead for action '{}'",
                          JavaList(kPointerTypes), *pt, s.id));
        if (!In(pointer_types, *pt)) pointer_types.push_back(*pt);
        if (s.type != "pointer")
          return Parse(fmt::format(
              "pointerType parameter is only supported for action type 'pointer' in '{}' action",
              s.id));
        s.pointer_type = *pt;
      }
    }
    const std::vector<std::string>& allowed = s.type == "pointer" ? kPointerItems
                                              : s.type == "key"   ? kKeyItems
                                                                  : kNoneItems;
    const json& items = item["actions"];
    bool skip_next = false;
    for (size_t k = items.size(); k-- > 0;) {  // last to first, as the server walks them
      const json& g = items[k];
      if (g.is_null())
        return NullPointer(
            "java.lang.String io.appium.uiautomator2.model.api.actions.W3CGestureModel.type");
      const std::string type = *Str(g, "type");
      if (!In(allowed, type))
        return Parse(
            fmt::format("Only {} item type values are supported for action type '{}'. "
                        "'{}' is passed instead for action '{}'",
                        JavaList(allowed), s.type, type, s.id));
      if (type == "pointerCancel") {
        skip_next = true;
        continue;
      }
      if (skip_next) {
        skip_next = false;
        continue;
      }
      s.items.insert(s.items.begin(), g);
    }
    out.push_back(std::move(s));
  }
  if (pointer_types.size() > 1)
    return Parse(fmt::format(
        "It is only allowed to use one pointer type simultaneously. And you have {}: {}",
        pointer_types.size(), JavaList(pointer_types)));
  return std::nullopt;
}

int64_t AlignDuration(int64_t ms) {
  if (ms <= 0) return 0;
  if (ms < kInjectionDelayMs) return kInjectionDelayMs;
  const int64_t mod = ms % kInjectionDelayMs;
  return mod == 0 ? ms : ms + kInjectionDelayMs - mod;
}

// ActionsTokenizer.extractDuration: a day at most (issue 60 row 11: durations saturate).
std::optional<Refusal> Duration(const Source& s, const json& g, int64_t& ms) {
  const std::string type = *Str(g, "type");
  auto d = Num(g, "duration");
  if (!d)
    return Parse(fmt::format("Missing duration key for action item '{}' of action with id '{}'",
                             type, s.id));
  if (*d < 0)
    return Parse(fmt::format(
        "duration key cannot be negative for action item '{}' of action with id '{}'", type, s.id));
  ms = AlignDuration(static_cast<int64_t>(std::min(*d, 86400000.0)));
  return std::nullopt;
}

struct Point {
  double x = 0, y = 0;
};

// ActionsTokenizer.extractCoordinates: the point of item `idx`, from the nearest pointerMove at
// or before it.
std::optional<Refusal> Coordinates(const Source& s, int idx, const ElementBounds& element,
                                   Point& p) {
  for (int at = idx;; --at) {
    if (at < 0)
      return Parse(
          fmt::format("The first item of the action '{}' must only use absolute "
                      "coordinates",
                      s.id));
    const json& g = s.items[at];
    const std::string type = *Str(g, "type");
    if (type != "pointerMove") {
      if (at > 0) continue;
      return Parse(
          fmt::format("Action item '{}' #{} of the action '{}' should be preceded with at "
                      "least one item having absolute coordinates",
                      type, at + 1, s.id));
    }
    const json origin = Has(g, "origin") ? g["origin"] : json("viewport");
    const auto x = Num(g, "x"), y = Num(g, "y");
    if (origin == "viewport") {
      if (!x || !y)
        return Parse(
            fmt::format("Both coordinates must be be set for action item '{}' #{} of "
                        "action '{}'",
                        type, at + 1, s.id));
      p = {*x, *y};
      return std::nullopt;
    }
    if (origin == "pointer") {
      if (at == 0)
        return Parse(
            fmt::format("Action item '{}' #1 of action '{}' should be preceded with at "
                        "least one item containing absolute coordinates",
                        type, s.id));
      if (auto r = Coordinates(s, at - 1, element, p)) return r;
      p.x += x.value_or(0);
      p.y += y.value_or(0);
      return std::nullopt;
    }
    std::string id;
    if (origin.is_string()) id = origin.get<std::string>();
    for (const char* key : {"element-6066-11e4-a52e-4f735466cecf", "ELEMENT"})
      if (origin.is_object() && origin.contains(key) && origin[key].is_string())
        id = origin[key].get<std::string>();
    if (id.empty())
      return Parse(fmt::format("An unknown element '{}' is set for action item '{}' of action '{}'",
                               origin.dump(), type, s.id));
    auto bounds = element ? element(id) : std::nullopt;
    if (!bounds)
      return Refusal{"no such element",
                     fmt::format("The element identified by '{}' is not present in the cache or "
                                 "has expired. Try to find it again",
                                 id)};
    p = {bounds->left + bounds->width() / 2.0 + x.value_or(0),
         bounds->top + bounds->height() / 2.0 + y.value_or(0)};
    return std::nullopt;
  }
}

std::optional<Refusal> Pauses(const Source& s, int64_t& total) {
  int64_t t = 0;
  for (const json& g : s.items) {
    int64_t ms = 0;
    if (auto r = Duration(s, g, ms)) return r;
    t += ms;
  }
  total = std::max(total, t);
  return std::nullopt;
}

std::optional<Refusal> Keys(const Source& s, int64_t& total) {
  int64_t t = 0;
  for (const json& g : s.items) {
    const std::string type = *Str(g, "type");
    if (type == "pause") {
      int64_t ms = 0;
      if (auto r = Duration(s, g, ms)) return r;
      t += ms;
      continue;
    }
    auto value = Str(g, "value");
    if (!value)
      return Parse(
          fmt::format("Missing value key for action item '{}' of action with id '{}'", type, s.id));
    if (value->empty())
      return Parse(fmt::format(
          "value key cannot be empty for action item '{}' of action with id '{}'", type, s.id));
  }
  total = std::max(total, t);
  return std::nullopt;
}

// ActionsTokenizer.applyPointerActionToEventsMapping for one pointer, its checks in its order.
std::optional<Refusal> Pointer(const Source& s, int index, const ElementBounds& element,
                               std::vector<W3CTouch>& touches, int64_t& total) {
  if (index > 0 && (s.pointer_type == "mouse" || s.pointer_type == "pen"))
    return Parse(fmt::format(
        "No more that one simultaneous pointer is supported for pointerType {}", s.pointer_type));
  int64_t t = 0, recent_up = -1, recent_down = -1, down_at = 0;
  bool down = false, first_move = true;
  Point p;
  for (int k = 0; k < static_cast<int>(s.items.size()); ++k) {
    const json& g = s.items[k];
    const std::string type = *Str(g, "type");
    if (type == "pause") {
      int64_t ms = 0;
      if (auto r = Duration(s, g, ms)) return r;
      t += ms;
    } else if (type == "pointerDown" || type == "pointerUp") {
      const bool is_down = type == "pointerDown";
      if (is_down ? (down || recent_down == t) : recent_up == t)
        return Parse(
            fmt::format("You cannot perform two or more '{}' actions without a pause "
                        "between them at {}ms in '{}' chain",
                        type, t, s.id));
      if (auto r = Coordinates(s, k, element, p)) return r;
      if (is_down) {
        touches.push_back({p.x, p.y, p.x, p.y, 0});
        down_at = t;
        recent_down = t;
      } else {
        if (down) {
          touches.back().x1 = p.x;
          touches.back().y1 = p.y;
          touches.back().duration_ms = t - down_at;
        }
        recent_up = t;
      }
      down = is_down;
    } else {  // pointerMove
      int64_t ms = 0;
      if (auto r = Duration(s, g, ms)) return r;
      const bool was_first = first_move;
      first_move = false;
      if (ms < kInjectionDelayMs) continue;
      if (was_first && !(Has(g, "origin") && g["origin"] == "pointer")) {
        t += ms;
        continue;
      }
      Point from;
      if (auto r = Coordinates(s, k - 1, element, from)) return r;
      if (auto r = Coordinates(s, k, element, p)) return r;
      t += ms;
    }
  }
  if (down) {  // never released: the finger lifts where it is when the chain ends
    touches.back().x1 = p.x;
    touches.back().y1 = p.y;
    touches.back().duration_ms = t - down_at;
  }
  total = std::max(total, t);
  return std::nullopt;
}

}  // namespace

W3CActionsResult ReadW3CActions(const json& body, const ElementBounds& element) {
  W3CActionsResult out;
  auto refuse = [&](const Refusal& r) {
    out.error = r.error;
    out.message = r.message;
    out.touches.clear();
    return out;
  };
  if (!body.is_object()) return refuse(Expected("BEGIN_OBJECT", body, "$"));
  if (Has(body, "actions")) {
    const json& a = body["actions"];
    if (!a.is_array()) return refuse(Expected("BEGIN_ARRAY", a, "$.actions"));
    for (size_t k = 0; k < a.size(); ++k)
      if (auto r = GsonItem(a[k], fmt::format("$.actions[{}]", k))) return refuse(*r);
  }
  if (auto r = Validate(body)) return refuse(*r);
  std::vector<Source> sources;
  if (auto r = Preprocess(body, sources)) return refuse(*r);
  // The tokenizer's order: sources of no input, then keys, then pointers.
  for (const Source& s : sources)
    if (s.type == "none")
      if (auto r = Pauses(s, out.total_ms)) return refuse(*r);
  for (const Source& s : sources)
    if (s.type == "key")
      if (auto r = Keys(s, out.total_ms)) return refuse(*r);
  int pointers = 0;
  for (const Source& s : sources)
    if (s.type == "pointer")
      if (auto r = Pointer(s, pointers++, element, out.touches, out.total_ms)) return refuse(*r);
  // Valid for the server; what the simulator does not model is said so, not done wrongly.
  for (const Source& s : sources) {
    if (s.type == "key" || pointers > 1 || s.pointer_type == "mouse" || s.pointer_type == "pen")
      return refuse({"unknown error",
                     "roam sim serve: only one touch pointer is simulated (no keys, no second "
                     "pointer, no mouse or pen); the real server would inject these"});
  }
  return out;
}

}  // namespace roam::serve
