// Fastbot2 (Lv et al., "Fastbot2: Reusable Automated Model-based GUI Testing for Android
// Enhanced by Reinforcement Learning", ASE'22) over the model of model/: each screen's actions
// and the global actions become hyper-events; a hyper-event never executed in any run (not in
// M) is tried first (expansion); then
//   fastbot:pm  softmax over E(e) with temperature alpha among the page's events picked fewer
//               than K times in this run (all of them once every one has been picked K times);
//               where E is 0 for all of them, over E looked n_step steps ahead
//               (model/lookahead.h: towards unvisited activities and unexpanded events);
//   fastbot:rl  softmax over Q(e) with temperature beta;
//   fastbot     the notes' combination: the pm rule early in a run (its first `model_steps`
//               steps) while Q is learned, the Q rule later; and the pm rule at any time on a
//               page with events picked fewer than K times in this run.
// Q is learned by N-step SARSA (model/learning.h) in every mode. Beyond the notes (route, on by
// default): on a page whose events have all been picked K times in this run, the strategy takes
// the first event of the shortest known way (model/run_graph.h) to a page with one that has not,
// and the rules above choose only where no such way is known; and expansion types into a page's
// fields before its other new events and, once they hold text, presses a button that sends the
// form on (gui::SubmitsForm) before the rest. A model folder makes the model
// reusable: loaded at construction, written by Flush(). Escape rule: after `stuck_steps`
// consecutive steps on one abstract state the back key is forced, after twice that a restart.
// Seeded only through the Rng it is given. One strategy is not thread-safe; strategies of
// several devices may share one model (FastbotOptions::shared), each step locking it.
#pragma once

#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "base/status.h"
#include "explore/field_typer.h"
#include "explore/intents.h"
#include "explore/random.h"
#include "explore/strategy.h"
#include "model/events.h"
#include "model/lookahead.h"
#include "model/model.h"
#include "model/run_graph.h"

namespace roam::explore {

enum class FastbotMode { kModel, kLearning, kCombined };

struct FastbotOptions {
  double alpha = 0.8;  // softmax temperature over E(e) (the notes: 0.8)
  // Picks of each event per run before the others (the notes: 1): a page's widgets' events and
  // back first (what Fastbot's states hold), then the other globals.
  int k = 1;
  int n_step = 5;              // n of N-step SARSA
  double gamma = 0.8;          // discount of later rewards
  double learning_rate = 0.5;  // SARSA step size
  double beta = 0.1;           // softmax temperature over Q(e); rewards are about 0.5 to 5
  // Texts a widget slot may show before its text counts as dynamic (empty): 1 is the notes'
  // rule taken literally, any change; 2 keeps apart the items that two dialogs of one activity
  // show at one place ("Reply"/"View thread" vs "Spam"/"Other"), which on the bench suite at
  // 2,000 events covered 3 more activities and ~2% more units than 1. 1..8.
  int dynamic_texts = 2;
  int stuck_steps = 20;  // steps on one state before back is forced (2x: restart); 0: never
  bool route = true;     // walk to the nearest page with events not yet picked K times
  // The combined mode's switch-over: steps of a run in which it picks by the model (pm) before
  // it picks by Q. 0: the model only on pages with events not yet picked K times, which in a
  // fresh run (expansion picks every new event first) never happens, leaving fastbot:rl.
  int model_steps = 500;
  // Expansion tries the global actions (back, menu, swipes, rotate, restart) as it tries a
  // screen's new events; false: only the screen's, the globals left to the rules and the prior
  // (Fastbot's own agent does not expand them). fastbot:rl expands them either way.
  bool expand_globals = false;
  // Intents (explore/intents.h): one is sent when no new activity came for intents.stall_steps
  // steps, and is then a hyper-event of its own in the model (its text names it).
  IntentOptions intents;
  // A hyper-event's prior: "widget", the mix's weights of all the actions it stands for added up
  // (a list of 20 like rows weighs 20 buttons); "event", the weight of one of them.
  std::string prior = "widget";
  // A tap (not of a checkbox or a switch) that stayed on its activity and led to a screen not
  // seen before in this run did something: it is tapped again at once with this chance, while
  // each tap still leads somewhere new ("tap X twice" crashes are out of K = 1's reach
  // otherwise). 0: never, as the notes. On generated apps (seeds 201..212, 30 minutes of a
  // phone, 5 seeds) 1 found such crashes in 0.69 of the runs that could, against 0.13.
  double repeat = 1;
  // Global actions offered as hyper-events on every screen, by kind name (key: volume keys).
  std::vector<std::string> globals = {"back",       "menu",        "swipe_up", "swipe_down",
                                      "swipe_left", "swipe_right", "rotate",   "restart"};
  // The prior of both softmaxes: an event's weight is its share of random's mix (the --pct-*
  // percentages) times exp(value / temperature), so where the model tells events apart it
  // leans on them, and where it does not (E = 0 everywhere) it picks as random would, not
  // uniformly over hyper-events (where the eight globals outnumber a screen's widgets).
  RandomOptions mix;
  std::filesystem::path model_dir;  // the reusable model's folder; empty: none on disk
  bool model_reset = false;         // a model file that cannot be loaded is set aside, not an error
  std::vector<std::string> strings;              // texts to type; empty: DefaultInputStrings
  std::function<void(const std::string&)> note;  // notes for the user (a model reset)
  // Several devices of one run learning together (run/explore/fleet.h): the strategies made with
  // the same holder share its model, the first one made loading it. Null: a model of its own.
  std::shared_ptr<model::SharedModel> shared;
};

// The model file in a model folder.
std::filesystem::path ModelFile(const std::filesystem::path& model_dir);
// Whether the strategy name runs Fastbot2, alone or wrapped (`timetravel:fastbot`), and so
// takes its model folder and settings.
bool RunsFastbot(std::string_view strategy);

class FastbotStrategy final : public Strategy {
 public:
  // Loads options.model_dir's model when set (see FastbotOptions::model_reset); a model is of
  // one package, the app under test.
  static Result<std::unique_ptr<FastbotStrategy>> Make(FastbotMode mode, FastbotOptions options,
                                                       const std::string& package);
  FastbotStrategy(FastbotMode mode, FastbotOptions options, model::Model model);
  // On a model shared with the strategies of other devices (FastbotOptions::shared).
  FastbotStrategy(FastbotMode mode, FastbotOptions options,
                  std::shared_ptr<model::SharedModel> shared);

  std::string_view Name() const override;
  gui::Action Next(const StepView& view, Rng& rng) override;
  void Learn(const Transition& transition) override;
  Status Flush() override;
  void AddSettings(nlohmann::json& config) const override;

  // Not to be read while another device's strategy may be stepping on a shared model.
  const model::Model& model() const { return model_; }
  double last_reward() const { return last_reward_; }

 private:
  struct Entry {
    model::EventId event;
    int action;  // index into view.actions, or view.actions.size() + index into globals_
  };
  void MapPage(const StepView& view);
  void Track(model::EventId e);  // stamp_ and slot_ hold `e`
  void LearnArrival(model::ActivityId reached);
  size_t Choose(Rng& rng);                          // index into page_
  size_t PickSoftmax(Rng& rng, bool q, bool fair);  // index into page_
  // An event the K rule owes a pick in this run: one of the page's widgets' or back (as
  // Fastbot's own states hold), picked fewer than K times so far.
  bool Owed(model::EventId e) const;
  std::optional<gui::ActionKind> ForcedEscape();  // back or restart when stuck
  void SeePlace(const StepView& view);            // the route graph's place, edge
  std::optional<model::EventId> Route();          // see FastbotOptions::route
  // The last event again when it did something (FastbotOptions::repeat), else nullopt.
  std::optional<model::EventId> Repeat(const StepView& view, Rng& rng);
  void FieldsFirst(std::vector<size_t>& candidates) const;  // page_ indices
  void Update(model::EventId next);
  gui::Action ActionOf(const StepView& view, model::EventId chosen, Rng& rng);

  FastbotMode mode_;
  FastbotOptions options_;
  std::shared_ptr<model::SharedModel> shared_;  // never null; this strategy's alone or not
  model::Model& model_;                         // shared_->model, taken under shared_->mu
  model::EventMapper mapper_;
  model::Lookahead lookahead_;
  model::RunGraph graph_;               // this device's places of this run (not shared)
  uint64_t place_ = 0;                  // the page's place in graph_
  std::optional<uint64_t> learned_to_;  // the screen key the last action led to (Learn)
  bool fields_filled_ = false;          // some edit field of the page holds text
  int routed_steps_ = 0;        // steps routed since an event was last picked for the first time
  model::ActivityId here_ = 0;  // the page's activity
  std::vector<gui::Action> globals_;
  IntentChooser intents_;
  FieldTyper typer_;                  // what input_text actions type
  std::vector<Entry> entries_;        // every action of the page with its event
  std::vector<model::EventId> page_;  // the page's distinct events
  std::vector<double> page_prior_;    // per page_ event: its share of random's mix
  std::vector<bool> page_global_;     // per page_ event: one of globals_
  std::vector<uint64_t> stamp_;       // per event: the step it was last put in page_
  std::vector<uint32_t> slot_;        // per event: its index in page_ (valid when stamped)
  uint64_t step_stamp_ = 0;
  std::vector<gui::ActionKind> scratch_kinds_;
  std::vector<size_t> scratch_index_;
  std::vector<double> scratch_values_, scratch_weights_;
  std::deque<std::pair<model::EventId, double>> window_;  // (e_t, r_{t+1}) awaiting an update
  std::vector<double> rewards_;
  std::optional<model::EventId> pending_;  // the last executed event
  bool left_app_ = false;
  uint64_t last_state_ = 0;
  int same_state_steps_ = 0;
  std::unordered_set<uint64_t> seen_states_;  // screens met in this run (options_.repeat)
  model::ActivityId last_here_ = 0;
  double last_reward_ = 0;
};

}  // namespace roam::explore
