// The widget half of SpecCompiler: widgets (roles, edit fields, dynamic texts, lists and
// rows, handlers) and menus.
#include <algorithm>

#include <fmt/format.h>

#include "base/regex.h"
#include "sim/spec_compiler.h"

namespace roam::sim {
namespace {

constexpr int kDefaultVisibleRows = 6;
constexpr std::array<std::string_view, kWidgetEventCount> kWidgetEvents = {
    "click", "long_click", "input_text", "scroll_up", "scroll_down", "scroll_left", "scroll_right"};

bool IsInteger(const json& v) { return v.is_number_integer() || v.is_number_unsigned(); }

}  // namespace

void SpecCompiler::Menu(const json& menu, const std::string& path, PageSpec& page) {
  for (size_t i = 0; i < menu.size(); ++i) {
    std::string p = Join(path, i);
    if (!IsType(menu[i], json::value_t::object, p)) continue;
    CheckKeys(menu[i], p, {"id", "text", "on"});
    MenuItemSpec item;
    item.id = String(menu[i], "id", p, true);
    item.text = TemplateField(menu[i], "text", p, Ctx{&page, -1});
    if (const json* on = Field(menu[i], "on", p, false, json::value_t::object)) {
      CheckKeys(*on, Join(p, "on"), {"click"});
      if (on->contains("click"))
        item.on_click = HandlerIndex((*on)["click"], Join(Join(p, "on"), "click"), Ctx{&page, -1},
                                     page.id + "/" + item.id + ":click");
    }
    page.menu.push_back(std::move(item));
  }
}

void SpecCompiler::Widgets(const json& widgets, const std::string& path, PageSpec& page,
                           int row_list, std::vector<WidgetSpec>& out) {
  out.resize(widgets.size());
  for (size_t i = 0; i < widgets.size(); ++i) {
    std::string p = Join(path, i);
    if (IsType(widgets[i], json::value_t::object, p)) Widget(widgets[i], p, page, row_list, out[i]);
  }
}

void SpecCompiler::Widget(const json& w, const std::string& path, PageSpec& page, int row_list,
                          WidgetSpec& out) {
  CheckKeys(
      w, path,
      {"id", "class", "text", "desc", "hint", "resource_id", "on", "input", "checked", "enabled_if",
       "visible_if", "dynamic", "children", "list", "row", "visible_rows", "bounds"});
  Ctx ctx{&page, row_list};
  out.on.fill(-1);
  out.id = String(w, "id", path, false);
  out.text = TemplateField(w, "text", path, ctx);
  out.desc = TemplateField(w, "desc", path, ctx);
  out.hint = TemplateField(w, "hint", path, ctx);
  if (w.contains("resource_id")) {
    out.resource_id = String(w, "resource_id", path, false);
  } else if (!out.id.empty()) {
    out.resource_id = spec_->package_ + ":id/" + out.id;
  }
  if (const json* in = Field(w, "input", path, false, json::value_t::object)) {
    std::string ip = Join(path, "input");
    CheckKeys(*in, ip, {"min", "max", "pattern"});
    for (size_t s = 0; s < page.fields.size(); ++s)
      if (page.fields[s].name == out.id && row_list < 0) out.field = static_cast<int>(s);
    FieldSpec scratch;
    FieldSpec& f = out.field >= 0 ? page.fields[out.field] : scratch;
    if (const json* v = Field(*in, "min", ip, false, json::value_t::number_integer))
      f.min = v->get<int>();
    if (const json* v = Field(*in, "max", ip, false, json::value_t::number_integer))
      f.max = v->get<int>();
    std::string pattern = String(*in, "pattern", ip, false);
    if (in->contains("pattern") && (*in)["pattern"].is_string()) {
      if (auto re = MakeRegex(pattern, std::regex::ECMAScript); re.ok()) {
        f.pattern = std::move(*re);
        f.has_pattern = true;
      } else {
        Error(Join(ip, "pattern"),
              fmt::format("bad regex \"{}\": {}", pattern, re.status().message()));
      }
    }
    out.editable = out.clickable = true;
  }
  if (w.contains("checked")) {
    std::string cp = Join(path, "checked");
    if (IsType(w["checked"], json::value_t::string, cp)) {
      out.checked = Value(w["checked"], cp, ctx);
      RefKind k = out.checked.kind == ValueExpr::Kind::kRef ? out.checked.ref.kind : RefKind::kNone;
      if (k != RefKind::kVar && k != RefKind::kRowField)
        Error(cp, "\"checked\" must be \"$var.NAME\" or \"$row.FIELD\"");
      out.checkable = out.clickable = true;
    }
  }
  if (w.contains("enabled_if"))
    out.enabled_if = CondIndex(w["enabled_if"], Join(path, "enabled_if"), ctx);
  if (w.contains("visible_if"))
    out.visible_if = CondIndex(w["visible_if"], Join(path, "visible_if"), ctx);
  if (const json* d = Field(w, "dynamic", path, false, json::value_t::object)) {
    std::string dp = Join(path, "dynamic");
    CheckKeys(*d, dp, {"kind", "texts", "p"});
    std::string kind = String(*d, "kind", dp, true);
    if (kind == "clock") {
      out.dynamic = DynamicKind::kClock;
      spec_->has_clock_ = true;
    } else if (kind == "rotate") {
      RotateSpec r;
      if (const json* t = Field(*d, "texts", dp, true, json::value_t::array)) {
        for (size_t i = 0; i < t->size(); ++i)
          if (IsType((*t)[i], json::value_t::string, Join(Join(dp, "texts"), i)))
            r.texts.push_back((*t)[i].get<std::string>());
        if (t->empty()) Error(Join(dp, "texts"), "needs at least one text");
      }
      if (const json* p = Field(*d, "p", dp, true, json::value_t::number_float)) {
        r.p = p->get<double>();
        if (r.p < 0 || r.p > 1) Error(Join(dp, "p"), "a probability must be within [0, 1]");
      }
      if (!r.texts.empty()) {
        out.dynamic = DynamicKind::kRotate;
        out.rotate = static_cast<int>(spec_->rotates_.size());
        spec_->rotates_.push_back(std::move(r));
      }
    } else if (!kind.empty()) {
      Error(Join(dp, "kind"), NotFound("dynamic kind", kind, {"clock", "rotate"}));
    }
  }
  if (const json* c = Field(w, "children", path, false, json::value_t::array))
    Widgets(*c, Join(path, "children"), page, row_list, out.children);
  std::string list = String(w, "list", path, false);
  if (!list.empty()) {
    if (row_list >= 0) Error(Join(path, "list"), "lists cannot be nested in list rows");
    out.list = IndexOf(list_names_, list, Join(path, "list"), "list");
    out.scroll = page.scroll_slots++;
    out.scrollable = true;
    out.visible_rows = kDefaultVisibleRows;
    if (const json* v = Field(w, "visible_rows", path, false, json::value_t::number_integer)) {
      out.visible_rows = v->get<int>();
      if (out.visible_rows <= 0) Error(Join(path, "visible_rows"), "must be positive");
    }
    if (const json* r = Field(w, "row", path, true, json::value_t::array))
      Widgets(*r, Join(path, "row"), page, std::max(out.list, 0), out.row);
  } else if (w.contains("row") || w.contains("visible_rows")) {
    Error(path, "\"row\" and \"visible_rows\" need \"list\"");
  }
  if (const json* b = Field(w, "bounds", path, false, json::value_t::array)) {
    bool ok = b->size() == 4 && std::all_of(b->begin(), b->end(), IsInteger);
    if (ok) {
      out.bounds = {(*b)[0].get<int>(), (*b)[1].get<int>(), (*b)[2].get<int>(), (*b)[3].get<int>()};
      ok = !out.bounds.empty();
    }
    if (!ok)
      Error(Join(path, "bounds"),
            "expected [left, top, right, bottom] with left < right, top < bottom");
    out.has_bounds = ok;
  }
  if (const json* on = Field(w, "on", path, false, json::value_t::object)) {
    if (out.id.empty()) Error(path, "a widget with handlers needs an \"id\"");
    std::string op = Join(path, "on");
    for (const auto& [key, effects] : on->items()) {
      auto ev = std::find(kWidgetEvents.begin(), kWidgetEvents.end(), key);
      if (ev == kWidgetEvents.end()) {
        if (!key.empty() && key[0] != '_')
          Error(Join(op, key),
                NotFound("widget event", key, {kWidgetEvents.begin(), kWidgetEvents.end()}));
        continue;
      }
      out.on[ev - kWidgetEvents.begin()] =
          HandlerIndex(effects, Join(op, key), ctx, page.id + "/" + out.id + ":" + key);
    }
  }
  bool click = out.on[static_cast<int>(WidgetEvent::kClick)] >= 0;
  out.clickable = out.clickable || click;
  out.long_clickable = out.on[static_cast<int>(WidgetEvent::kLongClick)] >= 0;
  for (WidgetEvent scroll : {WidgetEvent::kScrollUp, WidgetEvent::kScrollDown,
                             WidgetEvent::kScrollLeft, WidgetEvent::kScrollRight})
    out.scrollable = out.scrollable || out.on[static_cast<int>(scroll)] >= 0;
  if (const json* c = Field(w, "class", path, false, json::value_t::string))
    out.cls = c->get<std::string>();
  else if (out.editable)
    out.cls = "android.widget.EditText";
  else if (out.checkable)
    out.cls = "android.widget.CheckBox";
  else if (out.list >= 0 || !list.empty())
    out.cls = "android.widget.ListView";
  else if (w.contains("children"))
    out.cls = "android.widget.LinearLayout";
  else if (click)
    out.cls = "android.widget.Button";
  else
    out.cls = "android.widget.TextView";
}

}  // namespace roam::sim
