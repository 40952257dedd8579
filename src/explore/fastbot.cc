#include "explore/fastbot.h"

#include <algorithm>
#include <climits>
#include <mutex>

#include <fmt/format.h>

#include "explore/random.h"
#include "gui/abstraction.h"
#include "gui/actions.h"
#include "gui/fields.h"
#include "model/learning.h"
#include "model/model_file.h"

namespace roam::explore {

using model::EventId;

std::filesystem::path ModelFile(const std::filesystem::path& model_dir) {
  return model_dir / "model.bin";
}

bool RunsFastbot(std::string_view strategy) {
  return strategy.find("fastbot") != std::string_view::npos;
}

namespace {

// The model of options.model_dir, or a fresh one (none yet, or options.model_reset).
Result<model::Model> LoadFastbotModel(const FastbotOptions& options, const std::string& package) {
  model::Model model(package);
  if (!options.model_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.model_dir, ec);
    if (ec)
      return Status::Io(fmt::format("{}: cannot create the model folder: {}",
                                    options.model_dir.string(), ec.message()));
    std::filesystem::path file = ModelFile(options.model_dir);
    auto loaded = model::LoadModel(file, package);
    if (loaded.ok()) {
      model = std::move(*loaded);
      if (model.package().empty()) model.set_package(package);
    } else if (!loaded.status().IsNotFound()) {
      if (!options.model_reset)
        return Status::InvalidArgument(
            fmt::format("cannot load the model: {} (fastbot.model_reset sets it aside and starts a "
                        "fresh model)",
                        loaded.status().message()));
      std::filesystem::path aside = file;
      aside += ".bad";
      std::filesystem::rename(file, aside, ec);
      if (options.note)
        options.note(fmt::format("fastbot.model_reset: {}; {} and a fresh model is started",
                                 loaded.status().message(),
                                 ec ? "it will be overwritten" : "set aside as " + aside.string()));
    }
  }
  model.StartRun();
  return model;
}

}  // namespace

Result<std::unique_ptr<FastbotStrategy>> FastbotStrategy::Make(FastbotMode mode,
                                                               FastbotOptions options,
                                                               const std::string& package) {
  if (options.alpha <= 0 || options.beta <= 0)
    return Status::InvalidArgument("fastbot.alpha and fastbot.beta must be above 0");
  if (options.k < 1 || options.n_step < 1)
    return Status::InvalidArgument("fastbot.k and fastbot.n_step must be at least 1");
  if (!(options.repeat >= 0 && options.repeat <= 1))
    return Status::InvalidArgument("fastbot.repeat must be 0 to 1");
  if (options.model_steps < 0)
    return Status::InvalidArgument("fastbot.model_steps must be at least 0");
  if (options.prior != "widget" && options.prior != "event")
    return Status::InvalidArgument(
        fmt::format("fastbot.prior must be widget or event, not \"{}\"", options.prior));
  if (options.dynamic_texts < 1 || options.dynamic_texts > model::Model::kMaxDynamicTextLimit)
    return Status::InvalidArgument(
        fmt::format("fastbot.dynamic_texts must be 1 to {}", model::Model::kMaxDynamicTextLimit));
  for (const auto& g : options.globals)
    if (g != "key" && !gui::ActionKindFromName(g))
      return Status::InvalidArgument(
          fmt::format("fastbot.globals: unknown global action \"{}\"", g));
  std::shared_ptr<model::SharedModel> shared = options.shared;
  if (!shared) shared = std::make_shared<model::SharedModel>();
  {
    std::lock_guard lock(shared->mu);
    if (!shared->loaded) {
      auto loaded = LoadFastbotModel(options, package);
      if (!loaded.ok()) return loaded.status();
      shared->model = std::move(*loaded);
      shared->loaded = true;
    } else if (shared->model.package() != package) {
      return Status::InvalidArgument(
          fmt::format("a shared fastbot model is of {}, not {}", shared->model.package(), package));
    }
  }
  return std::make_unique<FastbotStrategy>(mode, std::move(options), std::move(shared));
}

FastbotStrategy::FastbotStrategy(FastbotMode mode, FastbotOptions options, model::Model model)
    : FastbotStrategy(mode, std::move(options), [&] {
        auto shared = std::make_shared<model::SharedModel>();
        shared->model = std::move(model);
        shared->loaded = true;
        return shared;
      }()) {}

FastbotStrategy::FastbotStrategy(FastbotMode mode, FastbotOptions options,
                                 std::shared_ptr<model::SharedModel> shared)
    : mode_(mode),
      options_(std::move(options)),
      shared_(std::move(shared)),
      model_(shared_->model),
      intents_(options_.intents),
      typer_(options_.strings) {
  model_.set_dynamic_text_limit(
      std::clamp(options_.dynamic_texts, 1, model::Model::kMaxDynamicTextLimit));
  for (const auto& g : gui::GlobalActions()) {
    std::string_view name = g.kind == gui::ActionKind::kKey ? "key" : gui::ActionKindName(g.kind);
    for (const auto& want : options_.globals)
      if (want == name) globals_.push_back(gui::MakeGlobalAction(g.kind, std::string(g.text)));
  }
}

void FastbotStrategy::AddSettings(nlohmann::json& config) const {
  const FastbotOptions& f = options_;
  config["random"] = RandomSettingsJson(f.mix);  // the mix is the model's prior
  config["fastbot"] = {
      {"alpha", f.alpha},
      {"k", f.k},
      {"n_step", f.n_step},
      {"gamma", f.gamma},
      {"learning_rate", f.learning_rate},
      {"beta", f.beta},
      {"stuck_steps", f.stuck_steps},
      {"intent_stall_steps", f.intents.stall_steps},
      {"route", f.route},
      {"model_steps", f.model_steps},
      {"expand_globals", f.expand_globals},
      {"prior", f.prior},
      {"repeat", f.repeat},
      {"dynamic_texts", f.dynamic_texts},
      {"globals", f.globals},
      {"model", f.model_dir.empty() ? nlohmann::json(nullptr)
                                    : nlohmann::json(ModelFile(f.model_dir).string())},
      {"model_reset", f.model_reset}};
}

std::string_view FastbotStrategy::Name() const {
  switch (mode_) {
    case FastbotMode::kModel:
      return "fastbot:pm";
    case FastbotMode::kLearning:
      return "fastbot:rl";
    case FastbotMode::kCombined:
      break;
  }
  return "fastbot";
}

void FastbotStrategy::Learn(const Transition& transition) {
  left_app_ = transition.left_app;
  learned_to_ = transition.to;
}

Status FastbotStrategy::Flush() {
  if (options_.model_dir.empty()) return Status::Ok();
  std::lock_guard lock(shared_->mu);
  return model::SaveModel(model_, ModelFile(options_.model_dir)).Wrap("saving the fastbot model");
}

void FastbotStrategy::Track(EventId e) {
  // stamp_ and slot_ grow together: an event id below one's size is valid in the other.
  if (e < stamp_.size()) return;
  stamp_.resize(model_.event_count() + 1024, 0);
  slot_.resize(stamp_.size());
}

void FastbotStrategy::MapPage(const StepView& view) {
  entries_.clear();
  page_.clear();
  page_global_.clear();
  scratch_kinds_.clear();
  ++step_stamp_;
  mapper_.BeginScreen(view.screen);
  const int n = static_cast<int>(view.actions.size());
  auto add = [&](const gui::Action& action, int index) {
    EventId e = mapper_.Map(model_, view.screen, action);
    Track(e);
    entries_.push_back({e, index});
    scratch_kinds_.push_back(action.kind);
    if (stamp_[e] != step_stamp_) {
      stamp_[e] = step_stamp_;
      slot_[e] = static_cast<uint32_t>(page_.size());
      page_.push_back(e);
      page_global_.push_back(index >= n);
    }
  };
  for (int i = 0; i < n; ++i) add(view.actions[i], i);
  for (size_t g = 0; g < globals_.size(); ++g) add(globals_[g], n + static_cast<int>(g));
  // A hyper-event's prior: the mix's weights of the actions it stands for (list rows add up),
  // or of one of them (FastbotOptions::prior).
  MixWeights(options_.mix, scratch_kinds_, scratch_weights_);
  page_prior_.assign(page_.size(), 0.0);
  const bool per_widget = options_.prior == "widget";
  for (size_t i = 0; i < entries_.size(); ++i) {
    double& prior = page_prior_[slot_[entries_[i].event]];
    prior = per_widget ? prior + scratch_weights_[i] : scratch_weights_[i];
  }
}

void FastbotStrategy::LearnArrival(model::ActivityId reached) {
  bool first_visit = !model_.Visited(reached);
  model_.VisitActivity(reached);
  if (!pending_) return;
  model_.RecordTransition(*pending_, left_app_ ? std::nullopt : std::optional(reached));
  last_reward_ = model::Reward(model_, *pending_, reached, first_visit && !left_app_, page_);
  window_.emplace_back(*pending_, last_reward_);
}

void FastbotStrategy::Update(EventId next) {
  if (window_.size() < static_cast<size_t>(options_.n_step)) return;
  rewards_.clear();
  for (const auto& [e, r] : window_) rewards_.push_back(r);
  double g = model::NStepReturn(rewards_, options_.gamma, model_.Q(next));
  model::SarsaUpdate(model_, window_.front().first, g, options_.learning_rate);
  window_.pop_front();
}

size_t FastbotStrategy::PickSoftmax(Rng& rng, bool q, bool fair) {
  // Fairness (K): while some of the page's own events (Owed) has been picked fewer than K times
  // in this run, only those are candidates; then the other globals not yet picked K times; once
  // every event has had its K picks, all are.
  const uint32_t k = static_cast<uint32_t>(options_.k);
  int tier = 0;  // 1: own events owed; 2: other globals owed; 0: none
  if (fair) {
    for (EventId e : page_)
      if (Owed(e)) tier = 1;
    if (tier == 0)
      for (EventId e : page_)
        if (model_.RunCount(e) < k) tier = 2;
  }
  scratch_index_.clear();
  scratch_values_.clear();
  bool informative = false;
  for (size_t i = 0; i < page_.size(); ++i) {
    EventId e = page_[i];
    if (tier == 1 && !Owed(e)) continue;
    if (tier == 2 && model_.RunCount(e) >= k) continue;
    scratch_index_.push_back(i);
    scratch_values_.push_back(q ? model_.Q(e) : model_.Expectation(e));
    informative |= scratch_values_.back() != 0;
  }
  if (!q && !informative) {
    // E says nothing here: look further ahead (model/lookahead.h).
    lookahead_.Update(model_, options_.n_step, options_.gamma, here_);
    for (size_t j = 0; j < scratch_index_.size(); ++j)
      scratch_values_[j] = lookahead_.Expectation(model_, page_[scratch_index_[j]]);
  }
  model::SoftmaxWeights(scratch_values_, q ? options_.beta : options_.alpha, scratch_weights_);
  for (size_t j = 0; j < scratch_index_.size(); ++j)
    scratch_weights_[j] *= page_prior_[scratch_index_[j]];
  return scratch_index_[rng.Weighted(scratch_weights_)];
}

bool FastbotStrategy::Owed(EventId e) const {
  // Fastbot's states hold their widgets' events and back; Roam's other globals (menu, swipes,
  // rotate, restart, keys) are offered beside them by their prior, not owed a turn on each page.
  const gui::ActionKind kind = model_.event(e).kind;
  return (gui::IsWidgetAction(kind) || kind == gui::ActionKind::kBack) &&
         model_.RunCount(e) < static_cast<uint32_t>(options_.k);
}

std::optional<gui::ActionKind> FastbotStrategy::ForcedEscape() {
  if (options_.stuck_steps <= 0 || same_state_steps_ < options_.stuck_steps) return std::nullopt;
  if (same_state_steps_ < 2 * options_.stuck_steps) return gui::ActionKind::kBack;
  same_state_steps_ = 0;
  return gui::ActionKind::kRestart;
}

void FastbotStrategy::SeePlace(const StepView& view) {
  // The route graph's places: screens by key and which of their fields hold text, so a way
  // through a form types into it before it presses Next.
  gui::StableHash place;
  place.Add(view.state);
  fields_filled_ = false;
  for (const auto& w : view.screen.widgets)
    if (w.editable) {
      place.Add(uint64_t{!w.text.empty()});
      fields_filled_ |= !w.text.empty();
    }
  // An outcome is recorded only when this screen is where the last action led (Learn), not
  // where a time-travel restore brought the test.
  if (pending_ && learned_to_ == view.state) graph_.Record(place_, *pending_, place.value());
  learned_to_.reset();
  place_ = place.value();
  graph_.SetPage(place_, page_);
}

void FastbotStrategy::FieldsFirst(std::vector<size_t>& candidates) const {
  // A form is filled before its buttons are pressed, and sent on once filled: a Save or Next
  // tried on empty fields is spent (picked its K times) on a form that said no, and a Back or
  // a restart after typing loses what was typed.
  auto typing = [&](size_t i) {
    return model_.event(page_[i]).kind == gui::ActionKind::kInputText;
  };
  auto submit = [&](size_t i) {
    const auto& e = model_.event(page_[i]);
    return e.kind == gui::ActionKind::kClick && gui::SubmitsForm(e.text);
  };
  auto keep_only = [&](auto pred) {
    if (!std::any_of(candidates.begin(), candidates.end(), pred)) return false;
    std::erase_if(candidates, [&](size_t i) { return !pred(i); });
    return true;
  };
  if (!keep_only(typing) && fields_filled_) keep_only(submit);
}

std::optional<EventId> FastbotStrategy::Repeat(const StepView& view, Rng& rng) {
  if (options_.repeat <= 0) return std::nullopt;
  const bool fresh = seen_states_.insert(view.state).second;
  if (!pending_ || left_app_ || !fresh || here_ != last_here_) return std::nullopt;
  const EventId e = *pending_;
  if (e >= stamp_.size() || stamp_[e] != step_stamp_) return std::nullopt;  // not on this page
  if (model_.event(e).kind != gui::ActionKind::kClick) return std::nullopt;
  // A checkbox or a switch tapped again is undone, not repeated.
  const int n = static_cast<int>(view.actions.size());
  for (const auto& entry : entries_) {
    if (entry.event != e || entry.action >= n) continue;
    const int w = view.actions[entry.action].widget;
    if (w >= 0 && w < static_cast<int>(view.screen.widgets.size()) &&
        view.screen.widgets[w].checkable)
      return std::nullopt;
  }
  if (!rng.Chance(options_.repeat)) return std::nullopt;
  return e;
}

std::optional<EventId> FastbotStrategy::Route() {
  // A way that has not led to anything new in this many steps is going round in circles (an
  // outcome that changed since it was recorded); the rules choose until something new is picked.
  constexpr int kPatience = 32;
  if (!options_.route || routed_steps_ >= kPatience) return std::nullopt;
  // Only to a page with its own events owed: walking to a page for a global's turn there cost
  // more steps than the globals found (uiautomator's hour: timetravel:fastbot's units 0.90 ->
  // 0.98 of the best of the three, fastbot's 0.88 -> 0.90, on generated seeds 201..212).
  auto way = graph_.Route(place_, [&](EventId e) { return Owed(e); });
  if (way) ++routed_steps_;
  return way;
}

size_t FastbotStrategy::Choose(Rng& rng) {
  // Expansion: a hyper-event never executed in any run, uniformly; the globals among them or
  // not (FastbotOptions::expand_globals), but always in fastbot:rl, whose Q rule has no K-rule
  // to give an event of Q 0 its turn beside learned ones (its units fell to 0.44x without).
  const bool expand_globals = options_.expand_globals || mode_ == FastbotMode::kLearning;
  scratch_index_.clear();
  for (size_t i = 0; i < page_.size(); ++i)
    if (!model_.Known(page_[i]) && (expand_globals || !page_global_[i]))
      scratch_index_.push_back(i);
  FieldsFirst(scratch_index_);
  if (!scratch_index_.empty()) return scratch_index_[rng.Below(scratch_index_.size())];
  switch (mode_) {
    case FastbotMode::kModel:
      return PickSoftmax(rng, false, true);
    case FastbotMode::kLearning:
      return PickSoftmax(rng, true, false);
    case FastbotMode::kCombined:
      break;
  }
  // The model decides early in the run (step_stamp_ counts this strategy's steps) and while
  // the page has events not yet picked K times in this run, the Q-table otherwise.
  bool by_model = step_stamp_ <= static_cast<uint64_t>(options_.model_steps);
  for (EventId e : page_) by_model |= model_.RunCount(e) < static_cast<uint32_t>(options_.k);
  return by_model ? PickSoftmax(rng, false, true) : PickSoftmax(rng, true, false);
}

gui::Action FastbotStrategy::ActionOf(const StepView& view, EventId chosen, Rng& rng) {
  // Uniformly among the page's actions of the chosen hyper-event (like list rows).
  size_t count = 0, pick = 0;
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].event == chosen && rng.Below(++count) == 0) pick = i;
  const int index = entries_[pick].action;
  const int n = static_cast<int>(view.actions.size());
  return index < n ? view.actions[index] : globals_[index - n];
}

gui::Action FastbotStrategy::Next(const StepView& view, Rng& rng) {
  typer_.Arrived(view.screen);
  intents_.Saw(view);
  std::lock_guard lock(shared_->mu);
  MapPage(view);
  SeePlace(view);
  here_ = model_.InternActivity(view.screen.activity);
  LearnArrival(here_);
  same_state_steps_ = view.state == last_state_ ? same_state_steps_ + 1 : 0;
  last_state_ = view.state;

  gui::Action action;
  EventId chosen;
  auto escape = ForcedEscape();
  if (page_.empty() && !escape) escape = gui::ActionKind::kBack;  // no actions, no globals
  std::optional<gui::Action> unasked;  // an action not of the page: an escape or an intent
  if (escape) {
    unasked = gui::MakeGlobalAction(*escape);
  } else if (intents_.Stalled(view)) {
    unasked = intents_.Pick(view, rng);
  }
  if (unasked) {
    action = std::move(*unasked);
    chosen = mapper_.Map(model_, view.screen, action);
    Track(chosen);
  } else if (auto again = Repeat(view, rng)) {
    chosen = *again;
    action = ActionOf(view, chosen, rng);
  } else {
    auto way = Route();
    chosen = way ? *way : page_[Choose(rng)];
    action = ActionOf(view, chosen, rng);
  }
  last_here_ = here_;
  if (model_.RunCount(chosen) < static_cast<uint32_t>(options_.k)) routed_steps_ = 0;
  Update(chosen);
  model_.MarkExecuted(chosen);
  pending_ = chosen;
  left_app_ = false;
  typer_.Chosen(view.screen, action, rng);
  return action;
}

}  // namespace roam::explore
