// The widgets of one generated screen: a self-changing widget, a header, a settings checkbox, a
// validated form, a list with Add and Delete, a confirm dialog, navigation buttons, a menu and a
// back button, each present as the screen's plan says.
#include <fmt/format.h>

#include "sim/generator_internal.h"

namespace roam::sim::gen {
namespace {

struct FieldKind {
  const char* key;
  const char* hint;
  int min, max;
  const char* pattern;  // "" for none
};
// Valid examples: "Alice", "alice@example.com", "12345678", "1234", any short text.
const std::vector<FieldKind> kFields = {{"title", "Title", 1, 40, ""},
                                        {"name", "Name", 1, 30, "[A-Za-z ]+"},
                                        {"email", "Email", 3, 60, "[^@ ]+@[^@ ]+\\.[a-z]+"},
                                        {"phone", "Phone", 6, 15, "[0-9+ ]+"},
                                        {"amount", "Amount", 1, 9, "[0-9]+"},
                                        {"city", "City", 1, 30, "[A-Za-z ]+"},
                                        {"pin", "PIN", 4, 4, "[0-9]+"},
                                        {"note", "Note", 0, 200, ""}};
const std::vector<std::string> kToggleTexts = {"Enable notifications", "Sync over Wi-Fi only",
                                               "Dark theme",           "Show previews",
                                               "Auto backup",          "Use location"};
const std::vector<std::string> kConfirmActions = {"Reset", "Sign out", "Clear history",
                                                  "Restore defaults", "Clear cache"};
const std::vector<std::string> kBannerTexts = {"Try Premium free for 30 days", "Sale: 50% off",
                                               "New: dark theme", "Invite friends, get rewards",
                                               "Rate us on Play"};

constexpr int kMaxFormFields = 3;        // a form has 1..3 fields
constexpr double kEnabledIfShare = 0.5;  // forms whose Save is disabled until valid (else: error)
constexpr double kDiscardDialogShare = 0.3;  // forms asking "Discard changes?" on back
constexpr int kMinItems = 2;                 // initial rows of a list
constexpr int kItemSpan = 4;                 // ... plus up to this many more
constexpr int kVisibleRows = 5;
constexpr double kConfirmDeleteShare = 0.5;  // lists whose Delete asks first (with a dialog)
constexpr double kPersistShare = 0.5;        // lists kept across restarts
constexpr double kToggleOnShare = 0.5;       // checkboxes that start checked
constexpr double kClockShare = 0.5;          // self-changing widgets that are clocks (else ads)
constexpr double kRotateProbability = 0.2;
constexpr double kForwardNavShare = 0.5;  // lone children reached by "Next" / "Continue"
constexpr double kBackButtonShare = 0.4;  // screens with a Back / Close button
constexpr double kEnterUnitShare = 0.3;   // screens covering onResume when entered
constexpr double kHelpShare = 0.3;        // menus with a Help dialog

// Shape kReal: widgets whose tap changes nothing on screen (a like, a bookmark, a chip, an
// info icon), and buttons that leave the app for another one.
struct Filler {
  const char* id;
  const char* label;   // the text, or the content-desc of an icon
  const char* method;  // the unit its handler covers
  bool icon;
};
const std::vector<Filler> kFillers = {{"btn_like", "Like", "onLike", true},
                                      {"btn_bookmark", "Bookmark", "onBookmark", true},
                                      {"btn_info", "Info", "onInfo", true},
                                      {"btn_cast", "Cast", "onCast", true},
                                      {"btn_sort", "Sort", "onSort", true},
                                      {"btn_grid", "Grid view", "onGridView", true},
                                      {"btn_favorite", "Favorite", "onFavorite", true},
                                      {"btn_translate", "Translate", "onTranslate", true},
                                      {"btn_zoom", "Zoom in", "onZoom", true},
                                      {"btn_mute", "Mute", "onMute", true},
                                      {"chip_today", "Today", "onChip", false},
                                      {"chip_week", "This week", "onChip", false},
                                      {"chip_popular", "Popular", "onChip", false},
                                      {"chip_nearby", "Nearby", "onChip", false},
                                      {"link_terms", "Terms of service", "onTerms", false},
                                      {"link_learn_more", "Learn more", "onLearnMore", false},
                                      {"avatar", "Profile picture", "onAvatar", true},
                                      {"badge", "New", "onBadge", false}};
const std::vector<Filler> kLeavers = {
    {"btn_share", "Share", "onShare", false},
    {"btn_open_browser", "Open in browser", "onOpenBrowser", false},
    {"btn_rate", "Rate us", "onRate", false},
    {"btn_feedback", "Send feedback", "onFeedback", false},
    {"btn_help_center", "Help center", "onHelpCenter", false}};
// {the checkbox, the method its handler covers} that shows the hidden way on.
const std::vector<std::pair<std::string, std::string>> kHiddenWays = {
    {"Show advanced options", "AdvancedToggled"},
    {"I agree to the terms", "TermsAccepted"},
    {"Expert mode", "ExpertModeToggled"},
    {"Show more", "ShowMoreToggled"}};

json Cover(const std::string& unit) { return {{"cover", json::array({unit})}}; }
json Button(const std::string& id, const std::string& text, json click) {
  return {{"id", id}, {"text", text}, {"on", {{"click", std::move(click)}}}};
}

}  // namespace

void AppBuilder::EmitScreen(int index) {
  ScreenDraft& d = screens_[index];
  json& w = d.widgets;

  if (d.dynamic) {
    if (rng_.Chance(kClockShare)) {
      w.push_back({{"id", UniqueId(d, "status_clock")},
                   {"text", "09:00"},
                   {"dynamic", {{"kind", "clock"}}}});
    } else {
      w.push_back(
          {{"id", UniqueId(d, "promo_banner")},
           {"text", kBannerTexts[0]},
           {"dynamic", {{"kind", "rotate"}, {"texts", kBannerTexts}, {"p", kRotateProbability}}}});
    }
  }
  if (d.list) {
    size_t count =
        real() ? opt_.list_min_items +
                     rng_.Below(static_cast<size_t>(opt_.list_max_items - opt_.list_min_items) + 1)
               : kMinItems + rng_.Below(kItemSpan);
    d.list_name = NewList(d, "items", SampleItems(static_cast<int>(count)));
    if (rng_.Chance(kPersistShare)) persist_.push_back(d.list_name);
  }
  std::string header = d.list
                           ? fmt::format("{{len.{}}} {}", d.list_name, d.noun)
                           : (index == 0 ? "Welcome to " + label_ : fmt::format("Your {}", d.noun));
  w.push_back({{"id", UniqueId(d, "header")}, {"text", header}});

  if (d.toggle) {
    std::string var = NewVar(d, "pref", rng_.Chance(kToggleOnShare));
    w.push_back({{"id", UniqueId(d, "pref_switch")},
                 {"text", Pick(kToggleTexts)},
                 {"checked", "$var." + var},
                 {"on", {{"click", json::array({Cover(Unit(d, "onPreferenceChanged"))})}}}});
  }

  if (d.form) {
    std::vector<size_t> kinds(kFields.size());
    for (size_t i = 0; i < kinds.size(); ++i) kinds[i] = i;
    for (size_t i = kinds.size(); i > 1; --i) std::swap(kinds[i - 1], kinds[rng_.Below(i)]);
    size_t n = 1 + rng_.Below(kMaxFormFields);
    json valid = json::array();
    std::string first;
    for (size_t i = 0; i < n; ++i) {
      const FieldKind& f = kFields[kinds[i]];
      json input = {{"min", f.min}, {"max", f.max}};
      if (*f.pattern) input["pattern"] = f.pattern;
      std::string id = UniqueId(d, std::string("edit_") + f.key);
      if (first.empty()) first = id;
      w.push_back({{"id", id}, {"hint", f.hint}, {"input", input}});
      valid.push_back({{"valid", id}});
    }
    json all_valid = {{"all", valid}};
    json submit = json::array();
    json button;
    std::string submit_id = UniqueId(d, d.gated_child >= 0 ? "btn_next" : "btn_save");
    if (rng_.Chance(kEnabledIfShare)) {
      button["enabled_if"] = all_valid;
    } else {
      std::string err = NewVar(d, "error", false);
      w.push_back({{"id", UniqueId(d, "form_error")},
                   {"text", "Please check the fields above"},
                   {"visible_if", {{"truthy", "$var." + err}}}});
      submit.push_back({{"set", err}, {"to", true}, {"if", {{"not", all_valid}}}});
      submit.push_back({{"stop", true}, {"if", {{"not", all_valid}}}});
      submit.push_back({{"set", err}, {"to", false}});
    }
    d.form_checks = static_cast<int>(submit.size());
    std::string label;
    if (d.list) {
      submit.push_back({{"add_item", d.list_name}, {"item", {{"title", "$input." + first}}}});
      submit.push_back({{"set_input", first}, {"to", ""}});
      label = rng_.Chance(kForwardNavShare) ? "Add" : "Save";
    }
    submit.push_back(Cover(Unit(d, "onSubmit")));
    if (d.gated_child >= 0) {
      submit.push_back({{"navigate", screens_[d.gated_child].id}});
      label = rng_.Chance(kForwardNavShare) ? "Next" : "Continue";
    } else if (!d.list) {
      submit.push_back({{"finish", true}});
      label = std::vector<std::string>{"OK", "Save", "Done"}[rng_.Below(3)];
    }
    button["id"] = submit_id;
    button["text"] = label;
    button["on"] = {{"click", submit}};
    d.form_submit = static_cast<int>(w.size());
    w.push_back(button);
    w.push_back(Button(UniqueId(d, "btn_cancel"), Pick({"Cancel", "Back", "Close"}),
                       json::array({{{"finish", true}}})));
    if (rng_.Chance(kDiscardDialogShare)) {
      json dialog = {
          {"title", "Discard changes?"},
          {"message", "Your changes to " + d.title + " will be lost."},
          {"widgets", json::array({Button("cancel", "Cancel", json::array({{{"dismiss", true}}})),
                                   Button("ok", "OK", json::array({{{"finish", true}}}))})}};
      dialog["widgets"][0]["resource_id"] = "android:id/button2";
      dialog["widgets"][1]["resource_id"] = "android:id/button1";
      d.on["back"] = json::array({{{"dialog", NewDialog("discard_" + d.snake, dialog)}}});
    }
  }

  if (d.list) {
    std::string selected = NewVar(d, "selected", "");
    json del = json::array();
    json remove = {{"remove_item", d.list_name}, {"at", "$row"}};
    if (d.dialog && rng_.Chance(kConfirmDeleteShare)) {
      json dialog = {
          {"title", "Delete item?"},
          {"message", "It will be removed from " + d.title + "."},
          {"widgets",
           json::array(
               {Button("cancel", "Cancel", json::array({{{"dismiss", true}}})),
                Button(
                    "ok", "OK",
                    json::array({remove, Cover(Unit(d, "deleteItem")), {{"dismiss", true}}}))})}};
      dialog["widgets"][0]["resource_id"] = "android:id/button2";
      dialog["widgets"][1]["resource_id"] = "android:id/button1";
      del.push_back({{"dialog", NewDialog("confirm_delete_" + d.snake, dialog)}});
    } else {
      del.push_back(remove);
      del.push_back(Cover(Unit(d, "deleteItem")));
    }
    w.push_back({{"id", UniqueId(d, "selected_" + d.snake)},
                 {"text", "Selected: {var." + selected + "}"},
                 {"visible_if", {{"ne", json::array({"$var." + selected, ""})}}}});
    json row = json::array({{{"id", UniqueId(d, "row_title")},
                             {"text", "{row.title}"},
                             {"on",
                              {{"click", json::array({{{"set", selected}, {"to", "$row.title"}},
                                                      Cover(Unit(d, "onItemClick"))})}}}},
                            Button(UniqueId(d, "row_delete"), Pick({"Delete", "Remove"}), del)});
    w.push_back({{"id", UniqueId(d, "list_" + d.snake)},
                 {"list", d.list_name},
                 {"visible_rows", kVisibleRows},
                 {"row", row}});
    if (!d.form) {
      w.push_back(Button(UniqueId(d, "btn_add"), "Add",
                         json::array({{{"add_item", d.list_name},
                                       {"item", {{"title", "New " + d.noun + " item"}}}},
                                      Cover(Unit(d, "addItem"))})));
    }
    d.on["swipe_down"] = json::array({Cover(Unit(d, "onRefresh"))});
  }

  if (d.dialog) {
    std::string action = d.list ? "Clear all" : Pick(kConfirmActions);
    json does = json::array();
    if (d.list) {
      does.push_back({{"clear_list", d.list_name}});
    } else {
      std::string var = NewVar(d, "confirmed", 0);
      does.push_back({{"inc", var}});
      w.push_back({{"id", UniqueId(d, "confirm_count")},
                   {"text", action + " done {var." + var + "} times"}});
    }
    does.push_back(Cover(Unit(d, "onConfirm")));
    does.push_back({{"dismiss", true}});
    json dialog = {{"title", action + "?"},
                   {"message", "This cannot be undone."},
                   {"widgets", json::array({Button("cancel", Pick({"Cancel", "Dismiss"}),
                                                   json::array({{{"dismiss", true}}})),
                                            Button("ok", "OK", does)})}};
    dialog["widgets"][0]["resource_id"] = "android:id/button2";
    dialog["widgets"][1]["resource_id"] = "android:id/button1";
    std::string id = NewDialog("confirm_" + d.snake, dialog);
    w.push_back(Button(UniqueId(d, "btn_confirm"), action, json::array({{{"dialog", id}}})));
  }

  for (int c : d.children) {
    if (c == d.gated_child) continue;
    const ScreenDraft& child = screens_[c];
    std::string label = child.title;
    if (d.children.size() == 1 && rng_.Chance(kForwardNavShare)) label = Pick({"Next", "Continue"});
    json button =
        Button(UniqueId(d, "btn_" + child.snake), label, json::array({{{"navigate", child.id}}}));
    if (c == d.hidden_child) button = HiddenWay(d, child, std::move(button));
    w.push_back(std::move(button));
  }
  for (int l : d.links) {
    const ScreenDraft& target = screens_[l];
    std::string label = l == 0 ? "Home" : target.title;
    json go = json::array({{{"navigate", target.id}}});
    if (d.menu) {
      d.menu_items.push_back(
          {{"id", UniqueId(d, "menu_" + target.snake)}, {"text", label}, {"on", {{"click", go}}}});
    } else {
      w.push_back(Button(UniqueId(d, "link_" + target.snake), label, go));
    }
  }
  if (d.menu) {
    d.menu_items.push_back({{"id", UniqueId(d, "menu_refresh")},
                            {"text", "Refresh"},
                            {"on", {{"click", json::array({Cover(Unit(d, "onRefresh"))})}}}});
    if (rng_.Chance(kHelpShare)) {
      json dialog = {
          {"title", "Help"},
          {"message", d.title + ": tap an item to open it."},
          {"widgets", json::array({Button("ok", "OK", json::array({{{"dismiss", true}}}))})}};
      std::string id = NewDialog("help_" + d.snake, dialog);
      d.menu_items.push_back({{"id", UniqueId(d, "menu_help")},
                              {"text", "Help"},
                              {"on", {{"click", json::array({{{"dialog", id}}})}}}});
    }
  }
  if (index != 0 && !d.form && rng_.Chance(kBackButtonShare))
    w.push_back(Button(UniqueId(d, "btn_back"), Pick({"Back", "Close"}),
                       json::array({{{"finish", true}}})));
  if (rng_.Chance(kEnterUnitShare)) d.on["enter"] = json::array({Cover(Unit(d, "onResume"))});
  if (real()) EmitRealExtras(d);
}

json AppBuilder::HiddenWay(ScreenDraft& d, const ScreenDraft& child, json button) {
  const auto& [checkbox, why] = kHiddenWays[rng_.Below(kHiddenWays.size())];
  std::string var = NewVar(d, "show_" + child.snake, false);
  d.widgets.push_back({{"id", UniqueId(d, "check_" + child.snake)},
                       {"text", checkbox},
                       {"checked", "$var." + var},
                       {"on", {{"click", json::array({Cover(Unit(d, "on" + why))})}}}});
  button["visible_if"] = {{"truthy", "$var." + var}};
  return button;
}

void AppBuilder::EmitRealExtras(ScreenDraft& d) {
  for (int i = 0; i < d.fillers; ++i) {
    const Filler& f = kFillers[rng_.Below(kFillers.size())];
    json widget = {{"id", UniqueId(d, f.id)},
                   {"on", {{"click", json::array({Cover(Unit(d, f.method))})}}}};
    if (f.icon) {
      widget["class"] = "android.widget.ImageButton";
      widget["desc"] = f.label;
    } else {
      widget["text"] = f.label;
    }
    d.widgets.push_back(std::move(widget));
  }
  if (d.leave) {
    const Filler& f = kLeavers[rng_.Below(kLeavers.size())];
    d.widgets.push_back(Button(UniqueId(d, f.id), f.label,
                               json::array({{{"leave", true}}, Cover(Unit(d, f.method))})));
  }
}

}  // namespace roam::sim::gen
