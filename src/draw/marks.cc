#include "draw/marks.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_fields.h"

namespace roam::draw {

std::string_view InteractionName(Interaction i) {
  switch (i) {
    case Interaction::kClick:
      return "click";
    case Interaction::kLongClick:
      return "long click";
    case Interaction::kCheck:
      return "check";
    case Interaction::kScroll:
      return "scroll";
    case Interaction::kText:
      return "text input";
  }
  return "click";
}

std::string_view InteractionColour(Interaction i) {
  switch (i) {
    case Interaction::kClick:
      return "blue";
    case Interaction::kLongClick:
      return "purple";
    case Interaction::kCheck:
      return "orange";
    case Interaction::kScroll:
      return "green";
    case Interaction::kText:
      return "red";
  }
  return "blue";
}

std::string Legend() {
  std::string out;
  for (Interaction i : kInteractions)
    out += fmt::format("{}{} box: {}", out.empty() ? "" : "; ", InteractionColour(i),
                       InteractionName(i));
  return out;
}

namespace {

// Every way `w` is operated, the most specific first.
std::vector<Interaction> InteractionsOf(const gui::Widget& w) {
  std::vector<Interaction> out;
  if (w.editable) out.push_back(Interaction::kText);
  if (w.checkable) out.push_back(Interaction::kCheck);
  if (w.scrollable) out.push_back(Interaction::kScroll);
  if (w.clickable && !w.checkable) out.push_back(Interaction::kClick);
  if (w.long_clickable) out.push_back(Interaction::kLongClick);
  return out;
}

}  // namespace

std::vector<Mark> MarksFor(const gui::Screen& screen) {
  std::vector<Mark> marks;
  const gui::Rect display{0, 0, screen.width, screen.height};
  for (size_t i = 0; i < screen.widgets.size(); ++i) {
    const gui::Widget& w = screen.widgets[i];
    auto ways = InteractionsOf(w);
    if (ways.empty() || !w.enabled || w.bounds.empty()) continue;
    if (display.width() > 0 && (w.bounds.right <= 0 || w.bounds.bottom <= 0 ||
                                w.bounds.left >= display.right || w.bounds.top >= display.bottom))
      continue;
    marks.push_back({static_cast<int>(i), 0, ways.front(), w.bounds});
  }
  std::stable_sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) {
    return a.box.top != b.box.top ? a.box.top < b.box.top : a.box.left < b.box.left;
  });
  for (size_t k = 0; k < marks.size(); ++k) marks[k].number = static_cast<int>(k) + 1;
  return marks;
}

std::string WidgetLabel(const gui::Screen& screen, int index) {
  const gui::Widget& w = screen.widgets[index];
  if (!w.text.empty()) return w.text;
  if (!w.content_desc.empty()) return w.content_desc;
  if (w.editable) return w.hint;
  if (w.scrollable) return "";  // a list's rows are boxes of their own
  std::string out;
  int parts = 0;
  const int end = std::min<int>(w.subtree_end, static_cast<int>(screen.widgets.size()));
  for (int i = index + 1; i < end && parts < 3; ++i) {
    const gui::Widget& d = screen.widgets[i];
    const std::string& said = d.text.empty() ? d.content_desc : d.text;
    if (said.empty()) continue;
    out += (parts++ ? " / " : "") + said;
  }
  return out;
}

std::string MarkList(const gui::Screen& screen, const std::vector<Mark>& marks) {
  std::string out;
  for (const Mark& m : marks) {
    if (m.widget < 0 || static_cast<size_t>(m.widget) >= screen.widgets.size()) continue;
    const gui::Widget& w = screen.widgets[m.widget];
    const std::string text = WidgetLabel(screen, m.widget);
    std::string id = w.resource_id;
    if (auto at = id.find(":id/"); at != std::string::npos) id = "id/" + id.substr(at + 4);
    std::string ways;
    for (Interaction i : InteractionsOf(w))
      ways += fmt::format("{}{}", ways.empty() ? "" : ", ", InteractionName(i));
    // The text as a JSON string: a widget is one line, whatever its text holds.
    std::string line = fmt::format("{}. {}", m.number, w.cls);
    if (!text.empty()) {
      line += ' ';
      line += nlohmann::json(Excerpt(text, 60))
                  .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    if (!id.empty()) {
      line += ' ';
      line += id;
    }
    out += fmt::format("{}: {}\n", line, ways);
  }
  return out;
}

}  // namespace roam::draw
