// explore/field_typer: what the learning strategies (fastbot, dqn) type into an edit field. A
// field that says what it wants (gui::ClassifyField: e-mail, PIN, phone, URL, ...) mostly gets a
// value of that kind, so a validating form lets the run through (always the first time: a
// strategy may type into a field once a run); otherwise, and now and then regardless (invalid
// input finds bugs too), one of the strategy's strings. It learns per field
// which value let the form through: values typed on a screen are credited when a click then
// takes the app to another activity (a form's Save or Next that passed its checks), and a
// credited field gets its value again. Deterministic given the Rng; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/rng.h"
#include "gui/action.h"
#include "gui/screen.h"

namespace roam::explore {

class FieldTyper {
 public:
  // `strings`: the strategy's own texts (empty: DefaultInputStrings); `pct_fitting`: how often a
  // field that says what it wants gets a value of that kind (the rest of the time, one of
  // `strings`).
  explicit FieldTyper(std::vector<std::string> strings, double pct_fitting = 80);

  // At the start of each decision: the screen the last chosen action led to.
  void Arrived(const gui::Screen& screen);
  // At its end: the action chosen on `screen`; an input_text action gets its text here.
  void Chosen(const gui::Screen& screen, gui::Action& action, Rng& rng);

  // Fields whose passing value is known.
  size_t learned() const { return passed_.size(); }

 private:
  std::vector<std::string> strings_;
  double pct_fitting_;
  std::unordered_map<uint64_t, std::string> passed_;     // field key -> a value that passed
  std::unordered_set<uint64_t> typed_into_;              // field keys typed into in this run
  std::vector<std::pair<uint64_t, std::string>> typed_;  // typed since the activity was entered
  std::string activity_;                                 // where the last action was chosen
  bool last_was_click_ = false;
};

}  // namespace roam::explore
