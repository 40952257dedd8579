// oracle/property: properties a user writes about an app (docs/properties.md), checked while any
// strategy explores, as in Kea (property-based testing of apps). A property is a precondition P
// over the screen (its activity, widgets present or absent), an interaction I (steps, as the
// harness's scripts write them) and postconditions Q over the screen after I, some relative to
// the screen before it (a text still shown, a widget gone, a count changed by N). Each time P
// holds, the PropertyOracle starts I with the property's probability; once I's last step is
// taken it checks Q, and a Q that fails is a Finding. A property without an interaction is an
// invariant, checked on every screen where P holds.
// A PropertySet is immutable once loaded (its campaigns' oracles share it); a PropertyOracle
// belongs to one campaign.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "gui/widget_match.h"
#include "oracle/kinds.h"
#include "oracle/oracle.h"

namespace roam::oracle {

// What a screen must show.
struct ScreenCondition {
  std::string activity;                     // gui::ActivityMatches; "" = any
  std::vector<gui::WidgetMatcher> present;  // each selects at least one widget
  std::vector<gui::WidgetMatcher> absent;   // each selects none
  bool Holds(const gui::Screen& screen) const;
};

// One postcondition, over the screen after the interaction and the one before it.
struct Postcondition {
  enum class Kind {
    kPresent,   // `widget` selects a widget after
    kAbsent,    // `widget` selects none after
    kActivity,  // the screen after is `activity`
    kKept,      // every text `widget` showed before is still shown after, by `in` when given
    kGone,      // `widget` selected a widget before and selects none after
    kCount,     // how many widgets `widget` selects after: `equals`, `at_most`, or `changed_by`
  };
  Kind kind = Kind::kPresent;
  std::optional<gui::WidgetMatcher> widget;
  std::optional<gui::WidgetMatcher> in;  // kKept: where after (default: `widget`)
  std::string activity;
  std::optional<int> equals, at_most, changed_by;
  std::string describe;  // as written, for people: {"count": {"text": "Meeting"}, "at_most": 1}
  // Why it does not hold ("" when it does).
  std::string Failure(const gui::Screen& before, const gui::Screen& after) const;
};

struct Property {
  std::string name;
  std::string description;  // the specification or bug report it comes from
  ScreenCondition precondition;
  double probability = 0.5;  // chance to start the interaction where P holds (1 for an invariant)
  std::vector<gui::WidgetStep> interaction;
  std::vector<Postcondition> postconditions;
  nlohmann::json source;  // the property as written (bug.json keeps it for the replay)
  // The first postcondition that fails, as "<postcondition>: <why>"; "" when all hold.
  std::string Violation(const gui::Screen& before, const gui::Screen& after) const;
  // The widgets its conditions select on the screen before (the precondition's, and those a
  // postcondition compares with) and on the screen after (the postconditions'), in screen order.
  std::vector<int> WidgetsBefore(const gui::Screen& before) const;
  std::vector<int> WidgetsAfter(const gui::Screen& after) const;
};

// What tells one property bug from another: the property and its first postcondition to fail, as
// Property::Violation names them ("property <name>: <postcondition>").
std::string PropertySignature(const std::string& name, const std::string& violation);

struct PropertySet {
  std::string file;
  std::vector<Property> properties;
};

// Reads a properties file; errors name the file and the JSON path ("p.json: properties[2]
// .postcondition[0]: unknown key \"cont\" (did you mean \"count\")").
Result<PropertySet> LoadProperties(const std::filesystem::path& path);
Result<PropertySet> ParseProperties(const nlohmann::json& j, const std::string& source);
// One property as written (bug.json's "property").
Result<Property> ParseProperty(const nlohmann::json& j, const std::string& where);

// oracle/kinds.h's row: a properties file read once, each campaign's PropertyOracle made from it.
Result<OracleMaker> ReadPropertiesOracle(const std::filesystem::path& path);
// A property's finding checked again on a replay's screens (oracle/kinds.h): its precondition on
// `before` (or `after` for an invariant), then its postconditions.
Result<Rechecked> RecheckProperty(const Finding& finding, const gui::Screen* before,
                                  const gui::Screen& after);

// oracle/kinds.h's row: the "properties" sections of a run's devices as one: each property's
// figures summed, and the properties whose precondition held on no device.
nlohmann::json MergePropertyFigures(const std::vector<nlohmann::json>& figures);

// How each property fared in a run.
struct PropertyStats {
  int64_t precondition_held = 0;  // screens where P held
  int64_t started = 0;            // interactions begun
  int64_t abandoned = 0;          // a step's widget missing, a crash, a relaunch on the way
  int64_t checked = 0;            // postconditions checked
  int64_t violated = 0;
};

class PropertyOracle final : public Oracle {
 public:
  explicit PropertyOracle(std::shared_ptr<const PropertySet> set);
  std::string_view Name() const override { return "properties"; }
  std::optional<gui::Action> See(const StepSeen& seen, Rng& rng,
                                 std::vector<Finding>& found) override;
  bool Busy() const override { return playing_ >= 0; }

  const PropertySet& set() const { return *set_; }
  const std::vector<PropertyStats>& stats() const { return stats_; }
  // summary.json's "properties": each property's figures, and the names of those whose
  // precondition never held (a property that never ran is not one that held).
  nlohmann::json Figures() const override;

 private:
  void Check(size_t index, const gui::Screen& before, const gui::Screen& after,
             const StepSeen& seen, std::vector<Finding>& found);

  std::shared_ptr<const PropertySet> set_;
  std::vector<PropertyStats> stats_;
  int playing_ = -1;  // the property whose interaction is under way
  size_t next_ = 0;   // its next step
  gui::Screen before_;
  int64_t first_step_ = 0;
};

}  // namespace roam::oracle
