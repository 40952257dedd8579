#include "oracle/property.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_fields.h"

namespace roam::oracle {

using nlohmann::json;

namespace {

int CountMatching(const gui::WidgetMatcher& m, const gui::Screen& screen) {
  int n = 0;
  for (int i = 0; i < static_cast<int>(screen.widgets.size()); ++i) n += m.Matches(screen, i);
  return n;
}

// The texts (text, else content-desc) of the widgets `m` selects, in screen order.
std::vector<std::string> TextsMatching(const gui::WidgetMatcher& m, const gui::Screen& screen) {
  std::vector<std::string> texts;
  for (int i = 0; i < static_cast<int>(screen.widgets.size()); ++i) {
    if (!m.Matches(screen, i)) continue;
    const auto& w = screen.widgets[i];
    texts.push_back(!w.text.empty() ? w.text : w.content_desc);
  }
  return texts;
}

Status ParseMatcherList(const json& j, const std::string& where,
                        std::vector<gui::WidgetMatcher>& out) {
  if (!j.is_array())
    return Status::InvalidArgument(
        fmt::format("{}: expected an array of widget matchers, got {}", where, JsonExcerpt(j)));
  for (size_t i = 0; i < j.size(); ++i) {
    auto m = gui::ParseWidgetMatcher(j[i], fmt::format("{}[{}]", where, i));
    if (!m.ok()) return m.status();
    out.push_back(std::move(*m));
  }
  return Status::Ok();
}

Result<std::string> ActivityName(const json& j, const std::string& where) {
  if (!j.is_string() || j.get<std::string>().empty())
    return Status::InvalidArgument(fmt::format(
        "{}: expected an activity name such as \"EditActivity\", got {}", where, JsonExcerpt(j)));
  return j.get<std::string>();
}

Result<ScreenCondition> ParseCondition(const json& j, const std::string& where) {
  ROAM_RETURN_IF_ERROR(gui::CheckJsonKeys(j, where, {"activity", "present", "absent"}));
  ScreenCondition c;
  if (j.contains("activity")) {
    auto a = ActivityName(j["activity"], where + ".activity");
    if (!a.ok()) return a.status();
    c.activity = *a;
  }
  if (j.contains("present"))
    ROAM_RETURN_IF_ERROR(ParseMatcherList(j["present"], where + ".present", c.present));
  if (j.contains("absent"))
    ROAM_RETURN_IF_ERROR(ParseMatcherList(j["absent"], where + ".absent", c.absent));
  return c;
}

Result<int> Count(const json& j, const std::string& where) {
  if (!j.is_number_integer())
    return Status::InvalidArgument(
        fmt::format("{}: expected an integer, got {}", where, JsonExcerpt(j)));
  return j.get<int>();
}

Result<Postcondition> ParsePostcondition(const json& j, const std::string& where) {
  ROAM_RETURN_IF_ERROR(gui::CheckJsonKeys(j, where,
                                          {"present", "absent", "activity", "kept", "in", "gone",
                                           "count", "equals", "at_most", "changed_by"}));
  using K = Postcondition::Kind;
  constexpr std::pair<const char*, K> kKinds[] = {
      {"present", K::kPresent}, {"absent", K::kAbsent}, {"activity", K::kActivity},
      {"kept", K::kKept},       {"gone", K::kGone},     {"count", K::kCount}};
  Postcondition p;
  p.describe = j.dump();
  int kinds = 0;
  for (const auto& [key, kind] : kKinds) {
    if (!j.contains(key)) continue;
    ++kinds;
    p.kind = kind;
    if (kind == K::kActivity) {
      auto a = ActivityName(j[key], where + "." + key);
      if (!a.ok()) return a.status();
      p.activity = *a;
    } else {
      auto m = gui::ParseWidgetMatcher(j[key], where + "." + key);
      if (!m.ok()) return m.status();
      p.widget = std::move(*m);
    }
  }
  if (kinds != 1)
    return Status::InvalidArgument(fmt::format(
        "{}: give exactly one of \"present\", \"absent\", \"activity\", \"kept\", \"gone\", "
        "\"count\"",
        where));
  int bounds = 0;
  for (auto [key, out] : {std::pair{"equals", &p.equals}, std::pair{"at_most", &p.at_most},
                          std::pair{"changed_by", &p.changed_by}}) {
    if (!j.contains(key)) continue;
    if (p.kind != K::kCount)
      return Status::InvalidArgument(
          fmt::format("{}: \"{}\" goes with \"count\" only", where, key));
    auto n = Count(j[key], where + "." + key);
    if (!n.ok()) return n.status();
    *out = *n;
    ++bounds;
  }
  if (j.contains("in")) {
    if (p.kind != K::kKept)
      return Status::InvalidArgument(fmt::format("{}: \"in\" goes with \"kept\" only", where));
    auto m = gui::ParseWidgetMatcher(j["in"], where + ".in");
    if (!m.ok()) return m.status();
    p.in = std::move(*m);
  }
  if (p.kind == K::kCount && bounds != 1)
    return Status::InvalidArgument(fmt::format(
        "{}: \"count\" needs exactly one of \"equals\", \"at_most\", \"changed_by\"", where));
  return p;
}

}  // namespace

bool ScreenCondition::Holds(const gui::Screen& screen) const {
  if (!activity.empty() && !gui::ActivityMatches(screen.activity, activity)) return false;
  for (const auto& m : present)
    if (CountMatching(m, screen) == 0) return false;
  for (const auto& m : absent)
    if (CountMatching(m, screen) > 0) return false;
  return true;
}

std::string Postcondition::Failure(const gui::Screen& before, const gui::Screen& after) const {
  switch (kind) {
    case Kind::kPresent:
      return CountMatching(*widget, after) > 0 ? "" : "no widget selected after";
    case Kind::kAbsent: {
      const int n = CountMatching(*widget, after);
      return n == 0 ? "" : fmt::format("{} widget{} selected after", n, n == 1 ? "" : "s");
    }
    case Kind::kActivity:
      return gui::ActivityMatches(after.activity, activity)
                 ? ""
                 : fmt::format("the screen after is {}", after.activity);
    case Kind::kKept: {
      const auto then = TextsMatching(*widget, before),
                 now = TextsMatching(in ? *in : *widget, after);
      for (const auto& t : then)
        if (std::find(now.begin(), now.end(), t) == now.end())
          return fmt::format(
              "\"{}\" was shown before and is not after (after: {})", Excerpt(t),
              now.empty()
                  ? std::string("nothing selected")
                  : fmt::format("\"{}\"", Excerpt(fmt::format("{}", fmt::join(now, "\", \"")))));
      return "";
    }
    case Kind::kGone: {
      const int then = CountMatching(*widget, before), now = CountMatching(*widget, after);
      if (then == 0) return "no widget selected before";
      return now == 0 ? ""
                      : fmt::format("{} widget{} still selected after", now, now == 1 ? "" : "s");
    }
    case Kind::kCount: {
      const int now = CountMatching(*widget, after);
      if (equals && now != *equals) return fmt::format("{} selected after, not {}", now, *equals);
      if (at_most && now > *at_most)
        return fmt::format("{} selected after, more than {}", now, *at_most);
      if (changed_by) {
        const int then = CountMatching(*widget, before);
        if (now - then != *changed_by)
          return fmt::format("{} selected before and {} after: changed by {}, not {}", then, now,
                             now - then, *changed_by);
      }
      return "";
    }
  }
  return "";
}

std::string PropertySignature(const std::string& name, const std::string& violation) {
  return "property " + name + ": " + violation.substr(0, violation.find(": "));
}

std::string Property::Violation(const gui::Screen& before, const gui::Screen& after) const {
  for (const auto& p : postconditions)
    if (std::string why = p.Failure(before, after); !why.empty()) return p.describe + ": " + why;
  return "";
}

namespace {

// The widgets of `screen` any of `matchers` selects, in screen order.
std::vector<int> Selected(const std::vector<const gui::WidgetMatcher*>& matchers,
                          const gui::Screen& screen) {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(screen.widgets.size()); ++i)
    if (std::ranges::any_of(matchers, [&](const auto* m) { return m->Matches(screen, i); }))
      out.push_back(i);
  return out;
}

}  // namespace

std::vector<int> Property::WidgetsBefore(const gui::Screen& before) const {
  std::vector<const gui::WidgetMatcher*> matchers;
  for (const auto& m : precondition.present) matchers.push_back(&m);
  for (const auto& p : postconditions)
    if (p.widget && (p.kind == Postcondition::Kind::kKept || p.kind == Postcondition::Kind::kGone ||
                     (p.kind == Postcondition::Kind::kCount && p.changed_by)))
      matchers.push_back(&*p.widget);
  return Selected(matchers, before);
}

std::vector<int> Property::WidgetsAfter(const gui::Screen& after) const {
  std::vector<const gui::WidgetMatcher*> matchers;
  for (const auto& p : postconditions) {
    if (p.kind == Postcondition::Kind::kKept && p.in) {
      matchers.push_back(&*p.in);
    } else if (p.widget) {
      matchers.push_back(&*p.widget);
    }
  }
  return Selected(matchers, after);
}

Result<Property> ParseProperty(const json& j, const std::string& where) {
  ROAM_RETURN_IF_ERROR(gui::CheckJsonKeys(
      j, where,
      {"name", "description", "precondition", "probability", "interaction", "postcondition"}));
  Property p;
  p.source = j;
  ROAM_RETURN_IF_ERROR(ReadField(j, "name", p.name, where));
  if (p.name.empty()) return Status::InvalidArgument(where + ": needs \"name\"");
  ROAM_RETURN_IF_ERROR(ReadField(j, "description", p.description, where));
  if (j.contains("precondition")) {
    auto c = ParseCondition(j["precondition"], where + ".precondition");
    if (!c.ok()) return c.status();
    p.precondition = std::move(*c);
  }
  if (j.contains("interaction")) {
    const json& steps = j["interaction"];
    if (!steps.is_array())
      return Status::InvalidArgument(fmt::format(
          "{}.interaction: expected an array of steps, got {}", where, JsonExcerpt(steps)));
    for (size_t i = 0; i < steps.size(); ++i) {
      auto s = gui::ParseWidgetStep(steps[i], fmt::format("{}.interaction[{}]", where, i));
      if (!s.ok()) return s.status();
      p.interaction.push_back(std::move(*s));
    }
  }
  p.probability = p.interaction.empty() ? 1.0 : 0.5;
  ROAM_RETURN_IF_ERROR(ReadField(j, "probability", p.probability, where));
  if (p.probability <= 0 || p.probability > 1)
    return Status::InvalidArgument(
        fmt::format("{}.probability: expected a number in (0, 1], got {}", where, p.probability));
  if (!j.contains("postcondition") || !j["postcondition"].is_array() || j["postcondition"].empty())
    return Status::InvalidArgument(fmt::format(
        "{}: needs \"postcondition\": a non-empty array of checks of the screen after", where));
  for (size_t i = 0; i < j["postcondition"].size(); ++i) {
    auto q =
        ParsePostcondition(j["postcondition"][i], fmt::format("{}.postcondition[{}]", where, i));
    if (!q.ok()) return q.status();
    p.postconditions.push_back(std::move(*q));
  }
  return p;
}

Result<PropertySet> ParseProperties(const json& j, const std::string& source) {
  ROAM_RETURN_IF_ERROR(gui::CheckJsonKeys(j, source, {"properties"}));
  if (!j.contains("properties") || !j["properties"].is_array() || j["properties"].empty())
    return Status::InvalidArgument(source + ": needs \"properties\": a non-empty array");
  PropertySet set{.file = source};
  for (size_t i = 0; i < j["properties"].size(); ++i) {
    auto p = ParseProperty(j["properties"][i], fmt::format("{}: properties[{}]", source, i));
    if (!p.ok()) return p.status();
    for (const auto& other : set.properties)
      if (other.name == p->name)
        return Status::InvalidArgument(
            fmt::format("{}: properties[{}]: the name \"{}\" is taken by another property", source,
                        i, p->name));
    set.properties.push_back(std::move(*p));
  }
  return set;
}

Result<PropertySet> LoadProperties(const std::filesystem::path& path) {
  auto j = ReadJsonFile(path);
  if (!j.ok()) return j.status();
  return ParseProperties(*j, path.string());
}

Result<OracleMaker> ReadPropertiesOracle(const std::filesystem::path& path) {
  auto set = LoadProperties(path);
  if (!set.ok()) return set.status();
  auto shared = std::make_shared<const PropertySet>(std::move(*set));
  return OracleMaker(
      [shared]() -> std::unique_ptr<Oracle> { return std::make_unique<PropertyOracle>(shared); });
}

Result<Rechecked> RecheckProperty(const Finding& finding, const gui::Screen* before,
                                  const gui::Screen& after) {
  auto property = ParseProperty(finding.source, "property");
  if (!property.ok()) return property.status();
  const gui::Screen& then = before ? *before : after;
  Rechecked r{.before_widgets = property->WidgetsBefore(then),
              .after_widgets = property->WidgetsAfter(after)};
  if (!property->precondition.Holds(then)) {
    r.note = "the property's precondition did not hold where its interaction began";
    return r;
  }
  const std::string why = property->Violation(then, after);
  if (!why.empty()) r.signature = PropertySignature(property->name, why);
  return r;
}

PropertyOracle::PropertyOracle(std::shared_ptr<const PropertySet> set)
    : set_(std::move(set)), stats_(set_->properties.size()) {}

void PropertyOracle::Check(size_t index, const gui::Screen& before, const gui::Screen& after,
                           const StepSeen& seen, std::vector<Finding>& found) {
  const Property& p = set_->properties[index];
  PropertyStats& s = stats_[index];
  ++s.checked;
  std::string why = p.Violation(before, after);
  if (why.empty()) return;
  ++s.violated;
  found.push_back({.kind = "property",
                   .name = p.name,
                   .signature = PropertySignature(p.name, why),
                   .words = fmt::format("{}: {}", p.name, why),
                   .activity = after.activity,
                   .first_step = p.interaction.empty() ? seen.step : first_step_,
                   .last_step = seen.step,
                   .source = p.source});
}

std::optional<gui::Action> PropertyOracle::See(const StepSeen& seen, Rng& rng,
                                               std::vector<Finding>& found) {
  const gui::Screen& screen = *seen.screen;
  int just_checked = -1;  // not started again at once: the strategy resumes first
  if (playing_ >= 0) {
    const size_t index = static_cast<size_t>(playing_);
    const Property& p = set_->properties[index];
    if (seen.failed || !seen.last_action) {  // a crash, a relaunch, a restore: no verdict
      ++stats_[index].abandoned;
      playing_ = -1;
    } else if (next_ == p.interaction.size()) {
      Check(index, before_, screen, seen, found);
      playing_ = -1;
      just_checked = static_cast<int>(index);
    } else if (auto action = gui::StepAction(p.interaction[next_], screen, *seen.actions)) {
      ++next_;
      return action;
    } else {  // the screen is not what the interaction expects
      ++stats_[index].abandoned;
      playing_ = -1;
    }
  }
  for (size_t i = 0; i < set_->properties.size(); ++i) {
    const Property& p = set_->properties[i];
    if (!p.precondition.Holds(screen)) continue;
    ++stats_[i].precondition_held;
    if (p.interaction.empty()) {
      Check(i, screen, screen, seen, found);
      continue;
    }
    if (playing_ >= 0 || static_cast<int>(i) == just_checked || !rng.Chance(p.probability))
      continue;
    auto action = gui::StepAction(p.interaction.front(), screen, *seen.actions);
    if (!action) continue;
    ++stats_[i].started;
    playing_ = static_cast<int>(i);
    next_ = 1;
    before_ = screen;
    first_step_ = seen.step;
    return action;
  }
  return std::nullopt;
}

namespace {

// The names of the properties in `list` (a "properties" section's) whose precondition never held.
json NeverHeld(const json& list) {
  json never = json::array();
  for (const auto& p : list)
    if (p["precondition_held"] == 0) never.push_back(p["name"]);
  return never;
}

}  // namespace

json MergePropertyFigures(const std::vector<json>& figures) {
  if (figures.empty()) return nullptr;
  json merged = figures.front();
  json& list = merged["properties"];
  for (size_t d = 1; d < figures.size(); ++d)
    for (size_t i = 0; i < list.size() && i < figures[d]["properties"].size(); ++i)
      for (const char* field : {"precondition_held", "started", "abandoned", "checked", "violated"})
        list[i][field] =
            list[i][field].get<int64_t>() + figures[d]["properties"][i][field].get<int64_t>();
  merged["precondition_never_held"] = NeverHeld(list);
  return merged;
}

json PropertyOracle::Figures() const {
  json list = json::array();
  for (size_t i = 0; i < stats_.size(); ++i) {
    const PropertyStats& s = stats_[i];
    list.push_back({{"name", set_->properties[i].name},
                    {"precondition_held", s.precondition_held},
                    {"started", s.started},
                    {"abandoned", s.abandoned},
                    {"checked", s.checked},
                    {"violated", s.violated}});
  }
  return {{"file", set_->file}, {"properties", list}, {"precondition_never_held", NeverHeld(list)}};
}

}  // namespace roam::oracle
