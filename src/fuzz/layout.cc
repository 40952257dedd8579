#include "fuzz/layout.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "base/files.h"
#include "fuzz/views.h"
#include "gui/abstraction.h"
#include "gui/actions.h"

namespace roam::fuzz {

namespace {

bool Actionable(const gui::Widget& w) { return w.clickable || w.long_clickable || w.checkable; }

std::string_view ShortClass(std::string_view cls) {
  size_t dot = cls.rfind('.');
  return dot == cls.npos ? cls : cls.substr(dot + 1);
}

std::string_view ShortId(std::string_view id) {
  size_t slash = id.rfind('/');
  return slash == id.npos ? id : id.substr(slash + 1);
}

}  // namespace

std::string WidgetType(const gui::Screen& screen, int index) {
  const gui::Widget& w = screen.widgets[index];
  std::string t = w.cls + "|" + w.resource_id;
  // The platform's ids (android:id/text1 of a list dialog's items, android:id/title of a menu's)
  // name a slot, not an item.
  const bool platform_id = w.resource_id.starts_with("android:id/");
  if ((w.resource_id.empty() || platform_id) && Actionable(w) && !w.editable)
    t += fmt::format("|{}", gui::MaskDigits(w.text.empty() ? w.content_desc : w.text));
  return t;
}

std::string WidgetSignature(const gui::Screen& screen, int index) {
  const gui::Widget& w = screen.widgets[index];
  return fmt::format("{}|{}|{}", WidgetType(screen, index), w.editable ? std::string() : w.text,
                     w.content_desc);
}

bool Takes(const gui::Screen& screen, int index, gui::ActionKind kind) {
  if (index < 0 || index >= static_cast<int>(screen.widgets.size())) return false;
  if (!gui::CanAct(screen, index)) return false;
  const gui::Widget& w = screen.widgets[index];
  switch (kind) {
    case gui::ActionKind::kClick:
      return w.clickable || w.checkable;
    case gui::ActionKind::kLongClick:
      return w.long_clickable;
    case gui::ActionKind::kInputText:
      return w.editable;
    case gui::ActionKind::kScrollUp:
    case gui::ActionKind::kScrollDown:
    case gui::ActionKind::kScrollLeft:
    case gui::ActionKind::kScrollRight:
      return w.scrollable;
    default:
      return false;
  }
}

Layout MakeLayout(gui::Screen screen, const std::string& package) {
  Layout l;
  l.screen = std::move(screen);
  l.in_app = package.empty() || l.screen.package == package;
  for (int i = 0; i < static_cast<int>(l.screen.widgets.size()); ++i) {
    if (l.screen.widgets[i].package == "com.android.systemui") continue;
    l.types.push_back(WidgetType(l.screen, i));
  }
  std::sort(l.types.begin(), l.types.end());
  l.types.erase(std::unique(l.types.begin(), l.types.end()), l.types.end());
  gui::StableHash h;
  h.Add("genie-layout-v1").Add(l.screen.package).Add(l.screen.activity);
  for (const auto& t : l.types) h.Add(t);
  l.abs = h.value();
  return l;
}

bool Similar(const Layout& a, const Layout& b) {
  return a.in_app && b.in_app && a.screen.activity == b.screen.activity;
}

double TypeSimilarity(const Layout& a, const Layout& b) {
  if (a.types.empty() && b.types.empty()) return 1.0;
  std::vector<std::string> common;
  std::set_intersection(a.types.begin(), a.types.end(), b.types.begin(), b.types.end(),
                        std::back_inserter(common));
  size_t all = a.types.size() + b.types.size() - common.size();
  return static_cast<double>(common.size()) / static_cast<double>(all);
}

std::string Event::Key() const {
  // The text typed is not part of the key: typing "a" or "b" into one field is one event.
  return fmt::format("{}#{}#{}", gui::ActionKindName(kind), signature,
                     gui::TextNamesAction(kind) ? text : std::string());
}

std::string Event::TypeKey() const {
  std::string k(gui::ActionKindName(kind));
  k += fmt::format("#{}", type);
  if (gui::TextNamesAction(kind)) k += fmt::format("#{}", text);
  return k;
}

std::string Event::Describe() const {
  std::string d(gui::ActionKindName(kind));
  if (!widget()) return gui::TextNamesAction(kind) ? fmt::format("{} {}", d, text) : d;
  // signature = class|resource-id[|masked]|text|desc: name the target by its text when it has one.
  std::vector<std::string_view> parts;
  std::string_view s = signature;
  for (size_t pos; (pos = s.find('|')) != s.npos; s.remove_prefix(pos + 1))
    parts.push_back(s.substr(0, pos));
  parts.push_back(s);
  std::string_view text_part = parts.size() >= 2 ? parts[parts.size() - 2] : "";
  std::string_view desc = parts.back();
  if (!text_part.empty())
    d += fmt::format(" \"{}\"", text_part);
  else if (!desc.empty())
    d += fmt::format(" \"{}\"", desc);
  else
    d += fmt::format(" {} {}", ShortClass(parts[0]), parts.size() > 1 ? ShortId(parts[1]) : "");
  // Like views of several rows (a list's Remove): which row's.
  if (!row.empty() && row != gui::MaskDigits(text_part)) d += fmt::format(" in row \"{}\"", row);
  if (kind == gui::ActionKind::kInputText) d += fmt::format(" text \"{}\"", text);
  return d;
}

Event EventOn(const gui::Screen& screen, gui::ActionKind kind, int index) {
  Event e;
  e.kind = kind;
  e.type = WidgetType(screen, index);
  e.signature = WidgetSignature(screen, index);
  e.row = RowLabel(screen, index);
  return e;
}

Event EventOf(const gui::Screen& screen, const gui::Action& action) {
  Event e;
  e.kind = action.kind;
  e.text = action.text;
  if (!gui::IsWidgetAction(action.kind)) return e;
  int w = action.widget;
  if (action.target && (w < 0 || w >= static_cast<int>(screen.widgets.size()) ||
                        screen.widgets[w].bounds != action.target->bounds))
    w = screen.FindPath(action.target->path);
  if (w < 0 || w >= static_cast<int>(screen.widgets.size())) return e;
  Event on = EventOn(screen, action.kind, w);
  on.text = action.text;
  return on;
}

int Resolve(const gui::Screen& screen, const Event& event) {
  if (!event.widget()) return -1;
  // The views the event could act on, with their signatures; most events find theirs exactly,
  // and only those that do not pay for the distances.
  std::vector<std::pair<int, std::string>> candidates;
  std::vector<int> exact;
  for (int i = 0; i < static_cast<int>(screen.widgets.size()); ++i) {
    if (!Takes(screen, i, event.kind)) continue;
    if (WidgetType(screen, i) != event.type) continue;
    std::string sig = WidgetSignature(screen, i);
    if (sig == event.signature)
      exact.push_back(i);
    else if (exact.empty())
      candidates.emplace_back(i, std::move(sig));
  }
  if (exact.empty()) {
    int best = -1;
    size_t best_distance = std::numeric_limits<size_t>::max();
    for (const auto& [i, sig] : candidates) {
      if (event.exact) {
        if (gui::MaskDigits(sig) == gui::MaskDigits(event.signature)) return i;
        continue;
      }
      size_t d = EditDistance(sig, event.signature);
      if (d < best_distance) best = i, best_distance = d;
    }
    return best;
  }
  if (exact.size() > 1 || (event.exact && !event.row.empty())) {
    // Like views of several rows: the one of the event's row. An exact event whose row is gone
    // finds no target (it would act on another item).
    for (int i : exact)
      if (RowLabel(screen, i) == event.row) return i;
    if (event.exact && !event.row.empty()) return -1;
  }
  return exact[0];
}

gui::Action ActionFor(const gui::Screen& screen, const Event& event, int widget) {
  if (!event.widget() || widget < 0) return gui::MakeGlobalAction(event.kind, event.text);
  gui::Action a = gui::MakeWidgetAction(event.kind, screen, widget);
  a.text = event.text;
  return a;
}

bool IsScrollOrSwipe(gui::ActionKind kind) {
  switch (kind) {
    case gui::ActionKind::kScrollUp:
    case gui::ActionKind::kScrollDown:
    case gui::ActionKind::kScrollLeft:
    case gui::ActionKind::kScrollRight:
    case gui::ActionKind::kSwipeUp:
    case gui::ActionKind::kSwipeDown:
    case gui::ActionKind::kSwipeLeft:
    case gui::ActionKind::kSwipeRight:
      return true;
    default:
      return false;
  }
}

}  // namespace roam::fuzz
