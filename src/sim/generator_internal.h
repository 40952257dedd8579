// Internals of the app generator shared by generator.cc (names, navigation tree, document),
// generator_screens.cc (widgets of each screen) and generator_bugs.cc (planted bugs). The
// AppBuilder owns the whole draft of one app; it is used by one thread.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/rng.h"
#include "sim/generator.h"

namespace roam::sim::gen {

using json = nlohmann::json;

// One screen of the draft: its place in the navigation graph and the JSON built for it.
struct ScreenDraft {
  std::string id;             // "EditProfile"
  std::string cls;            // "EditProfileActivity" (shared by the tabs of one activity)
  std::string subpackage;     // "ui.profile"
  std::string title;          // "Edit profile"
  std::string noun;           // "Profile"
  std::string snake;          // "edit_profile": prefix of its vars and lists
  int activity = 0;           // index of its activity
  int parent = -1;            // tree parent (-1: the start screen)
  int depth = 0;              // tree depth = BFS depth from the start screen
  std::vector<int> children;  // tree edges
  std::vector<int> links;     // cross links (never shorten a path: depth(v) <= depth(u) + 1)
  bool form = false, list = false, dialog = false, menu = false, toggle = false, dynamic = false;
  int gated_child = -1;  // the child the form's Next leads to (-1: Save goes back)
  // Shape kReal only:
  int fillers = 0;               // widgets whose tap changes nothing visible
  bool leave = false;            // a button that leaves the app
  int hidden_child = -1;         // the child whose button shows only once a checkbox is ticked
  json intent = json::object();  // "exported", "intent_filters", "extras" (outside screens)

  json widgets = json::array();
  json menu_items = json::array();
  json on = json::object();
  std::set<std::string> ids;  // widget and menu item ids in use
  int form_submit = -1;       // index in `widgets` of the form's Save / Next button
  int form_checks = 0;        // leading validation effects of its click handler
  std::string list_name;      // its data list ("" if none)
};

// The draft of one app: built by AppBuilder, assembled into the spec document.
class AppBuilder {
 public:
  explicit AppBuilder(const GeneratorOptions& options);
  json Build();

  // generator_screens.cc
  void EmitScreen(int s);
  // generator_bugs.cc: each planter returns the bug's {summary, correct}.
  void PlantBugs();
  std::pair<std::string, std::string> PlantFault(ScreenDraft& d, const std::string& id, bool hang,
                                                 bool in_form);
  std::pair<std::string, std::string> PlantDataLoss(ScreenDraft& d, const std::string& id);
  std::pair<std::string, std::string> PlantWrongDelete(ScreenDraft& d, const std::string& id);
  std::pair<std::string, std::string> PlantFunctionStops(ScreenDraft& d, const std::string& id);
  // Shape kReal: receivers of system broadcasts, some crashing (their own random stream, so the
  // rest of the app is as it was without them).
  void PlantReceivers();
  // Shape kReal: activities only outside the GUI reaches, some with a deep link, some reading
  // extras, and the extras that crash (generator_intents.cc; their own random stream, appended
  // after every other screen and bug, so the rest of the app is as it was without them).
  void PlantOutsideScreens();
  std::vector<std::string> FaultFrames(const ScreenDraft& d, const std::string& method);
  std::string Route(int screen) const;  // "Main > Orders > EditOrder"

  // Helpers shared by the parts.
  std::string UniqueId(ScreenDraft& s, const std::string& base);
  std::string Pick(const std::vector<std::string>& words);
  std::string Frame(const ScreenDraft& s, const std::string& method);  // an app stack frame
  std::string Unit(const ScreenDraft& s, const std::string& method);   // "Cls.method"
  std::string NewVar(const ScreenDraft& s, const std::string& name, const json& init);
  std::string NewList(const ScreenDraft& s, const std::string& name, const json& items);
  json SampleItems(int count);
  std::string NewDialog(const std::string& base, json dialog);  // returns its unique id
  bool real() const { return opt_.shape == GeneratorShape::kReal; }

  const GeneratorOptions& opt_;
  Rng rng_;
  std::string package_;
  std::string label_;
  std::vector<ScreenDraft> screens_;
  int activity_count_ = 0;
  json vars_ = json::object();
  json lists_ = json::object();
  json dialogs_ = json::array();
  json bugs_ = json::array();
  json persist_ = json::array();
  std::set<std::string> dialog_ids_;
  std::vector<std::string> ground_truth_;  // one sentence per planted bug, for `description`
  int outside_ = 0;                        // screens PlantOutsideScreens added

 private:
  void PlanScreens();
  void PlanTree();
  void PlanLinks();
  void PlanFeatures();
  void PlanRealFeatures();  // shape kReal: fillers, leaving buttons, hidden ways on
  // generator_screens.cc, shape kReal: a checkbox that shows the way to `child`, fillers and the
  // button that leaves the app.
  json HiddenWay(ScreenDraft& d, const ScreenDraft& child, json button);
  void EmitRealExtras(ScreenDraft& d);
  std::string Describe() const;
};

// Vocabulary.
extern const std::vector<std::string> kNouns;          // Notes, Settings, Profile, ...
extern const std::vector<std::string> kItemTitles;     // list item titles
extern const std::vector<std::string> kForwardLabels;  // OK, Save, Next, Continue, Done, Add
extern const std::vector<std::string> kBackLabels;     // Cancel, Back, Close, Dismiss
extern const std::vector<std::string> kClickFrames;    // framework frames below a click handler

}  // namespace roam::sim::gen
