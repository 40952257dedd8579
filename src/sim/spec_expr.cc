// The expression half of SpecCompiler: references, templates, values, conditions, effects.
#include <algorithm>

#include <fmt/format.h>

#include "base/files.h"
#include "sim/spec_compiler.h"

namespace roam::sim {
namespace {

const std::vector<std::string> kVerbs = {
    "navigate", "back",        "finish",      "set",        "inc",       "toggle",
    "add_item", "remove_item", "update_item", "clear_list", "dialog",    "dismiss",
    "crash",    "hang",        "cover",       "stop",       "set_input", "leave"};
const std::vector<std::string> kCondOps = {"eq",  "ne",  "lt",  "le",    "gt",    "ge",
                                           "not", "all", "any", "valid", "truthy"};

bool IsRefStart(std::string_view s) {
  for (std::string_view p : {"var.", "len.", "input.", "row.", "extra."})
    if (s.substr(0, p.size()) == p) return true;
  return s == "row";
}

}  // namespace

int SpecCompiler::Unit(const std::string& name) {
  auto [it, inserted] = unit_index_.emplace(name, static_cast<int>(unit_index_.size()));
  return it->second;
}

int SpecCompiler::FieldName(const std::string& name, const std::string& path, bool defines) {
  auto& names = spec_->field_names_;
  auto it = std::find(names.begin(), names.end(), name);
  int index = static_cast<int>(it - names.begin());
  if (it == names.end()) names.push_back(name);
  if (defines)
    defined_fields_.insert(name);
  else
    field_uses_.emplace_back(path, name);
  return index;
}

Ref SpecCompiler::InputRef(const std::string& name, const std::string& path, const Ctx& ctx) {
  auto global = std::find(input_names_.begin(), input_names_.end(), name);
  if (ctx.page && global != input_names_.end()) {
    int slot = ctx.page->field_by_name[global - input_names_.begin()];
    if (slot >= 0) return {RefKind::kInput, slot};
    // A dialog may read the fields of the screen beneath it.
    if (ctx.page->dialog)
      return {RefKind::kInputByName, static_cast<int>(global - input_names_.begin())};
  }
  std::vector<std::string> mine;
  if (ctx.page)
    for (const FieldSpec& f : ctx.page->fields) mine.push_back(f.name);
  Error(path, NotFound("edit field", name, mine.empty() ? input_names_ : mine) +
                  (ctx.page && ctx.page->dialog ? "" : " on this screen"));
  return {};
}

Ref SpecCompiler::ExtraRef(const std::string& key, const std::string& path, const Ctx& ctx) {
  if (!ctx.page || ctx.page->dialog) {
    Error(path, fmt::format("$extra.{}: only a screen reads the extras an intent started it with "
                            "(a dialog has none)",
                            key));
    return {};
  }
  std::vector<std::string> keys;
  for (size_t k = 0; k < ctx.page->extras.size(); ++k) {
    if (ctx.page->extras[k].key == key) return {RefKind::kExtra, static_cast<int>(k)};
    keys.push_back(ctx.page->extras[k].key);
  }
  Error(path, NotFound("extra", key, keys) + " (a screen reads the extras its \"extras\" declare)");
  return {};
}

Ref SpecCompiler::ParseRef(const std::string& s, const std::string& path, const Ctx& ctx) {
  auto dot = s.find('.');
  std::string head = s.substr(0, dot);
  std::string name = dot == std::string::npos ? "" : s.substr(dot + 1);
  if (head == "row" && dot == std::string::npos) return {RefKind::kRow, -1};
  if (!name.empty()) {
    if (head == "var") return {RefKind::kVar, IndexOf(spec_->var_names_, name, path, "var")};
    if (head == "len") return {RefKind::kLen, IndexOf(list_names_, name, path, "list")};
    if (head == "row") return {RefKind::kRowField, FieldName(name, path, false)};
    if (head == "input") return InputRef(name, path, ctx);
    if (head == "extra") return ExtraRef(name, path, ctx);
  }
  Error(path, fmt::format("bad reference \"{}\" (expected var.NAME, len.LIST, row, row.FIELD, "
                          "input.WIDGET or extra.KEY)",
                          s));
  return {};
}

Template SpecCompiler::ParseTemplate(const std::string& s, const std::string& path,
                                     const Ctx& ctx) {
  Template t;
  std::string text;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t open = s.find('{', pos);
    size_t close = open == std::string::npos ? open : s.find('}', open);
    if (close == std::string::npos) break;
    std::string inner = s.substr(open + 1, close - open - 1);
    text += s.substr(pos, open - pos);
    if (IsRefStart(inner)) {
      t.pieces.push_back({std::move(text), ParseRef(inner, path, ctx)});
      text.clear();
    } else {
      text += s.substr(open, close - open + 1);  // braces that are not a reference stay text
    }
    pos = close + 1;
  }
  if (pos < s.size()) text += s.substr(pos);
  if (!text.empty()) t.pieces.push_back({std::move(text), Ref{}});
  return t;
}

Template SpecCompiler::TemplateField(const json& obj, const char* key, const std::string& path,
                                     const Ctx& ctx) {
  const json* v = Field(obj, key, path, false, json::value_t::string);
  return v ? ParseTemplate(v->get<std::string>(), Join(path, key), ctx) : Template{};
}

bool SpecCompiler::Literal(const json& v, const std::string& path, Val& out) {
  if (v.is_boolean())
    out = Val::Bool(v.get<bool>());
  else if (v.is_number_integer() || v.is_number_unsigned())
    out = Val::Int(v.get<int64_t>());
  else if (v.is_string())
    out = Val::Str(v.get<std::string>());
  else if (v.is_null())
    out = Val{};
  else {
    Error(path, fmt::format("expected a boolean, integer or string, got {}",
                            v.is_number() ? "a fractional number" : v.type_name()));
    return false;
  }
  return true;
}

ValueExpr SpecCompiler::Value(const json& v, const std::string& path, const Ctx& ctx) {
  ValueExpr out;
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (!s.empty() && s[0] == '$') {
      out.kind = ValueExpr::Kind::kRef;
      out.ref = ParseRef(s.substr(1), path, ctx);
      return out;
    }
    if (s.find('{') != std::string::npos) {
      Template t = ParseTemplate(s, path, ctx);
      if (!t.constant()) {
        out.kind = ValueExpr::Kind::kTemplate;
        out.tmpl = std::move(t);
        return out;
      }
    }
  }
  Literal(v, path, out.literal);
  return out;
}

int SpecCompiler::CondIndex(const json& c, const std::string& path, const Ctx& ctx) {
  Cond cond = CompileCond(c, path, ctx);
  spec_->conds_.push_back(std::move(cond));
  return static_cast<int>(spec_->conds_.size()) - 1;
}

Cond SpecCompiler::CompileCond(const json& c, const std::string& path, const Ctx& ctx) {
  Cond out;
  if (!IsType(c, json::value_t::object, path)) return out;
  std::vector<std::string> ops;
  for (const auto& [key, v] : c.items())
    if (key.empty() || key[0] != '_') ops.push_back(key);
  if (ops.size() != 1) {
    Error(path, fmt::format("a condition needs exactly one operator ({}), got {}",
                            fmt::join(kCondOps, ", "), ops.size()));
    return out;
  }
  const std::string& op = ops[0];
  const json& arg = c[op];
  std::string p = Join(path, op);
  auto it = std::find(kCondOps.begin(), kCondOps.end(), op);
  if (it == kCondOps.end()) {
    Error(p, NotFound("condition operator", op, kCondOps));
    return out;
  }
  out.op = static_cast<CondOp>(it - kCondOps.begin());
  switch (out.op) {
    case CondOp::kNot:
      out.kids.push_back(CompileCond(arg, p, ctx));
      break;
    case CondOp::kAll:
    case CondOp::kAny:
      if (IsType(arg, json::value_t::array, p))
        for (size_t i = 0; i < arg.size(); ++i)
          out.kids.push_back(CompileCond(arg[i], Join(p, i), ctx));
      break;
    case CondOp::kValid:
      if (IsType(arg, json::value_t::string, p))
        out.field = InputRef(arg.get<std::string>(), p, ctx);
      break;
    case CondOp::kTruthy:
      out.a = Value(arg, p, ctx);
      break;
    default:
      if (!arg.is_array() || arg.size() != 2) {
        Error(p, "expected [value, value]");
      } else {
        out.a = Value(arg[0], Join(p, 0), ctx);
        out.b = Value(arg[1], Join(p, 1), ctx);
      }
  }
  return out;
}

int SpecCompiler::HandlerIndex(const json& effects, const std::string& path, const Ctx& ctx,
                               const std::string& unit) {
  if (!IsType(effects, json::value_t::array, path)) return -1;
  Handler h;
  for (size_t i = 0; i < effects.size(); ++i)
    h.effects.push_back(CompileEffect(effects[i], Join(path, i), ctx));
  h.unit = Unit(unit);
  // "Main/save:click" -> "org.app.Main.onClick(Main.java)": a plausible frame for stack traces.
  std::string page = unit.substr(0, unit.find_first_of("/:"));
  std::string method = "on";
  bool upper = true;
  for (char c : unit.substr(unit.rfind(':') + 1)) {
    if (c == '_') {
      upper = true;
      continue;
    }
    method += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  h.default_frame = fmt::format("{}.{}.{}({}.java)", spec_->package_, page, method, page);
  spec_->handlers_.push_back(std::move(h));
  return static_cast<int>(spec_->handlers_.size()) - 1;
}

Effect SpecCompiler::CompileEffect(const json& e, const std::string& path, const Ctx& ctx) {
  Effect out;
  if (!IsType(e, json::value_t::object, path)) return out;
  std::vector<std::string> verbs;
  for (const auto& [key, v] : e.items())
    if (std::find(kVerbs.begin(), kVerbs.end(), key) != kVerbs.end() &&
        !(key == "set" && e.contains("update_item")))
      verbs.push_back(key);
  if (verbs.size() != 1) {
    Error(path, verbs.empty()
                    ? fmt::format("an effect needs one verb ({})", fmt::join(kVerbs, ", "))
                    : fmt::format("an effect has one verb, this one has {}: {}", verbs.size(),
                                  fmt::join(verbs, ", ")));
    CheckKeys(e, path, {"navigate", "back",      "finish",      "set",         "inc",
                        "toggle",   "add_item",  "remove_item", "update_item", "clear_list",
                        "dialog",   "dismiss",   "crash",       "hang",        "cover",
                        "stop",     "set_input", "leave",       "to",          "by",
                        "item",     "at",        "if",          "bug",         "fix"});
    return out;
  }
  const std::string& verb = verbs[0];
  out.verb = static_cast<Verb>(std::find(kVerbs.begin(), kVerbs.end(), verb) - kVerbs.begin());
  if (e.contains("if")) out.cond = CondIndex(e["if"], Join(path, "if"), ctx);
  if (e.contains("bug") && e.contains("fix"))
    Error(path, "an effect has \"bug\" or \"fix\", not both");
  for (const char* key : {"bug", "fix"}) {
    std::string id = String(e, key, path, false);
    if (id.empty()) continue;
    out.bug = IndexOf(bug_ids_, id, Join(path, key), "bug");
    out.fix = std::string(key) == "fix";
    if (!out.fix) bug_refs_.emplace(id, path);
  }
  EffectBody(verb, e, path, ctx, out);
  return out;
}

void SpecCompiler::EffectBody(const std::string& verb, const json& e, const std::string& path,
                              const Ctx& ctx, Effect& out) {
  const json& arg = e[verb];
  std::string vp = Join(path, verb);
  auto keys = [&](std::initializer_list<std::string_view> extra) {
    std::vector<std::string_view> all = {verb, "if", "bug", "fix"};
    all.insert(all.end(), extra.begin(), extra.end());
    std::vector<std::string> names(all.begin(), all.end());
    for (const auto& [key, v] : e.items()) {
      if ((!key.empty() && key[0] == '_') ||
          std::find(names.begin(), names.end(), key) != names.end())
        continue;
      Error(Join(path, key),
            fmt::format("unknown key \"{}\" for \"{}\"{}", key, verb, DidYouMean(key, names)));
    }
  };
  auto name = [&](const std::vector<std::string>& names, const char* what) {
    if (!IsType(arg, json::value_t::string, vp)) return -1;
    return IndexOf(names, arg.get<std::string>(), vp, what);
  };
  auto var_of = [&](Val::Type type, const char* type_name) {
    out.target = name(spec_->var_names_, "var");
    if (out.target >= 0 && spec_->var_init_[out.target].type != type)
      Error(vp, fmt::format("\"{}\" needs a {} variable", verb, type_name));
  };
  auto item_fields = [&](const char* key) {
    std::string fp = Join(path, key);
    const json* obj = Field(e, key, path, true, json::value_t::object);
    if (!obj) return;
    for (const auto& [f, v] : obj->items())
      out.fields.emplace_back(FieldName(f, "", true), Value(v, Join(fp, f), ctx));
  };
  auto flag = [&]() {
    if (!arg.is_boolean() || !arg.get<bool>()) Error(vp, "expected true");
  };
  switch (out.verb) {
    case Verb::kNavigate:
      keys({});
      out.target = name(screen_ids_, "screen");
      break;
    case Verb::kDialog:
      keys({});
      out.target = name(dialog_ids_, "dialog");
      break;
    case Verb::kBack:
    case Verb::kFinish:
    case Verb::kDismiss:
    case Verb::kStop:
    case Verb::kLeave:
      keys({});
      flag();
      break;
    case Verb::kSet:
      keys({"to"});
      out.target = name(spec_->var_names_, "var");
      if (!e.contains("to"))
        Error(path, "missing required field \"to\"");
      else
        out.value = Value(e["to"], Join(path, "to"), ctx);
      break;
    case Verb::kInc:
      keys({"by"});
      var_of(Val::Type::kInt, "integer");
      out.value.literal = Val::Int(1);
      if (e.contains("by")) out.value = Value(e["by"], Join(path, "by"), ctx);
      break;
    case Verb::kToggle:
      keys({});
      var_of(Val::Type::kBool, "boolean");
      break;
    case Verb::kAddItem:
      keys({"item", "at"});
      out.target = name(list_names_, "list");
      item_fields("item");
      if (e.contains("at")) out.value = Value(e["at"], Join(path, "at"), ctx);
      break;
    case Verb::kRemoveItem:
    case Verb::kUpdateItem:
      keys(out.verb == Verb::kUpdateItem ? std::initializer_list<std::string_view>{"at", "set"}
                                         : std::initializer_list<std::string_view>{"at"});
      out.target = name(list_names_, "list");
      if (!e.contains("at"))
        Error(path, "missing required field \"at\"");
      else
        out.value = Value(e["at"], Join(path, "at"), ctx);
      if (out.verb == Verb::kUpdateItem) item_fields("set");
      break;
    case Verb::kClearList:
      keys({});
      out.target = name(list_names_, "list");
      break;
    case Verb::kCrash:
    case Verb::kHang: {
      keys({});
      if (!IsType(arg, json::value_t::object, vp)) break;
      bool crash = out.verb == Verb::kCrash;
      if (crash)
        CheckKeys(arg, vp, {"exception", "message", "frames"});
      else
        CheckKeys(arg, vp, {"message", "frames"});
      if (crash) out.exception = String(arg, "exception", vp, true);
      out.message = TemplateField(arg, "message", vp, ctx);
      if (const json* f = Field(arg, "frames", vp, false, json::value_t::array))
        for (size_t i = 0; i < f->size(); ++i)
          if (IsType((*f)[i], json::value_t::string, Join(Join(vp, "frames"), i)))
            out.frames.push_back((*f)[i].get<std::string>());
      break;
    }
    case Verb::kCover:
      keys({});
      if (IsType(arg, json::value_t::array, vp))
        for (size_t i = 0; i < arg.size(); ++i)
          if (IsType(arg[i], json::value_t::string, Join(vp, i)))
            out.units.push_back(Unit(arg[i].get<std::string>()));
      break;
    case Verb::kSetInput:
      keys({"to"});
      if (IsType(arg, json::value_t::string, vp))
        out.input = InputRef(arg.get<std::string>(), vp, ctx);
      if (!e.contains("to"))
        Error(path, "missing required field \"to\"");
      else
        out.value = Value(e["to"], Join(path, "to"), ctx);
      break;
  }
}

}  // namespace roam::sim
