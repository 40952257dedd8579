// The structural half of SpecCompiler: top level, vars, lists, bugs, screens, dialogs, widgets.
#include <algorithm>

#include <fmt/format.h>

#include "base/files.h"
#include "sim/spec_compiler.h"

namespace roam::sim {
namespace {

constexpr int kDefaultWidth = 1080;
constexpr int kDefaultHeight = 1920;

const char* TypeName(json::value_t t) {
  switch (t) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "an integer";
    case json::value_t::number_float:
      return "a number";
    default:
      return "a value";
  }
}

bool IsInteger(const json& v) { return v.is_number_integer() || v.is_number_unsigned(); }

constexpr std::array<std::string_view, kPageEventCount> kPageEvents = {
    "back", "enter", "rotate", "menu", "swipe_up", "swipe_down", "swipe_left", "swipe_right"};
const std::vector<std::string> kSeenBy = {"crash", "gui_effect", "other"};
const std::vector<std::string> kBugKinds = {
    "crash",         "anr",   "data_loss", "function_stops", "wrong_behaviour", "gui_inconsistent",
    "wrong_display", "design"};

}  // namespace

std::string DefaultSeenBy(const std::string& kind) {
  if (kind == "crash" || kind == "anr") return "crash";
  if (kind == "data_loss" || kind == "function_stops" || kind == "wrong_behaviour")
    return "gui_effect";
  return "other";
}

std::string Join(const std::string& path, std::string_view key) {
  std::string out = path + "/";
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}
std::string Join(const std::string& path, size_t index) {
  return path + "/" + std::to_string(index);
}

SpecCompiler::SpecCompiler(const json& doc, std::vector<SpecError>& errors)
    : doc_(doc), errors_(errors), spec_(std::make_unique<AppSpec>()) {}

void SpecCompiler::Error(const std::string& path, std::string message) {
  errors_.push_back({path.empty() ? "/" : path, std::move(message)});
}

bool SpecCompiler::IsType(const json& v, json::value_t type, const std::string& path, bool report) {
  bool ok = type == json::value_t::number_integer ? IsInteger(v)
            : type == json::value_t::number_float ? v.is_number()
                                                  : v.type() == type;
  if (!ok && report)
    Error(path, fmt::format("expected {}, got {}", TypeName(type), TypeName(v.type())));
  return ok;
}

void SpecCompiler::CheckKeys(const json& obj, const std::string& path,
                             std::initializer_list<std::string_view> allowed) {
  if (!obj.is_object()) return;
  std::vector<std::string> names(allowed.begin(), allowed.end());
  for (const auto& [key, value] : obj.items()) {
    if (!key.empty() && key[0] == '_') continue;  // comments
    if (std::find(names.begin(), names.end(), key) != names.end()) continue;
    Error(Join(path, key), fmt::format("unknown key \"{}\"{}", key, DidYouMean(key, names)));
  }
}

const json* SpecCompiler::Field(const json& obj, const char* key, const std::string& path,
                                bool required, json::value_t type) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (required) Error(path, fmt::format("missing required field \"{}\"", key));
    return nullptr;
  }
  return IsType(*it, type, Join(path, key)) ? &*it : nullptr;
}

std::string SpecCompiler::String(const json& obj, const char* key, const std::string& path,
                                 bool required) {
  const json* v = Field(obj, key, path, required, json::value_t::string);
  return v ? v->get<std::string>() : std::string();
}

std::string SpecCompiler::NotFound(const char* what, const std::string& name,
                                   const std::vector<std::string>& candidates) {
  return fmt::format("unknown {} \"{}\"{}", what, name, DidYouMean(name, candidates));
}

int SpecCompiler::IndexOf(const std::vector<std::string>& names, const std::string& name,
                          const std::string& path, const char* what) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<int>(it - names.begin());
  Error(path, NotFound(what, name, names));
  return -1;
}

void SpecCompiler::Names(const char* key, std::vector<std::string>& out) {
  auto it = doc_.find(key);
  if (it == doc_.end() || !it->is_array()) return;
  std::set<std::string> seen;
  for (size_t i = 0; i < it->size(); ++i) {
    const json& p = (*it)[i];
    std::string id;
    if (p.is_object() && p.contains("id") && p["id"].is_string()) id = p["id"].get<std::string>();
    if (!id.empty() && !seen.insert(id).second)
      Error(Join(Join(Join("", key), i), "id"), fmt::format("duplicate id \"{}\"", id));
    out.push_back(id);
  }
}

std::unique_ptr<AppSpec> SpecCompiler::Run() {
  if (!IsType(doc_, json::value_t::object, "")) return nullptr;
  TopLevel();
  VarsAndLists();
  Bugs();
  Names("screens", screen_ids_);
  Names("dialogs", dialog_ids_);
  for (size_t i = 0; i < dialog_ids_.size(); ++i)
    if (!dialog_ids_[i].empty() &&
        std::find(screen_ids_.begin(), screen_ids_.end(), dialog_ids_[i]) != screen_ids_.end())
      Error(Join(Join("/dialogs", i), "id"),
            fmt::format("dialog id \"{}\" is also a screen id", dialog_ids_[i]));
  const json empty = json::array();
  const json* screens = Field(doc_, "screens", "", true, json::value_t::array);
  const json* dialogs = Field(doc_, "dialogs", "", false, json::value_t::array);
  if (screens && screens->empty()) Error("/screens", "an app needs at least one screen");
  if (!screens) screens = &empty;
  if (!dialogs) dialogs = &empty;
  spec_->screens_.resize(screens->size());
  spec_->dialogs_.resize(dialogs->size());
  for (size_t i = 0; i < screens->size(); ++i) {
    spec_->screens_[i].dialog = false;
    PrePage((*screens)[i], Join("/screens", i), spec_->screens_[i]);
  }
  for (size_t i = 0; i < dialogs->size(); ++i) {
    spec_->dialogs_[i].dialog = true;
    PrePage((*dialogs)[i], Join("/dialogs", i), spec_->dialogs_[i]);
  }
  for (auto* pages : {&spec_->screens_, &spec_->dialogs_})
    for (PageSpec& p : *pages) {
      p.field_by_name.assign(input_names_.size(), -1);
      for (size_t s = 0; s < p.fields.size(); ++s) {
        auto it = std::find(input_names_.begin(), input_names_.end(), p.fields[s].name);
        p.field_by_name[it - input_names_.begin()] = static_cast<int>(s);
      }
    }
  for (size_t i = 0; i < screens->size(); ++i)
    Page((*screens)[i], Join("/screens", i), spec_->screens_[i]);
  for (size_t i = 0; i < dialogs->size(); ++i)
    Page((*dialogs)[i], Join("/dialogs", i), spec_->dialogs_[i]);
  OneDeclarationPerActivity(*screens);
  std::string start = String(doc_, "start", "", true);
  if (!start.empty()) spec_->start_ = std::max(0, IndexOf(screen_ids_, start, "/start", "screen"));
  Finish();
  if (!errors_.empty()) return nullptr;
  return std::move(spec_);
}

void SpecCompiler::TopLevel() {
  CheckKeys(doc_, "",
            {"app", "package", "label", "description", "screen", "start", "vars", "lists",
             "persist", "bugs", "screens", "dialogs"});
  spec_->app_ = String(doc_, "app", "", true);
  spec_->package_ = String(doc_, "package", "", true);
  spec_->label_ = String(doc_, "label", "", false);
  if (spec_->label_.empty()) spec_->label_ = spec_->app_;
  String(doc_, "description", "", false);
  spec_->width_ = kDefaultWidth;
  spec_->height_ = kDefaultHeight;
  if (const json* s = Field(doc_, "screen", "", false, json::value_t::array)) {
    if (s->size() != 2 || !IsInteger((*s)[0]) || !IsInteger((*s)[1]) ||
        (*s)[0].get<int64_t>() <= 0 || (*s)[1].get<int64_t>() <= 0) {
      Error("/screen", "expected [width, height], two positive integers");
    } else {
      spec_->width_ = (*s)[0].get<int>();
      spec_->height_ = (*s)[1].get<int>();
    }
  }
}

void SpecCompiler::VarsAndLists() {
  if (const json* vars = Field(doc_, "vars", "", false, json::value_t::object)) {
    for (const auto& [name, v] : vars->items()) {
      Val val;
      if (Literal(v, Join("/vars", name), val) && val.type == Val::Type::kNull)
        Error(Join("/vars", name), "a variable needs a boolean, integer or string initial value");
      spec_->var_names_.push_back(name);
      spec_->var_init_.push_back(val);
    }
  }
  const json* lists = Field(doc_, "lists", "", false, json::value_t::object);
  if (lists) {
    for (const auto& [name, items] : lists->items()) {
      list_names_.push_back(name);
      std::string lp = Join("/lists", name);
      if (!IsType(items, json::value_t::array, lp)) continue;
      for (size_t i = 0; i < items.size(); ++i)
        if (IsType(items[i], json::value_t::object, Join(lp, i)))
          for (const auto& [f, v] : items[i].items()) FieldName(f, "", true);
    }
  }
  spec_->lists_.resize(list_names_.size());
  // Items are built once every initial field name is known (items are one Val per field).
  for (size_t l = 0; l < list_names_.size(); ++l) {
    ListSpec& ls = spec_->lists_[l];
    ls.name = list_names_[l];
    const json& items = (*lists)[ls.name];
    if (!items.is_array()) continue;
    for (size_t i = 0; i < items.size(); ++i) {
      if (!items[i].is_object()) continue;
      std::vector<Val> item(spec_->field_names_.size());
      for (const auto& [f, v] : items[i].items())
        Literal(v, Join(Join(Join("/lists", ls.name), i), f), item[FieldName(f, "", true)]);
      ls.items.push_back(std::move(item));
    }
  }
  spec_->var_persist_.assign(spec_->var_names_.size(), false);
  spec_->list_persist_.assign(list_names_.size(), false);
  if (const json* persist = Field(doc_, "persist", "", false, json::value_t::array)) {
    for (size_t i = 0; i < persist->size(); ++i) {
      std::string p = Join("/persist", i);
      if (!IsType((*persist)[i], json::value_t::string, p)) continue;
      std::string name = (*persist)[i].get<std::string>();
      auto& vars = spec_->var_names_;
      if (auto v = std::find(vars.begin(), vars.end(), name); v != vars.end()) {
        spec_->var_persist_[v - vars.begin()] = true;
      } else if (auto l = std::find(list_names_.begin(), list_names_.end(), name);
                 l != list_names_.end()) {
        spec_->list_persist_[l - list_names_.begin()] = true;
      } else {
        std::vector<std::string> all = vars;
        all.insert(all.end(), list_names_.begin(), list_names_.end());
        Error(p, NotFound("var or list", name, all));
      }
    }
  }
}

void SpecCompiler::Bugs() {
  const json* bugs = Field(doc_, "bugs", "", false, json::value_t::array);
  if (!bugs) return;
  std::set<std::string> seen;
  for (size_t i = 0; i < bugs->size(); ++i) {
    std::string p = Join("/bugs", i);
    const json& b = (*bugs)[i];
    BugSpec bug;
    if (IsType(b, json::value_t::object, p)) {
      CheckKeys(b, p, {"id", "kind", "summary", "correct", "seen_by", "oracle"});
      bug.id = String(b, "id", p, true);
      bug.kind = String(b, "kind", p, true);
      bug.summary = String(b, "summary", p, false);
      bug.correct = String(b, "correct", p, false);
      // "oracle" is the key's name before "seen_by"; specs written with it still load.
      const char* key = b.contains("seen_by") || !b.contains("oracle") ? "seen_by" : "oracle";
      if (b.contains("seen_by") && b.contains("oracle"))
        Error(Join(p, "oracle"), "give \"seen_by\" only (\"oracle\" is its former name)");
      bug.seen_by = String(b, key, p, false);
      if (bug.seen_by.empty()) bug.seen_by = DefaultSeenBy(bug.kind);
      if (std::find(kSeenBy.begin(), kSeenBy.end(), bug.seen_by) == kSeenBy.end())
        Error(Join(p, key), NotFound("bug seen_by", bug.seen_by, kSeenBy));
      if (!bug.kind.empty() &&
          std::find(kBugKinds.begin(), kBugKinds.end(), bug.kind) == kBugKinds.end())
        Error(Join(p, "kind"), NotFound("bug kind", bug.kind, kBugKinds));
      if (!bug.id.empty() && !seen.insert(bug.id).second)
        Error(Join(p, "id"), fmt::format("duplicate id \"{}\"", bug.id));
    }
    bug_ids_.push_back(bug.id);
    spec_->bugs_.push_back(std::move(bug));
  }
}

void SpecCompiler::PrePage(const json& page, const std::string& path, PageSpec& out) {
  if (!IsType(page, json::value_t::object, path)) return;
  out.id = page.contains("id") && page["id"].is_string() ? page["id"].get<std::string>() : "";
  std::set<std::string> ids;
  if (auto it = page.find("widgets"); it != page.end() && it->is_array())
    PreWidgets(*it, Join(path, "widgets"), out, ids, false);
  if (auto it = page.find("menu"); it != page.end() && it->is_array())
    for (size_t i = 0; i < it->size(); ++i) {
      const json& m = (*it)[i];
      if (m.is_object() && m.contains("id") && m["id"].is_string() &&
          !ids.insert(m["id"].get<std::string>()).second)
        Error(Join(Join(Join(path, "menu"), i), "id"),
              fmt::format("duplicate id \"{}\"", m["id"].get<std::string>()));
    }
}

void SpecCompiler::PreWidgets(const json& widgets, const std::string& path, PageSpec& page,
                              std::set<std::string>& ids, bool in_row) {
  for (size_t i = 0; i < widgets.size(); ++i) {
    const json& w = widgets[i];
    std::string p = Join(path, i);
    if (!w.is_object()) continue;
    std::string id = w.contains("id") && w["id"].is_string() ? w["id"].get<std::string>() : "";
    if (!id.empty() && !ids.insert(id).second)
      Error(Join(p, "id"), fmt::format("duplicate id \"{}\"", id));
    if (w.contains("input")) {
      if (in_row) {
        Error(Join(p, "input"), "edit fields are not allowed in list rows");
      } else if (id.empty()) {
        Error(p, "an edit field needs an \"id\"");
      } else {
        page.fields.emplace_back();
        page.fields.back().name = id;
        if (std::find(input_names_.begin(), input_names_.end(), id) == input_names_.end())
          input_names_.push_back(id);
      }
    }
    if (auto it = w.find("children"); it != w.end() && it->is_array())
      PreWidgets(*it, Join(p, "children"), page, ids, in_row);
    if (auto it = w.find("row"); it != w.end() && it->is_array())
      PreWidgets(*it, Join(p, "row"), page, ids, true);
  }
}

void SpecCompiler::Page(const json& page, const std::string& path, PageSpec& out) {
  if (!page.is_object()) return;
  out.on.fill(-1);
  Ctx ctx{&out, -1};
  if (out.dialog) {
    CheckKeys(page, path, {"id", "title", "message", "widgets", "on"});
  } else {
    CheckKeys(page, path,
              {"id", "activity", "title", "widgets", "menu", "on", "orientation", "settle_ms",
               "exported", "intent_filters", "extras"});
    std::string act = String(page, "activity", path, true);
    out.activity = !act.empty() && act[0] == '.' ? spec_->package_ + act : act;
    const std::string orientation = String(page, "orientation", path, false);
    if (!orientation.empty() && orientation != "portrait")
      Error(Join(path, "orientation"),
            fmt::format("\"{}\": the simulator models \"portrait\" (an activity locked to "
                        "portrait) or no \"orientation\" (it follows the device)",
                        orientation));
    out.portrait_locked = orientation == "portrait";
    Intents(page, path, out);
    if (const json* v = Field(page, "settle_ms", path, false, json::value_t::number_integer)) {
      if (v->get<int64_t>() < 0 || v->get<int64_t>() > kMaxSettleMs)
        Error(Join(path, "settle_ms"),
              fmt::format("{}: expected 0 to {} ms", v->dump(), kMaxSettleMs));
      else
        out.settle_ms = v->get<int>();
    }
  }
  String(page, "id", path, true);
  out.title = TemplateField(page, "title", path, ctx);
  out.message = TemplateField(page, "message", path, ctx);
  if (const json* w = Field(page, "widgets", path, false, json::value_t::array))
    Widgets(*w, Join(path, "widgets"), out, -1, out.widgets);
  if (!out.dialog)
    if (const json* m = Field(page, "menu", path, false, json::value_t::array))
      Menu(*m, Join(path, "menu"), out);
  if (const json* on = Field(page, "on", path, false, json::value_t::object)) {
    std::string op = Join(path, "on");
    for (const auto& [key, effects] : on->items()) {
      std::string unit = out.id + ":" + key;
      auto ev = std::find(kPageEvents.begin(), kPageEvents.end(), key);
      if (ev != kPageEvents.end()) {
        out.on[ev - kPageEvents.begin()] = HandlerIndex(effects, Join(op, key), ctx, unit);
      } else if (key.rfind("key:", 0) == 0 && key.size() > 4) {
        out.keys.emplace_back(key.substr(4), HandlerIndex(effects, Join(op, key), ctx, unit));
      } else if (key.rfind("broadcast:", 0) == 0 && !out.dialog) {
        const std::string action = key.substr(10);
        if (action.empty() || action.find_first_of(" \t\n'\"") != std::string::npos)
          Error(Join(op, key),
                "a broadcast's intent action is a name without spaces or quotes, "
                "such as broadcast:android.intent.action.BATTERY_LOW");
        out.broadcasts.emplace_back(action, HandlerIndex(effects, Join(op, key), ctx, unit));
      } else if (!key.empty() && key[0] != '_') {
        std::vector<std::string> names(kPageEvents.begin(), kPageEvents.end());
        Error(Join(op, key), NotFound("screen event", key, names) + "; screen events are " +
                                 fmt::format("{}, key:NAME and (screens) broadcast:ACTION",
                                             fmt::join(names, ", ")));
      }
    }
  }
  out.create_unit = Unit(out.id + ":create");
  for (const WidgetSpec& w : out.widgets) {
    const size_t at = w.resource_id.find(":id/");
    const std::string entry = at == std::string::npos ? "" : w.resource_id.substr(at + 4);
    out.own_bar |= w.cls.find("Toolbar") != std::string::npos ||
                   w.cls.find("ActionBar") != std::string::npos || entry == "toolbar" ||
                   entry == "action_bar" || entry == "app_bar";
  }
}

void SpecCompiler::Finish() {
  for (const auto& [path, name] : field_uses_)
    if (!defined_fields_.count(name))
      Error(path,
            NotFound("list item field", name, {defined_fields_.begin(), defined_fields_.end()}) +
                " (no list item, add_item or update_item has it)");
  for (size_t i = 0; i < bug_ids_.size(); ++i)
    if (!bug_ids_[i].empty() && !bug_refs_.count(bug_ids_[i]))
      Error(Join(Join("/bugs", i), "id"),
            fmt::format("bug \"{}\" is declared but no effect has \"bug\": \"{}\"", bug_ids_[i],
                        bug_ids_[i]));
  for (ListSpec& l : spec_->lists_)
    for (auto& item : l.items) item.resize(spec_->field_names_.size());
  spec_->units_.resize(unit_index_.size());
  for (const auto& [name, index] : unit_index_) spec_->units_[index] = name;
}

std::unique_ptr<AppSpec> CompileSpec(const nlohmann::json& doc, std::vector<SpecError>& errors,
                                     const std::string& source_name) {
  try {
    std::unique_ptr<AppSpec> spec = SpecCompiler(doc, errors).Run();
    if (spec) spec->source_ = source_name;
    return spec;
  } catch (const std::exception& e) {  // a path the checks above missed: report, never throw
    errors.push_back({"/", std::string("internal error while checking: ") + e.what()});
    return nullptr;
  }
}

}  // namespace roam::sim
